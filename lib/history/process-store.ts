import 'server-only';
import { historyConfig } from '@/lib/config';
import { openStore, type Store } from './store';

// The process's one store, opened at server start and shared by every room that keeps tables (the recorder,
// the history API, sign-in). Next.js may load route handlers as separate module graphs, so the handle lives
// on globalThis, like the feed's.
const STORE = Symbol.for('fleetmap.store');
type StoreHolder = { [STORE]?: Promise<Store> };

/** Opens the configured store once per process (DATABASE_URL, else PGlite in FLEETMAP_DATA_DIR). */
export function processStore(): Promise<Store> {
  const holder = globalThis as StoreHolder;
  let store = holder[STORE];
  if (!store) {
    const cfg = historyConfig();
    store = openStore({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
    // A failed open is not kept: the next caller tries again (and reports its own error).
    store.catch(() => {
      if (holder[STORE] === store) delete holder[STORE];
    });
    holder[STORE] = store;
  }
  return store;
}

/** Closes the process's store (server shutdown, after the recorder's last flush). */
export async function closeProcessStore(): Promise<void> {
  const holder = globalThis as StoreHolder;
  const store = holder[STORE];
  if (!store) return;
  delete holder[STORE];
  await (await store.catch(() => null))?.close();
}
