import { describe, expect, it } from 'vitest';
import { ClientQuota } from '@/lib/fleet/client-quota';
import { WatchRegistry } from '@/lib/fleet/watches';
import { CLIENT_ADDRESS_HEADER, CLIENT_PRINCIPAL_HEADER, clientKey } from './client-key';

describe('clientKey', () => {
  it('is the address the server wrote, and one shared key without it', () => {
    const from = (headers: Record<string, string>) => clientKey(new Request('http://x/api/live', { headers }));
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7' })).toBe('address:10.0.0.7');
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7' })).not.toBe(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.8' }));
    expect(from({})).toBe('address:unknown');
    // A forwarded-for header is not trusted: only scripts/server/server.mjs's own header counts.
    expect(from({ 'x-forwarded-for': '1.2.3.4' })).toBe('address:unknown');
  });

  it('is the account proxy.ts validated and the address together, so that each counts on its own', () => {
    const from = (headers: Record<string, string>) => clientKey(new Request('http://x/api/live', { headers }));
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7', [CLIENT_PRINCIPAL_HEADER]: 'account:ann' })).toBe('account:ann|address:10.0.0.7');
  });
});

describe('per-client limits count per account and per address', () => {
  it('a new session of the same account, or another account from the same address, brings no fresh allowance', () => {
    const quota = new ClientQuota(2, 1);
    const t = 1_000_000;
    // Two sessions of one account (a sign-in again) share the account's bucket: the session was the key before.
    expect(quota.take('account:ann|address:10.0.0.1', t).ok).toBe(true);
    expect(quota.take('account:ann|address:10.0.0.2', t).ok).toBe(true);
    expect(quota.take('account:ann|address:10.0.0.3', t)).toEqual({ ok: false, retryInS: 60 });
    // Another account from an address that spent its bucket waits too.
    expect(quota.take('account:bob|address:10.0.0.1', t).ok).toBe(true);
    expect(quota.take('account:cy|address:10.0.0.1', t).ok).toBe(false);
    expect(quota.take('account:dee|address:10.0.0.9', t).ok).toBe(true);
  });

  it('the watches one client may hold are the account’s, whatever its sessions and addresses', () => {
    const watches = new WatchRegistry(30_000, 2, 100);
    const t = 1_000_000;
    watches.add('account:ann|address:10.0.0.1', 1, t);
    watches.add('account:ann|address:10.0.0.2', 2, t);
    watches.add('account:ann|address:10.0.0.3', 3, t);
    // The third replaced the account's oldest: bus 1 is watched no more.
    expect(watches.watchedUntil(1, t)).toBe(0);
    expect(watches.watchedUntil(3, t)).toBeGreaterThan(t);
  });
});
