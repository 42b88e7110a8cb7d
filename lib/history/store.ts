import 'server-only';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { Pool } from 'pg';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';

// The database Fleetmap keeps its history in (and other rooms their tables): embedded PGlite in a directory by
// default, or PostgreSQL through a pool when DATABASE_URL is set. Both get the same migrations (./drizzle,
// written by drizzle-kit from every schema listed in drizzle.config.ts) before anything reads or writes.

export type HistoryDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * PGlite's PostgreSQL settings past its defaults. Its initdb leaves shared_buffers at 128 MB and
 * maintenance_work_mem at 64 MB, which live in the WebAssembly memory of the app's own process and, once touched,
 * never go back: a process that wrote and indexed 300,000 rows held 903 MB resident with the defaults and 732 MB
 * with these. The recorder appends and reads recent pages; a period's read goes through the file system (the
 * operating system's cache for a data directory).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'];

export interface Store {
  db: HistoryDb;
  target: 'pglite' | 'postgres';
  /** For people: where the data lives (never the connection string, which may hold a password). */
  where: string;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** PostgreSQL connection string; null for PGlite. */
  databaseUrl: string | null;
  /** PGlite's directory (FLEETMAP_DATA_DIR); null keeps PGlite in memory (tests). */
  dataDir: string | null;
  migrationsFolder?: string;
  /** Pool size for PostgreSQL. */
  poolMax?: number;
  /** Milliseconds to wait for a PostgreSQL connection before a write fails (and the recorder buffers). */
  connectTimeoutMs?: number;
}

export const MIGRATIONS_FOLDER = join(process.cwd(), 'drizzle');
// Several instances may start together against one PostgreSQL: only one applies the migrations at a time.
const MIGRATION_LOCK_KEY = 0x466c6d; // "Flm"

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const migrationsFolder = opts.migrationsFolder ?? MIGRATIONS_FOLDER;
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, migrationsFolder, opts) : openPglite(opts.dataDir, migrationsFolder);
}

async function openPglite(dataDir: string | null, migrationsFolder: string): Promise<Store> {
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PGlite | undefined;
  try {
    const path = dataDir ? join(dataDir, 'pglite') : undefined;
    // PGlite takes half a minute to give up on a path it cannot use, with no message: say why at once.
    if (path && existsSync(path) && !statSync(path).isDirectory()) throw new Error(`${path} is not a directory`);
    client = await PGlite.create(path, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])] });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    const c = client;
    let closed = false;
    return {
      db: db as unknown as HistoryDb,
      target: 'pglite',
      where: dataDir ? `PGlite in ${dataDir}` : 'PGlite in memory',
      async close() {
        if (closed) return;
        closed = true;
        try {
          await c.close();
        } finally {
          release();
        }
      },
    };
  } catch (e) {
    await client?.close().catch(() => {});
    release();
    throw new Error(`The embedded store in ${dataDir ?? 'memory'} could not be opened: ${(e instanceof Error ? e.message || e.name : String(e)) || 'unknown error'}`, { cause: e });
  }
}

function describeUrl(url: string): string {
  const u = new URL(url);
  return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

async function openPostgres(url: string, migrationsFolder: string, opts: OpenStoreOptions): Promise<Store> {
  // A query that gets no answer (a network cut without a reset) fails after query_timeout instead of holding the
  // recorder's batch forever.
  const pool = new Pool({ connectionString: url, max: opts.poolMax ?? 4, connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000, idleTimeoutMillis: 30_000, query_timeout: 30_000 });
  // An idle connection the server drops (a restart, a network cut) must not take the process down: the next
  // query fails and the recorder buffers.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  } catch (e) {
    await pool.end().catch(() => {});
    throw new Error(`${describeUrl(url)} could not be opened: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  let closed = false;
  return {
    db: drizzlePg(pool, { schema }) as unknown as HistoryDb,
    target: 'postgres',
    where: describeUrl(url),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Rows of a raw query on either driver. */
export async function rows<T>(db: HistoryDb, query: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

// Statements the benchmark needs on both targets.
export const sqlCheckpoint = () => sql`CHECKPOINT`;
/** Refreshes the planner's statistics of every table (what autovacuum does on PostgreSQL). */
export async function analyzeStore(db: HistoryDb): Promise<void> {
  await db.execute(sql`ANALYZE`);
}
export const sqlDatabaseSize = () => sql`SELECT pg_database_size(current_database())::text AS n`;
export const sqlTruncateHistory = () =>
  sql`TRUNCATE history_bus_fixes, history_trips, history_trip_status_changes, history_trip_delay_changes, history_health_transitions, history_budget_minutes, history_recorder_gaps, history_route_days, history_regularity_hours, history_regularity_days, history_recorder_state`;
