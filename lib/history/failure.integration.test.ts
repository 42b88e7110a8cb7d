import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { Feed, TypedEmitter, type FeedEvents } from '@/lib/fleet';
import { FakeClock } from '@/lib/testing/fake-clock';
import { FakeUpstream } from '@/lib/testing/fake-upstream';
import { testConfig } from '@/lib/testing/feed';
import { Recorder } from './recorder';
import { busFixes, recorderGaps } from './schema';
import { startHistory, type HistoryService } from './service';
import { openStore, type Store } from './store';
import { createTestDatabase, freshPgliteStore, PG_SKIP_MESSAGE } from '@/lib/testing/store';

// The store fails under a running feed: PostgreSQL stops answering (a TCP proxy in front of the machine's
// server cuts every connection and refuses new ones; the shared server itself is never stopped), or PGlite's
// directory breaks (moved away under it). The live map keeps serving, the health says history is not recording,
// recording resumes by itself once the store is back, the gap is recorded, and nothing written before is lost.

const MINUTE = 60_000;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A TCP proxy to 127.0.0.1:targetPort that can cut every connection and refuse new ones, then come back. */
async function tcpProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      // Connections first: close() waits for them to end.
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
    restore: listen,
  };
}

async function runningFeed(store: () => Promise<Store>) {
  const clock = new FakeClock();
  const upstream = new FakeUpstream({ clock, buses: 10, onTrip: 6, limit: 600 });
  const feed = new Feed({ config: testConfig(), timezone: 'America/New_York', client: (rule) => upstream.client(rule), clock, random: () => 0.5, log: () => {} });
  const logs: Record<string, unknown>[] = [];
  // Every fix the feed announced, once per bus and GPS time: what the store must hold in the end.
  const fixesHeard = new Set<string>();
  feed.events.on('fix', (f) => fixesHeard.add(`${f.busId}:${f.gpsAt ?? f.fetchedAt}`));
  const history: HistoryService = await startHistory(feed, { store, config: { positionsDays: 14, tripsDays: 400 }, thresholds: { lateMin: 5, earlyMin: 1 }, now: () => clock.now(), flushIntervalMs: 3_600_000, log: (l) => logs.push(l) });
  feed.start();
  cleanups.push(async () => {
    const stopped = feed.stop();
    await clock.advance(1_000);
    await stopped;
    await history.close();
  });
  return { clock, feed, history, logs, fixesHeard };
}

const fixCount = async (store: Store) => (await store.db.select({ n: count() }).from(busFixes))[0]!.n;

/** Polls a minute of the feed, then asks the recorder to write. */
async function minuteOfPolling(run: Awaited<ReturnType<typeof runningFeed>>) {
  await run.clock.advance(MINUTE);
  await run.history.recorder.flush();
}

async function expectOutageHandled(run: Awaited<ReturnType<typeof runningFeed>>, store: Store, breakStore: () => Promise<void> | void, repair: () => Promise<void> | void) {
  await minuteOfPolling(run);
  const before = await fixCount(store);
  expect(before).toBeGreaterThan(0);
  expect(run.feed.health().notes).toEqual([]);

  await breakStore();
  const versionAtCut = run.feed.liveSnapshot().snapshot.version;
  await minuteOfPolling(run);
  await minuteOfPolling(run);
  // The live map keeps serving fresh data.
  const live = run.feed.liveSnapshot().snapshot;
  expect(live.version).toBeGreaterThan(versionAtCut);
  expect(live.vehicles.filter((v) => v.lat !== null).length).toBe(10);
  // The health says history is not recording, and since when.
  expect(run.feed.health().notes).toEqual([expect.stringMatching(/^history: not recording since \d\d:\d\d \(.+\)$/)]);
  expect(run.feed.liveSnapshot().health.notes).toEqual(run.feed.health().notes);
  const buffered = run.history.recorder.stats.pendingRows;
  expect(buffered).toBeGreaterThan(0);
  expect(run.logs.map((l) => l.msg)).toContain('history not recording');

  await repair();
  await minuteOfPolling(run);
  expect(run.feed.health().notes).toEqual([]);
  expect(run.history.recorder.stats.droppedRows).toBe(0);
  // Nothing from before the failure is lost, and what the outage buffered was written.
  const after = await fixCount(store);
  expect(after).toBeGreaterThan(before);
  expect(after).toBe(run.fixesHeard.size);
  const gaps = await store.db.select().from(recorderGaps);
  expect(gaps).toHaveLength(1);
  expect(gaps[0]!.droppedRows).toBe(0);
  expect(gaps[0]!.toAt).toBeGreaterThan(gaps[0]!.fromAt);
}

describe('the store failing under a running feed', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(`PostgreSQL stops answering, then comes back (${process.env.TEST_DATABASE_URL ? 'through a proxy' : PG_SKIP_MESSAGE})`, async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const target = new URL(database.url);
    const proxy = await tcpProxy(Number(target.port || 5432));
    cleanups.push(() => proxy.cut());
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const store = await openStore({ databaseUrl: viaProxy.toString(), dataDir: null, connectTimeoutMs: 2_000 });
    cleanups.push(() => store.close());
    const run = await runningFeed(async () => store);
    await expectOutageHandled(run, store, () => proxy.cut(), () => proxy.restore());
  }, 300_000);

  it("PGlite's directory is broken when the server starts, then repaired", async () => {
    // PGlite keeps its files open: a directory broken under a running store is only noticed at its next
    // checkpoint. What a broken directory does in practice is refuse the next start, so the second "process"
    // here starts on a directory whose database is replaced by a file, and the directory is repaired later.
    const first = await freshPgliteStore({ onDisk: true });
    cleanups.push(() => first.dispose());
    const dir = first.dataDir!;
    // What the previous run recorded: fixes of three buses.
    const events = new TypedEmitter<FeedEvents>();
    const recorder = new Recorder({ store: async () => first, log: () => {} });
    recorder.attach(events);
    for (let i = 0; i < 30; i++) events.emit('fix', { busId: 100 + (i % 3), gpsAt: 1_000 + i, fetchedAt: 2_000 + i, lat: 40.7, lon: -73.9, heading: null, speedKmh: null, accuracy: null, tripId: null });
    await recorder.close();
    const recordedBefore = await fixCount(first);
    expect(recordedBefore).toBe(30);
    await first.close();

    const db = join(dir, 'pglite');
    renameSync(db, `${db}.moved`);
    writeFileSync(db, 'not a database');
    let opened: Store | null = null;
    cleanups.push(() => opened?.close());
    const run = await runningFeed(async () => (opened ??= await openStore({ databaseUrl: null, dataDir: dir })));
    expect(run.history.restored).toBeNull();
    expect(run.logs.map((l) => l.msg)).toContain('history not restored');
    await minuteOfPolling(run);
    await minuteOfPolling(run);
    const live = run.feed.liveSnapshot().snapshot;
    expect(live.vehicles.filter((v) => v.lat !== null).length).toBe(10);
    expect(run.feed.liveSnapshot().health.notes).toEqual([expect.stringMatching(/^history: not recording since \d\d:\d\d \(The embedded store in .+ could not be opened: .+\)$/)]);
    expect(run.history.recorder.stats.pendingRows).toBeGreaterThan(0);

    rmSync(db);
    renameSync(`${db}.moved`, db);
    await minuteOfPolling(run);
    expect(run.feed.health().notes).toEqual([]);
    expect(run.history.recorder.stats.droppedRows).toBe(0);
    // The first run's fixes are all there, and every fix the second one heard, outage included.
    expect(await fixCount(opened!)).toBe(recordedBefore + run.fixesHeard.size);
    const gaps = await opened!.db.select().from(recorderGaps);
    expect(gaps.map((g) => [g.droppedRows, g.toAt > g.fromAt])).toEqual([[0, true]]);
  }, 300_000);
});
if (!process.env.TEST_DATABASE_URL) console.info(`the store failing under a running feed, PostgreSQL: ${PG_SKIP_MESSAGE}`);
