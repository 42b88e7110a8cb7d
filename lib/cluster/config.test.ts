import { describe, expect, it } from 'vitest';
import { readClusterConfig } from './config';

describe('cluster configuration', () => {
  it('is off without REDIS_URL: one process, as before', () => {
    expect(readClusterConfig({})).toEqual({ ok: true, config: null });
  });

  it('refuses REDIS_URL without a PostgreSQL DATABASE_URL, in one sentence', () => {
    const r = readClusterConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^REDIS_URL is set.*DATABASE_URL.*PostgreSQL.*\.$/);
    expect(readClusterConfig({ REDIS_URL: 'redis://x', DATABASE_URL: 'file:/tmp/x' }).ok).toBe(false);
  });

  it('names the cluster (default fleetmap) and reads the lease TTL', () => {
    const r = readClusterConfig({ REDIS_URL: 'redis://h:6379', DATABASE_URL: 'postgres://u@h/db', FLEETMAP_CLUSTER: 'north', FLEETMAP_LEASE_TTL_S: '4' });
    expect(r).toEqual({ ok: true, config: { redisUrl: 'redis://h:6379', name: 'north', leaseTtlMs: 4_000 } });
    expect(readClusterConfig({ REDIS_URL: 'redis://h', DATABASE_URL: 'postgresql://h/db' })).toMatchObject({ ok: true, config: { name: 'fleetmap', leaseTtlMs: 6_000 } });
    expect(readClusterConfig({ REDIS_URL: 'redis://h', DATABASE_URL: 'postgres://h/db', FLEETMAP_CLUSTER: 'a b' }).ok).toBe(false);
    expect(readClusterConfig({ REDIS_URL: 'http://h', DATABASE_URL: 'postgres://h/db' }).ok).toBe(false);
  });
});
