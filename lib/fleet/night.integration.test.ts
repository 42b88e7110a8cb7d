import { afterAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@/lib/config';
import type { LiveSnapshot } from '@/lib/model';
import { createPartnerClient, offsetMinutesAt } from '@/lib/partner';
import { createSimulator, DEMO_BUSINESS_KEY, zoneAtLocalHour, type Simulator } from '@/lib/sim';
import { Feed } from './feed';
import { until } from '@/lib/testing/harness';

// The quiet hour, on purpose: the simulator runs in a zone where it is 03:00 now, when few trips run. The feed
// must still come up, place the parked buses, infer the zone, list the few trips there are, and say all is well.

const FEED: AppConfig = {
  feed: { budgetShare: 0.8, tripsIntervalMs: 5_000, busesIntervalMs: 30_000, routesIntervalMs: 60_000, parkedFloorMs: 60_000, watchTtlMs: 30_000 },
  delay: { lateMin: 5, earlyMin: 1 },
  staleAfterS: 120,
};

/** Wednesday 4 March 2026, 12:00 UTC: in the zone simAt picks for any hour, still that Wednesday. */
const WEDNESDAY_NOON = Date.parse('2026-03-04T12:00:00Z');

const sims: Simulator[] = [];
const feeds: Feed[] = [];

afterAll(async () => {
  await Promise.all(feeds.map((f) => f.stop()));
  await Promise.all(sims.map((s) => s.close()));
});

// Deadlines only stop a hung test (each wait takes seconds on an idle machine).
function simAt(localHour: number, at?: number): { sim: Simulator; zone: string } {
  const zone = zoneAtLocalHour(localHour, at);
  const sim = createSimulator({ seed: 7, buses: 120, speed: 10, rateLimit: 3000, timezone: zone, ...(at === undefined ? {} : { startAt: at }) });
  sims.push(sim);
  return { sim, zone };
}

describe('the feed at 03:00 local time', () => {
  it('runs fewer trips than at midday: the premise of this test', () => {
    // Both on one pinned weekday: on the real clock a Sunday's or a holiday's midday runs few trips too (a run on a
    // Sunday found 4 buses on trips at 03:00 and 7 at noon).
    const onTrip = (s: Simulator) => s.truth().buses.filter((b) => b.onTrip).length;
    const night = onTrip(simAt(3, WEDNESDAY_NOON).sim);
    const day = onTrip(simAt(12, WEDNESDAY_NOON).sim);
    expect(night).toBeLessThan(day / 2);
  });

  it('comes up ok, places the parked buses, infers the zone and lists exactly the trips that run', async () => {
    const { sim, zone } = simAt(3);
    const { baseUrl } = await sim.listen(0, '127.0.0.1');
    const feed = new Feed({
      config: FEED,
      timezone: null,
      client: (timeRule) => createPartnerClient({ baseUrl, apiKey: DEMO_BUSINESS_KEY, timeRule, timeoutMs: 5_000 }),
      log: () => undefined,
    });
    feeds.push(feed);
    feed.start();

    const snap = (): LiveSnapshot => feed.liveSnapshot().snapshot;
    // Every bus with a working GPS placed: parked buses are located too (once per parked floor), not only buses
    // on trips. (The simulator gives some buses no GPS at all, and loses the signal of a few for a while.)
    const reporting = sim.truth().buses.filter((b) => b.gps === 'ok').map((b) => b.id);
    expect(reporting.length).toBeGreaterThan(100);
    const s = await until('every reporting bus placed', snap, (x) => {
      const placed = new Set(x.vehicles.filter((v) => v.lat !== null).map((v) => v.busId));
      return x.health.state === 'ok' && reporting.every((id) => placed.has(id));
    });
    expect(s.health.message).toBe('Live data is flowing.');
    const tz = await until('the zone inferred', () => feed.health().timezone, (t) => t.source === 'inferred');
    expect(tz.offsetMinutes).toBe(offsetMinutesAt({ kind: 'zone', zone }, Date.now()));

    // The trips on the snapshot are the ones the simulator runs (bus by bus), however few.
    const truthOnTrip = new Set(sim.truth().buses.filter((b) => b.onTrip).map((b) => b.id));
    const later = await until('the trips walked again', snap, (x) => x.generatedAt > s.generatedAt + FEED.feed.tripsIntervalMs);
    const listed = new Set(later.vehicles.filter((v) => v.trip !== null).map((v) => v.busId));
    // A trip may start or end between the walk and the truth: allow the buses that changed in one trips interval.
    const differ = [...truthOnTrip].filter((id) => !listed.has(id)).length + [...listed].filter((id) => !truthOnTrip.has(id)).length;
    expect(differ).toBeLessThanOrEqual(Math.max(2, Math.ceil(truthOnTrip.size * 0.2)));
    expect(later.health.state).toBe('ok');
  }, 180_000);
});
