import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { openStore, type Store } from './store';
import { createTestDatabase } from './test-database';

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

/**
 * One describe block per target; a target the machine lacks is skipped with its reason printed. The body gets
 * the target, whose open() gives each test a fresh store.
 */
export function describeEachStore(title: string, body: (target: StoreTarget) => void): void {
  for (const target of storeTargets()) {
    if (target.skip) {
      console.info(`${title} on ${target.name}: ${target.skip}`);
      describe.skip(`${title} on ${target.name} (${target.skip})`, () => body(target));
    } else {
      describe(`${title} on ${target.name}`, () => body(target));
    }
  }
}
