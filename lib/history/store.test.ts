import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';
import { busFixes } from './schema';
import { openStore, rows } from './store';
import { describeEachStore, freshPgliteStore, type TestStore } from '@/lib/testing/store';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetmap-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describeEachStore('the store', (target) => {
  it('applies the migrations and reads back what it wrote', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    expect(store.target).toBe(target.name);
    await store.db.insert(busFixes).values({ busId: 7, fixAt: 1_000, gpsAt: 1_000, fetchedAt: 1_500, lat: 40.7, lon: -73.9, heading: 90, speedKmh: 12, accuracy: 5, tripId: 2_500_000_001 });
    const got = await store.db.select().from(busFixes);
    expect(got).toEqual([{ busId: 7, fixAt: 1_000, gpsAt: 1_000, fetchedAt: 1_500, lat: 40.7, lon: -73.9, heading: 90, speedKmh: 12, accuracy: 5, tripId: 2_500_000_001 }]);
    const tables = await rows<{ name: string }>(store.db, sql`SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'history_%' ORDER BY 1`);
    expect(tables.map((t) => t.name)).toContain('history_route_days');
  });
});

// Starting PGlite takes seconds, tens of seconds on a loaded machine: the timeout only stops a hang.
describe('the embedded store on disk', { timeout: 180_000 }, () => {
  it('runs PGlite with its smaller buffers (PGLITE_SETTINGS), not initdb\'s 128 MB', async () => {
    const store = await openStore({ databaseUrl: null, dataDir: tempDir() });
    cleanups.push(() => store.close());
    const got = await rows<{ shared_buffers: string; maintenance_work_mem: string }>(store.db, sql`SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('maintenance_work_mem') AS maintenance_work_mem`);
    expect(got).toEqual([{ shared_buffers: '16MB', maintenance_work_mem: '16MB' }]);
  });

  it('keeps its data across a close and a reopen, and applies the migrations once', async () => {
    const dir = tempDir();
    const first = await openStore({ databaseUrl: null, dataDir: dir });
    await first.db.insert(busFixes).values({ busId: 1, fixAt: 5, gpsAt: 5, fetchedAt: 6, lat: 1, lon: 2, heading: null, speedKmh: null, accuracy: null, tripId: null });
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const second = await openStore({ databaseUrl: null, dataDir: dir });
    cleanups.push(() => second.close());
    expect(await second.db.select({ busId: busFixes.busId }).from(busFixes)).toEqual([{ busId: 1 }]);
  });

  it('refuses a second open of the same directory in one process, in one sentence', async () => {
    const store = await freshPgliteStore({ onDisk: true });
    cleanups.push(() => store.dispose());
    await expect(openStore({ databaseUrl: null, dataDir: store.dataDir })).rejects.toThrow(/already open in this process/);
  });
});

describe('the data directory lock', () => {
  it('refuses a directory a live process holds, naming its pid', async () => {
    const dir = tempDir();
    // A live process that is not this one: a child that sleeps until we end it.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    cleanups.push(() => child.kill());
    writeFileSync(join(dir, LOCK_FILE), `${child.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`The data directory ${dir} is in use by another Fleetmap process (pid ${child.pid}); stop that process, or give this one its own FLEETMAP_DATA_DIR or a DATABASE_URL.`);
  });

  it("takes over a dead process's lock and writes its own pid", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => child.on('exit', r));
    writeFileSync(join(dir, LOCK_FILE), `${child.pid}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock file with garbage in it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), 'not a pid');
    const release = lockDataDir(dir);
    cleanups.push(release);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
  });
});
