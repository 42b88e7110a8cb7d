import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachStore, freshPgliteStore, freshPostgresStore, type TestStore } from '@/lib/testing/store';
import { openStore, rows } from './store';
import { claimStore, moveStoreAside } from './upstream-identity';
import { storeUpstream } from './schema';

const A = { upstream: 'http://127.0.0.1:4101/api/v1/partner', keyFingerprint: 'fp-a' };
const B = { upstream: 'http://127.0.0.1:4202/api/v1/partner', keyFingerprint: 'fp-b' };
const t0 = new Date('2026-03-04T10:00:00Z');

describeEachStore('A store belongs to one upstream', (target) => {
  let opened: TestStore;
  afterEach(async () => opened?.dispose());

  it('is claimed at its first start; another upstream is refused with both hosts and the two ways out; a rotation is confirmed', async () => {
    opened = await target.open();
    const claim = (id: typeof A, keyRotated = false) => claimStore(opened.db, opened.where, id, { keyRotated }, t0);
    expect(await claim(A)).toEqual({ kind: 'first' });
    expect(await claim(A)).toEqual({ kind: 'same' });
    const other = await claim(B);
    expect(other.kind).toBe('other');
    const sentence = other.kind === 'other' ? other.sentence : '';
    expect(sentence).toContain('belongs to the upstream at 127.0.0.1:4101, and this start reads 127.0.0.1:4202');
    expect(sentence).toMatch(/another FLEETMAP_DATA_DIR \(or DATABASE_URL\), or set FLEETMAP_STORE_RESET=1 .*never deleted/);
    const embedded = await claimStore(opened.db, opened.where, { upstream: 'embedded simulator', keyFingerprint: 'embedded' }, { keyRotated: false }, t0);
    expect(embedded.kind === 'other' && embedded.sentence).toContain('belongs to the upstream at 127.0.0.1:4101, and this start reads the embedded simulator:');
    // The same upstream with another key: refused unless the operator confirms a rotation, which is then kept.
    const rotated = { ...A, keyFingerprint: 'fp-a2' };
    const refused = await claim(rotated);
    expect(refused.kind === 'other' && refused.sentence).toMatch(/with another API key.*FLEETMAP_STORE_KEY_ROTATED=1/);
    expect(await claim(rotated, true)).toEqual({ kind: 'rotated' });
    expect(await claim(rotated)).toEqual({ kind: 'same' });
    // Never the key: the row holds the fingerprint it was given, and nothing else of it.
    expect(await opened.db.select().from(storeUpstream)).toEqual([{ id: 1, upstream: A.upstream, keyFingerprint: 'fp-a2', recordedAt: t0.getTime() }]);
  });
});

describe('FLEETMAP_STORE_RESET=1 on PGlite', () => {
  it('moves the data directory aside, never deleting it; the store opened again is empty and claims anew', async () => {
    const store = await freshPgliteStore({ onDisk: true });
    const dir = store.dataDir!;
    try {
      await claimStore(store.db, store.where, A, { keyRotated: false }, t0);
      const aside = await moveStoreAside(store, dir, t0);
      expect(aside).toBe(join(dir, 'pglite.aside-20260304t100000'));
      expect(existsSync(join(aside, 'PG_VERSION'))).toBe(true);
      const fresh = await openStore({ databaseUrl: null, dataDir: dir });
      try {
        expect(await claimStore(fresh.db, fresh.where, B, { keyRotated: false }, t0)).toEqual({ kind: 'first' });
      } finally {
        await fresh.close();
      }
      expect(readdirSync(dir).filter((f) => f.startsWith('pglite')).sort()).toEqual(['pglite', 'pglite.aside-20260304t100000']);
    } finally {
      await store.dispose();
    }
    // Two embedded stores on disk, each created and migrated: minutes on a loaded machine.
  }, 360_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('FLEETMAP_STORE_RESET=1 on PostgreSQL', () => {
  it('moves the tables into a schema of their own, never dropping them; the database opened again is empty', async () => {
    const store = await freshPostgresStore();
    try {
      await claimStore(store.db, store.where, A, { keyRotated: false }, t0);
      expect(await moveStoreAside(store, null, t0)).toBe('PostgreSQL schemas fleetmap_aside_20260304t100000 and fleetmap_aside_20260304t100000_migrations');
      const fresh = await openStore({ databaseUrl: store.databaseUrl, dataDir: null });
      try {
        expect(await claimStore(fresh.db, fresh.where, B, { keyRotated: false }, t0)).toEqual({ kind: 'first' });
        const kept = await rows<{ upstream: string }>(fresh.db, sql`SELECT upstream FROM fleetmap_aside_20260304t100000.store_upstream`);
        expect(kept).toEqual([{ upstream: A.upstream }]);
      } finally {
        await fresh.close();
      }
    } finally {
      await store.dispose();
    }
  });
});
