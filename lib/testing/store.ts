import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe } from 'vitest';
import { openStore, rows, type Store } from '@/lib/history/store';
import { createTestDatabase } from './database';

export { createTestDatabase };

// Fresh stores for tests, on every target the machine offers: PGlite always (in memory, or in a temporary
// directory when the test needs files), and PostgreSQL when TEST_DATABASE_URL is set, each test on a database of
// its own (created with a random name, dropped afterwards: other test runs share the server). Other rooms' tests
// (sign-in) use the same helper for their tables.

export const PG_SKIP_MESSAGE = 'skipped: TEST_DATABASE_URL unset';

export interface TestStore extends Store {
  /** Closes the store and removes what the test created (the temporary directory, the database). */
  dispose(): Promise<void>;
  /** The PostgreSQL connection string of the test's own database; null on PGlite. */
  databaseUrl: string | null;
  /** PGlite's directory when opened with `onDisk`; null otherwise. */
  dataDir: string | null;
}

export type StoreTargetName = 'pglite' | 'postgres';

export async function freshPgliteStore(opts: { onDisk?: boolean } = {}): Promise<TestStore> {
  const dir = opts.onDisk ? mkdtempSync(join(tmpdir(), 'fleetmap-store-')) : null;
  const store = await openStore({ databaseUrl: null, dataDir: dir });
  return {
    ...store,
    databaseUrl: null,
    dataDir: dir,
    async dispose() {
      await store.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function freshPostgresStore(opts: { connectTimeoutMs?: number } = {}): Promise<TestStore> {
  const database = await createTestDatabase();
  let store: Store;
  try {
    store = await openStore({ databaseUrl: database.url, dataDir: null, connectTimeoutMs: opts.connectTimeoutMs });
  } catch (e) {
    await database.drop();
    throw e;
  }
  return {
    ...store,
    databaseUrl: database.url,
    dataDir: null,
    async dispose() {
      try {
        await store.close();
      } finally {
        await database.drop();
      }
    },
  };
}

export interface StoreTarget {
  name: StoreTargetName;
  /** Why this target does not run here, or null. */
  skip: string | null;
  open(): Promise<TestStore>;
}

export function storeTargets(): StoreTarget[] {
  return [
    { name: 'pglite', skip: null, open: () => freshPgliteStore() },
    { name: 'postgres', skip: process.env.TEST_DATABASE_URL ? null : PG_SKIP_MESSAGE, open: () => freshPostgresStore() },
  ];
}

/** Empties every table of the public schema (the migrations' own bookkeeping lives in another schema). */
export async function emptyTables(store: Store): Promise<void> {
  const tables = await rows<{ name: string }>(store.db, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  if (tables.length) await store.db.execute(sql.raw(`TRUNCATE ${tables.map((t) => `"${t.name}"`).join(', ')} RESTART IDENTITY CASCADE`));
}

/**
 * One describe block per target; a target the machine lacks is skipped with its reason printed. The body gets
 * the target, whose open() gives each test an empty store: one store per block, emptied for every test, because
 * starting PGlite takes seconds (tens of seconds on a loaded machine) and a database per test would too.
 */
export function describeEachStore(title: string, body: (target: StoreTarget) => void): void {
  for (const target of storeTargets()) {
    if (target.skip) {
      console.info(`${title} on ${target.name}: ${target.skip}`);
      describe.skip(`${title} on ${target.name} (${target.skip})`, () => body(target));
      continue;
    }
    describe(`${title} on ${target.name}`, { timeout: 180_000 }, () => {
      let shared: TestStore | null = null;
      afterAll(async () => {
        await shared?.dispose();
      }, 180_000);
      body({
        ...target,
        async open() {
          shared ??= await target.open();
          await emptyTables(shared);
          return { ...shared, dispose: async () => {} };
        },
      });
    });
  }
}
