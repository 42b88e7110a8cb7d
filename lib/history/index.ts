import 'server-only';

// lib/history: what Fleetmap remembers. The store (PGlite or PostgreSQL, one schema and one migrations folder),
// the recorder that listens to the feed's events, and the queries behind the history API.
export { openStore, rows, MIGRATIONS_FOLDER, type Store, type HistoryDb, type OpenStoreOptions } from './store';
export { processStore, type ProcessStore } from './process-store';
export { DataDirInUseError } from './data-dir-lock';
export * as historySchema from './schema';
