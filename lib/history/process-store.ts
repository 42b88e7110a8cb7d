import 'server-only';
import type { HistoryConfig } from '@/lib/config';
import { openStore, type Store } from './store';

// The process's one store, shared by every room that keeps tables (the recorder, the history API, sign-in). Server
// start makes one opener and keeps it in the application context; nothing else opens the configured store.

export interface ProcessStore {
  /** Opens the store on first call (DATABASE_URL, else PGlite in FLEETMAP_DATA_DIR); a failed open is retried next time. */
  open(): Promise<Store>;
  /** Closes it (server shutdown, after the recorder's last flush). */
  close(): Promise<void>;
}

export function processStore(cfg: Pick<HistoryConfig, 'databaseUrl' | 'dataDir'>): ProcessStore {
  let store: Promise<Store> | null = null;
  return {
    open() {
      if (!store) {
        const opening = openStore({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
        // A failed open is not kept: the next caller tries again (and reports its own error).
        opening.catch(() => {
          if (store === opening) store = null;
        });
        store = opening;
      }
      return store;
    },
    async close() {
      const opened = store;
      store = null;
      await (await opened?.catch(() => null))?.close();
    },
  };
}
