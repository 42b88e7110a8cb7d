import { describe, expect, it } from 'vitest';
import { appConfig } from '@/lib/config';
import { FakeClock } from '@/lib/testing/fake-clock';
import { FakeUpstream } from '@/lib/testing/fake-upstream';
import { Feed } from './feed';

// One bus whose location request keeps failing (the upstream no longer knows it, or its record is unreadable)
// must neither take the slots of the rest of the fleet nor look freshly fetched.

// The defaults, as a server without FEED_* settings runs.
const CONFIG = appConfig({});

function setup() {
  const clock = new FakeClock();
  const upstream = new FakeUpstream({ clock, buses: 30, onTrip: 30, limit: 120 });
  let seed = 7;
  const feed = new Feed({
    config: CONFIG,
    timezone: null,
    client: (rule) => upstream.client(rule),
    clock,
    random: () => ((seed = (seed * 48271) % 2147483647) / 2147483647),
    log: () => {},
  });
  feed.start();
  return { clock, upstream, feed };
}

async function stopAll(clock: FakeClock, feed: Feed) {
  const stopped = feed.stop();
  await clock.advance(1_000);
  await stopped;
}

const MINUTE = 60_000;

describe('a bus whose location keeps failing', () => {
  it('answering 404: keeps its last real fetch time and is asked again only rarely', async () => {
    const { clock, upstream, feed } = setup();
    await clock.advance(MINUTE);
    const before = feed.liveSnapshot().snapshot.vehicles.find((v) => v.busId === 3)!;
    expect(before.fetchedAt).not.toBeNull();
    upstream.unknownBuses.add(3);
    const from = clock.now();
    await clock.advance(2 * MINUTE);
    const after = feed.liveSnapshot().snapshot.vehicles.find((v) => v.busId === 3)!;
    await stopAll(clock, feed);
    // Its data is as old as the last fetch that brought it, not as old as the last 404.
    expect(after.fetchedAt).toBeLessThanOrEqual(from);
    expect([after.gpsAt, after.lat, after.lon]).toEqual([before.gpsAt, before.lat, before.lon]);
    expect(upstream.calls.filter((c) => c.op === 'busLocation' && c.id === 3 && c.at >= from).length).toBeLessThanOrEqual(2);
  });

  it('never readable: the rest of the fleet keeps its share of the slots', async () => {
    const { clock, upstream, feed } = setup();
    upstream.unreadableBuses.add(1);
    await clock.advance(2 * MINUTE);
    const from = clock.now() - MINUTE;
    const located = upstream.calls.filter((c) => c.op === 'busLocation' && c.at >= from);
    const broken = located.filter((c) => c.id === 1).length;
    const vehicles = feed.liveSnapshot().snapshot.vehicles;
    await stopAll(clock, feed);
    expect(vehicles.filter((v) => v.lat !== null)).toHaveLength(29);
    // Doubling waits: a handful of tries a minute at most, out of the ~90 location slots.
    expect(broken).toBeLessThanOrEqual(8);
    expect(located.length - broken).toBeGreaterThan(60);
  });
});

describe('after an outage', () => {
  it('asks the whole fleet again at once: the backoff the outage ran up is forgotten', async () => {
    const { clock, upstream, feed } = setup();
    await clock.advance(MINUTE);
    upstream.down = true;
    // Long enough for every bus's own backoff to pass its parked floor's worth of doublings.
    await clock.advance(40 * MINUTE);
    upstream.down = false;
    const back = clock.now();
    await clock.advance(MINUTE);
    const located = new Set(upstream.calls.filter((c) => c.op === 'busLocation' && c.status === 200 && c.at >= back).map((c) => c.id));
    // 96 slots a minute: every one of the 30 buses on trips is asked within the first minute back.
    expect(located.size).toBe(30);
    await stopAll(clock, feed);
  });

  it('caps a Retry-After past ten minutes and says so in the log', async () => {
    const clock = new FakeClock();
    const upstream = new FakeUpstream({ clock, buses: 10, onTrip: 10, limit: 120 });
    const logs: Record<string, unknown>[] = [];
    const feed = new Feed({ config: CONFIG, timezone: null, client: (rule) => upstream.client(rule), clock, random: () => 0.5, log: (l) => logs.push(l) });
    feed.start();
    await clock.advance(MINUTE);
    upstream.stormUntil = clock.now() + 1_000;
    upstream.stormRetryAfterS = 6 * 60 * 60;
    await clock.advance(2_000);
    const paused = feed.health().budget.pausedUntil!;
    expect(paused - clock.now()).toBeLessThanOrEqual(10 * MINUTE);
    expect(paused - clock.now()).toBeGreaterThan(9 * MINUTE);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'Retry-After capped', retryAfterS: 21_600, cappedAtS: 600 }));
    await clock.advance(10 * MINUTE);
    expect(upstream.count('busLocation', clock.now() - MINUTE)).toBeGreaterThan(0);
    await stopAll(clock, feed);
  });
});
