import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@/lib/config';
import { FakeClock } from './fake-clock';
import { FakeUpstream, type FakeUpstreamOptions } from './fake-upstream';
import { Feed } from './feed';
import type { Observation } from './events';

const MINUTE = 60_000;

function config(over: Partial<AppConfig['feed']> = {}): AppConfig {
  return {
    feed: {
      budgetShare: 0.8,
      tripsIntervalMs: 15_000,
      busesIntervalMs: 180_000,
      routesIntervalMs: 600_000,
      parkedFloorMs: 300_000,
      watchTtlMs: 30_000,
      ...over,
    },
    delay: { lateMin: 5, earlyMin: 1 },
    staleAfterS: 120,
    mapStyleUrl: null,
    mapStyleUrlDark: null,
  };
}

function setup(up: Omit<FakeUpstreamOptions, 'clock'>, opts: { timezone?: string | null; feed?: Partial<AppConfig['feed']> } = {}) {
  const clock = new FakeClock();
  const upstream = new FakeUpstream({ clock, ...up });
  const logs: Record<string, unknown>[] = [];
  let seed = 1;
  const feed = new Feed({
    config: config(opts.feed),
    timezone: opts.timezone ?? null,
    client: (rule) => upstream.client(rule),
    clock,
    // Deterministic jitter.
    random: () => ((seed = (seed * 48271) % 2147483647) / 2147483647),
    log: (line) => logs.push(line),
  });
  feed.start();
  return { clock, upstream, feed, logs };
}

describe('Feed over 10 simulated minutes with 500 buses', () => {
  it('stays within share × limit in every 60 s window, keeps parked buses within their floor, and reports age vs the bound', async () => {
    const { clock, upstream, feed } = setup({ buses: 500, onTrip: 400, limit: 600 });
    const start = clock.now();
    const samples: { mean: number; p95: number; bound: number }[] = [];
    for (let t = 0; t < 10 * MINUTE; t += 10_000) {
      await clock.advance(10_000);
      const f = feed.health().freshness;
      // Ages settle once every bus has been located and the parked ones have had their first visit.
      if (t >= 3 * MINUTE && f.meanAgeS !== null && f.p95AgeS !== null && f.boundS !== null) samples.push({ mean: f.meanAgeS, p95: f.p95AgeS, bound: f.boundS });
    }
    await stopAll(clock, feed);

    expect(upstream.calls.filter((c) => c.status === 429)).toEqual([]);
    expect(upstream.maxInAnyMinute()).toBeLessThanOrEqual(0.8 * 600);
    // The budget is actually spent, not left idle.
    expect(upstream.maxInAnyMinute()).toBeGreaterThan(0.75 * 600);

    // Every parked bus (no trip) is located again within FEED_PARKED_FLOOR_S.
    let worstParkedGap = 0;
    for (let id = 401; id <= 500; id++) {
      const times = upstream.calls.filter((c) => c.op === 'busLocation' && c.id === id).map((c) => c.at);
      expect(times.length).toBeGreaterThan(1);
      for (let i = 1; i < times.length; i++) worstParkedGap = Math.max(worstParkedGap, times[i]! - times[i - 1]!);
      worstParkedGap = Math.max(worstParkedGap, start + 10 * MINUTE - times[times.length - 1]!);
    }
    expect(worstParkedGap).toBeLessThanOrEqual(300_000);

    const mean = samples.reduce((a, s) => a + s.mean, 0) / samples.length;
    const p95 = samples.reduce((a, s) => a + s.p95, 0) / samples.length;
    const bound = samples.reduce((a, s) => a + s.bound, 0) / samples.length;
    console.info(
      `scheduler: 500 buses (400 on trips), limit 600/min, share 0.8 → max ${upstream.maxInAnyMinute()} req in any minute; ` +
        `on-trip mean age ${mean.toFixed(1)} s, p95 ${p95.toFixed(1)} s, bound B/(2L) ${bound.toFixed(1)} s, ratio ${(mean / bound).toFixed(2)}; ` +
        `worst parked gap ${(worstParkedGap / 1000).toFixed(0)} s; requests by kind ${JSON.stringify(countBy(upstream.calls.map((c) => c.op)))}`,
    );
    // Polling at a rate ∝ sqrt(speed) trades a little mean age for less position error; it must stay near the bound.
    expect(mean / bound).toBeLessThan(1.5);
    expect(mean / bound).toBeGreaterThan(0.5);
  });
});

describe('Feed reactions', () => {
  it('sends nothing, of any lane, before Retry-After once a 429 came back, and reports rate-limited', async () => {
    const { clock, upstream, feed } = setup({ buses: 50, onTrip: 40, limit: 600 });
    await clock.advance(30_000);
    upstream.stormUntil = clock.now() + 12_000;
    upstream.stormRetryAfterS = 5;
    // Let the 429 arrive, then ask on demand while paused: it must wait too.
    await clock.advance(300);
    expect(feed.health().state).toBe('rate-limited');
    const pending = feed.trip(45);
    await clock.advance(30_000);
    // It waited for Retry-After, then met the storm again: a typed 503, not a crash or a hang.
    expect(await pending).toEqual({ ok: false, failure: expect.objectContaining({ status: 503 }) });
    // After the storm and the short failure memory, the same trip comes through.
    const again = feed.trip(45);
    await clock.advance(1_000);
    const answer = await again;
    await stopAll(clock, feed);

    const limited = upstream.calls.filter((c) => c.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const c of limited) {
      // The 429 reached the feed latency ms after it was sent; nothing else may be sent before Retry-After.
      const answeredAt = c.at + 50;
      const early = upstream.calls.filter((o) => o.at >= answeredAt && o.at < answeredAt + 5_000);
      expect(early).toEqual([]);
    }
    expect(answer.ok).toBe(true);
    expect(feed.health().budget.rateLimited429).toBe(limited.length);
  });

  it('locates a newly watched bus within two pacing slots', async () => {
    const { clock, upstream, feed } = setup({ buses: 300, onTrip: 250, limit: 300 });
    await clock.advance(3 * MINUTE);
    for (const offset of [0, 7_000, 13_000, 29_000]) {
      await clock.advance(offset);
      // The freshest bus on a trip is the one the scheduler would least want next.
      const snapshot = feed.liveSnapshot().snapshot;
      const freshest = snapshot.vehicles.filter((v) => v.trip && v.fetchedAt !== null).sort((a, b) => b.fetchedAt! - a.fetchedAt!)[0]!;
      const from = clock.now();
      expect(feed.watch(freshest.busId)).toBe(true);
      await clock.advance(10_000);
      const next = upstream.calls.filter((c) => c.at >= from).sort((a, b) => a.at - b.at);
      const slot = next.findIndex((c) => c.op === 'busLocation' && c.id === freshest.busId);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(2);
    }
    await stopAll(clock, feed);
  });

  it('keeps locations flowing while every overdue list walks its pages after a fault ends', async () => {
    // 855 buses all on trips: 9 pages each of trips and buses, all overdue when the key comes back.
    const { clock, upstream, feed } = setup({ buses: 855, onTrip: 855, limit: 600 });
    await clock.advance(3 * MINUTE);
    upstream.revoked = true;
    await clock.advance(4 * MINUTE);
    upstream.revoked = false;
    const back = clock.now();
    await clock.advance(MINUTE);
    await stopAll(clock, feed);

    const after = upstream.calls.filter((c) => c.at >= back && c.status === 200).sort((a, b) => a.at - b.at);
    const recheck = after.findIndex((c) => c.op === 'status');
    expect(recheck).toBeGreaterThanOrEqual(0);
    const next = after.slice(recheck + 1, recheck + 41).map((c) => c.op);
    const pages = next.filter((op) => op === 'activeTrips' || op === 'listBuses' || op === 'listRoutes').length;
    // Both overdue walks (9 pages each) are done, and never two list pages in a row.
    expect(next.slice(0, 2)).toContain('busLocation');
    expect(pages).toBeGreaterThanOrEqual(18);
    expect(next.filter((op) => op === 'busLocation').length).toBeGreaterThanOrEqual(pages - 1);
    for (let i = 1; i < next.length; i++) {
      if (next[i] !== 'busLocation' && next[i] !== 'routeStops') expect(next[i - 1], `request ${i} after the key came back`).not.toMatch(/^(activeTrips|listBuses|listRoutes)$/);
    }
  });

  it('serves 100 concurrent viewers and 100 concurrent opens of one trip with a single upstream request', async () => {
    const { clock, upstream, feed } = setup({ buses: 60, onTrip: 50, limit: 600, latencyMs: 0 });
    await clock.advance(MINUTE);
    const before = upstream.calls.length;
    const etags = new Set<string>();
    for (let i = 0; i < 100; i++) {
      feed.watch(1 + (i % 60));
      etags.add(feed.liveSnapshot().etag);
    }
    const answers = await Promise.all(Array.from({ length: 100 }, () => feed.trip(55)));
    expect(upstream.calls.length - before).toBe(1);
    expect(upstream.calls.at(-1)).toMatchObject({ op: 'trip', id: 55 });
    expect(etags.size).toBe(1);
    expect(answers.every((a) => a.ok && a.value.id === 55)).toBe(true);
    // Within the cache time the next viewer is answered without asking again.
    expect((await feed.trip(55)).ok).toBe(true);
    expect(upstream.calls.length - before).toBe(1);
    await stopAll(clock, feed);
  });

  it('answers an upstream 404 as 404 and remembers it', async () => {
    const { clock, upstream, feed } = setup({ buses: 10, onTrip: 5, limit: 600, latencyMs: 0 });
    await clock.advance(5_000);
    const a = await feed.trip(999);
    const b = await feed.trip(999);
    expect(a).toEqual({ ok: false, failure: { status: 404, message: 'Trip 999 was not found upstream.', correlationId: expect.any(String) } });
    expect(b.ok).toBe(false);
    expect(upstream.count('trip')).toBe(1);
    await stopAll(clock, feed);
  });

  it('with a standard key reports no location capability, sends no location request and lists every trip as unpositioned', async () => {
    const { clock, upstream, feed } = setup({ buses: 30, onTrip: 20, limit: 120, level: 'standard', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] });
    await clock.advance(2 * MINUTE);
    const { snapshot } = feed.liveSnapshot();
    await stopAll(clock, feed);
    expect(upstream.count('busLocation')).toBe(0);
    expect(snapshot.health.capabilities).toEqual({ buses: true, routes: true, stops: true, trips: true, locations: false });
    expect(snapshot.health.state).toBe('ok');
    expect(snapshot.health.message).toMatch(/gps:read/);
    expect(snapshot.unpositionedTrips).toHaveLength(20);
    expect(snapshot.vehicles).toHaveLength(30);
    expect(snapshot.vehicles.filter((v) => v.trip !== null)).toHaveLength(20);
  });

  it('turns unauthorized on a 401, keeps serving the last data with its age, re-checks once per trips interval and recovers', async () => {
    const { clock, upstream, feed, logs } = setup({ buses: 40, onTrip: 30, limit: 600 });
    await clock.advance(MINUTE);
    const located = feed.liveSnapshot().snapshot.vehicles.filter((v) => v.lat !== null).length;
    expect(located).toBe(40);
    upstream.revoked = true;
    await clock.advance(5_000);
    const during = feed.liveSnapshot().snapshot;
    expect(during.health.state).toBe('unauthorized');
    expect(during.vehicles.filter((v) => v.lat !== null)).toHaveLength(40);
    const sentWhileRevoked = upstream.count(undefined, clock.now());
    await clock.advance(2 * MINUTE);
    // Only /status re-checks, backing off from 10 s up to one trips interval (15 s) and no further, so a
    // restored key is back within one polling interval.
    const rechecks = upstream.calls.filter((c) => c.at >= clock.now() - 2 * MINUTE);
    expect(rechecks.every((c) => c.op === 'status')).toBe(true);
    const gaps = rechecks.slice(1).map((c, i) => c.at - rechecks[i]!.at);
    expect(gaps.length).toBeGreaterThanOrEqual(6);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(10_000);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(15_000 + 1_000);
    expect(sentWhileRevoked).toBe(0);
    upstream.revoked = false;
    await clock.advance(3 * MINUTE);
    expect(feed.health().state).not.toBe('unauthorized');
    expect(upstream.count('busLocation', clock.now() - MINUTE)).toBeGreaterThan(100);
    await stopAll(clock, feed);
    expect(logs.some((l) => l.status === 401 && l.operation && l.path)).toBe(true);
  });

  it('infers the upstream offset from GPS times and shifts what it already stored', async () => {
    const { clock, feed } = setup({ buses: 20, onTrip: 10, limit: 600, wallOffsetMin: 120 });
    await clock.advance(MINUTE);
    const { snapshot } = feed.liveSnapshot();
    await stopAll(clock, feed);
    expect(snapshot.health.timezone).toEqual({ zone: 'UTC+02:00', source: 'inferred', offsetMinutes: 120 });
    const now = clock.now();
    for (const v of snapshot.vehicles) {
      // The fake's fixes are 3 s old when fetched; read under the wrong offset they would be 2 h off.
      expect(v.fetchedAt! - v.gpsAt!).toBeGreaterThanOrEqual(3_000);
      expect(v.fetchedAt! - v.gpsAt!).toBeLessThan(4_000);
      if (v.trip) expect(Math.abs(now - 10 * MINUTE - v.trip.plannedDepartureAt!)).toBeLessThan(2 * MINUTE);
    }
  });

  it('uses PARTNER_TIMEZONE as given', async () => {
    const { clock, feed } = setup({ buses: 5, onTrip: 5, limit: 600 }, { timezone: 'Europe/Paris' });
    await clock.advance(10_000);
    expect(feed.health().timezone).toEqual({ zone: 'Europe/Paris', source: 'config', offsetMinutes: 60 });
    await stopAll(clock, feed);
  });

  it('emits observations for fixes and trip delays', async () => {
    const { clock, feed } = setup({ buses: 10, onTrip: 6, limit: 600 });
    const seen: Observation[] = [];
    feed.events.on('observation', (o) => seen.push(o));
    await clock.advance(20_000);
    await stopAll(clock, feed);
    expect(seen.filter((o) => o.type === 'trip-delay').length).toBeGreaterThanOrEqual(6);
    expect(new Set(seen.filter((o) => o.type === 'location').map((o) => (o.type === 'location' ? o.busId : 0))).size).toBe(10);
  });

  it('builds the network from routes and their stops loaded in the background', async () => {
    const { clock, feed } = setup({ buses: 5, onTrip: 5, limit: 600, routes: 4 });
    // Before the routes list: an empty network that says it is not known yet (not an empty, complete one).
    expect(feed.networkGeoJson()).toEqual({ type: 'FeatureCollection', features: [], pendingRoutes: 0, routesListed: false });
    await clock.advance(MINUTE);
    const net = feed.networkGeoJson();
    await stopAll(clock, feed);
    expect(net.routesListed).toBe(true);
    expect(net.pendingRoutes).toBe(0);
    const lines = net.features.filter((f) => f.geometry.type === 'LineString');
    expect(lines).toHaveLength(4);
    // Stops were sent out of order; the line follows stop_order.
    expect(lines[0]!.geometry.coordinates).toEqual([1, 2, 3].map((order) => [-74 + 1 / 100, 40.7 + order / 100]));
    expect(lines[0]!.properties).toMatchObject({ routeId: 1, code: 'R1', name: 'Route 1' });
  });
});

/** Stopping waits for requests in flight, whose latency runs on the fake clock. */
async function stopAll(clock: FakeClock, feed: Feed) {
  const stopped = feed.stop();
  await clock.advance(1_000);
  await stopped;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
