import { afterEach, expect, it } from 'vitest';
import { Feed } from '@/lib/fleet';
import { FakeClock } from '@/lib/testing/fake-clock';
import { FakeUpstream } from '@/lib/testing/fake-upstream';
import { testConfig } from '@/lib/testing/feed';
import { DEFAULT_REGULARITY } from '@/lib/model';
import { regularityDays } from './schema';
import { startHistory } from './service';
import { describeEachStore, type TestStore } from '@/lib/testing/store';

const MINUTE = 60_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A feed on the scripted upstream, not started: the history wires itself in first, as at server start. */
function feedOn(clock: FakeClock) {
  const upstream = new FakeUpstream({ clock, buses: 12, onTrip: 8, limit: 600 });
  const feed = new Feed({ config: testConfig(), timezone: 'America/New_York', client: (rule) => upstream.client(rule), clock, random: () => 0.5, log: () => {} });
  return { feed, upstream };
}

async function stop(clock: FakeClock, feed: Feed) {
  const stopped = feed.stop();
  await clock.advance(1_000);
  await stopped;
}

describeEachStore('a warm restart', (target) => {
  it('serves the stopped server’s buses and open trips at their true ages before the first answer', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const options = { store: async () => store, config: { positionsDays: 14, tripsDays: 400 }, thresholds: { lateMin: 5, earlyMin: 1 }, flushIntervalMs: 3_600_000, log: () => {} };

    const clockA = new FakeClock();
    const a = feedOn(clockA);
    const historyA = await startHistory(a.feed, { ...options, now: () => clockA.now() });
    expect(historyA.restored).toEqual({ fixes: 0, trips: 0 });
    a.feed.start();
    await clockA.advance(3 * MINUTE);
    await stop(clockA, a.feed);
    const before = a.feed.liveSnapshot().snapshot;
    await historyA.close();
    const positioned = before.vehicles.filter((v) => v.lat !== null);
    expect(positioned.length).toBe(12);

    // Ten minutes later, a new process.
    const clockB = new FakeClock(clockA.now() + 10 * MINUTE);
    const b = feedOn(clockB);
    const historyB = await startHistory(b.feed, { ...options, now: () => clockB.now() });
    cleanups.push(() => historyB.close());
    expect(historyB.restored).toEqual({ fixes: 12, trips: 8 });
    const after = b.feed.liveSnapshot().snapshot;
    const pick = (vs: typeof after.vehicles) => vs.map((v) => ({ busId: v.busId, gpsAt: v.gpsAt, fetchedAt: v.fetchedAt, lat: v.lat, lon: v.lon, tripId: v.trip?.tripId ?? null }));
    expect(pick(after.vehicles.filter((v) => v.lat !== null))).toEqual(pick(positioned));
    // Drawn as old as they are: ten minutes and more.
    for (const v of after.vehicles) expect(clockB.now() - v.fetchedAt!).toBeGreaterThanOrEqual(10 * MINUTE);
  });

  it('derives the headways of the day so far at its maintenance, once the feed knows the network', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const clock = new FakeClock();
    const { feed } = feedOn(clock);
    const history = await startHistory(feed, { store: async () => store, config: { positionsDays: 14, tripsDays: 400 }, thresholds: { lateMin: 5, earlyMin: 1 }, flushIntervalMs: 3_600_000, log: () => {}, now: () => clock.now(), regularity: DEFAULT_REGULARITY });
    cleanups.push(() => history.close());
    feed.start();
    await clock.advance(5 * MINUTE);
    await history.recorder.flush();
    await history.maintain();
    expect((await store.db.select().from(regularityDays)).map((d) => [d.computedAt, d.complete])).toEqual([[clock.now(), false]]);
    await stop(clock, feed);
  });
});
