import 'server-only';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { EMBEDDED_UPSTREAM, type UpstreamIdentity } from '@/lib/partner';
import type { HistoryConfig } from '@/lib/config';
import type { ProcessStore } from './process-store';
import { storeUpstream } from './schema';
import type { HistoryDb, Store } from './store';

// A store belongs to one upstream. Route, trip and bus ids of two upstreams collide, so a store that recorded one
// agency and then another would restore the first one's buses as if they were live, and count one agency's trips in
// the other's figures for ever. The store keeps which upstream it belongs to (its base URL, and a one-way
// fingerprint of the key, never the key), written at its first start; a start against another upstream stops with
// one sentence, unless FLEETMAP_STORE_RESET=1 says to start the store afresh, which moves the old data aside and
// never deletes it.
//
// A key rotated for the same upstream is the same upstream: the base URL is the same and only the fingerprint
// differs. The partner API's /status names no organization (a gap of the spec), so Fleetmap cannot tell a rotated
// key from another organization's key on the same host by itself: the operator confirms a rotation once with
// FLEETMAP_STORE_KEY_ROTATED=1, and the new fingerprint is kept.

export type StoreClaim =
  | { kind: 'first' | 'same' | 'rotated' }
  | { kind: 'other'; sentence: string };

/** An upstream as a sentence names it: its host, or the embedded simulator. */
const hostOf = (upstream: string) => {
  if (upstream === EMBEDDED_UPSTREAM) return 'the embedded simulator';
  try {
    return new URL(upstream).host;
  } catch {
    return upstream;
  }
};

const owner = (upstream: string) => (upstream === EMBEDDED_UPSTREAM ? hostOf(upstream) : `the upstream at ${hostOf(upstream)}`);

/** Whether this store may serve `id`'s data; records `id` on a store's first start, or a rotation confirmed. */
export async function claimStore(db: HistoryDb, where: string, id: UpstreamIdentity, opts: { keyRotated: boolean }, now: Date): Promise<StoreClaim> {
  const [row] = await db.select().from(storeUpstream).where(eq(storeUpstream.id, 1)).limit(1);
  if (!row) {
    await db.insert(storeUpstream).values({ id: 1, upstream: id.upstream, keyFingerprint: id.keyFingerprint, recordedAt: now.getTime() }).onConflictDoNothing();
    return { kind: 'first' };
  }
  if (row.upstream === id.upstream && row.keyFingerprint === id.keyFingerprint) return { kind: 'same' };
  const ways = `start it with another FLEETMAP_DATA_DIR (or DATABASE_URL), or set FLEETMAP_STORE_RESET=1 to start this store afresh (its data is moved aside, never deleted)`;
  if (row.upstream === id.upstream) {
    if (opts.keyRotated) {
      await db.update(storeUpstream).set({ keyFingerprint: id.keyFingerprint, recordedAt: now.getTime() }).where(eq(storeUpstream.id, 1));
      return { kind: 'rotated' };
    }
    return {
      kind: 'other',
      sentence: `The store (${where}) was recorded from ${hostOf(row.upstream)} with another API key, and this start uses a new key there: if the key was rotated for the same organization, confirm it once with FLEETMAP_STORE_KEY_ROTATED=1; if it is another organization's, ${ways}.`,
    };
  }
  return {
    kind: 'other',
    sentence: `The store (${where}) belongs to ${owner(row.upstream)}, and this start reads ${hostOf(id.upstream)}: their buses, routes and trips would be mixed, so for ${hostOf(id.upstream)} ${ways}.`,
  };
}

/**
 * Moves the store's data aside (FLEETMAP_STORE_RESET=1): PGlite's directory is renamed beside itself, PostgreSQL's
 * tables go into a schema of their own; nothing is deleted. The store must be closed afterwards and opened again
 * (its migrations then make fresh tables). Returns where the old data is now, for the log.
 */
export async function moveStoreAside(store: Store, dataDir: string | null, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').toLowerCase();
  if (store.target === 'pglite') {
    if (!dataDir) throw new Error('An in-memory store has nothing to move aside.');
    await store.close();
    const from = join(dataDir, 'pglite');
    const to = join(dataDir, `pglite.aside-${stamp}`);
    if (existsSync(from)) renameSync(from, to);
    return to;
  }
  const aside = `fleetmap_aside_${stamp}`;
  await store.db.execute(sql.raw(`ALTER SCHEMA public RENAME TO ${aside}; CREATE SCHEMA public; ALTER SCHEMA drizzle RENAME TO ${aside}_migrations`));
  await store.close();
  return `PostgreSQL schemas ${aside} and ${aside}_migrations`;
}

/**
 * Server start: the process's store claimed for `id`. Another upstream's store stops the start with its sentence,
 * or with `storeReset` is moved aside and opened afresh. A store that cannot be opened now is not checked here
 * (the live map starts; the recorder keeps trying).
 */
export async function claimProcessStore(
  store: ProcessStore,
  id: UpstreamIdentity,
  cfg: Pick<HistoryConfig, 'databaseUrl' | 'dataDir' | 'storeReset' | 'storeKeyRotated'>,
  log: (line: Record<string, unknown>) => void,
): Promise<{ ok: true } | { ok: false; sentence: string }> {
  const opened = await store.open().catch(() => null);
  if (!opened) return { ok: true };
  const claim = await claimStore(opened.db, opened.where, id, { keyRotated: cfg.storeKeyRotated }, new Date());
  if (claim.kind === 'rotated') log({ msg: 'store kept for a rotated key', where: opened.where });
  if (claim.kind !== 'other') return { ok: true };
  if (!cfg.storeReset) return { ok: false, sentence: claim.sentence };
  const aside = await moveStoreAside(opened, cfg.databaseUrl ? null : cfg.dataDir, new Date());
  await store.close();
  const fresh = await store.open();
  await claimStore(fresh.db, fresh.where, id, { keyRotated: false }, new Date());
  log({ msg: 'store moved aside', aside, where: fresh.where, upstream: hostOf(id.upstream) });
  return { ok: true };
}
