import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

describe('Lookups', () => {
  it('serves 100 concurrent viewers and 100 concurrent opens of one trip with a single upstream request', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 60, onTrip: 50, limit: 600, latencyMs: 0 });
    await clock.advance(MINUTE);
    const before = upstream.calls.length;
    const etags = new Set<string>();
    for (let i = 0; i < 100; i++) {
      feed.watch(1 + (i % 60), 'viewer');
      const { epoch, version } = feed.liveSnapshot().snapshot;
      etags.add(`${epoch}-${version}`);
    }
    const answers = await Promise.all(Array.from({ length: 100 }, () => feed.trip(55, 'viewer')));
    expect(upstream.calls.length - before).toBe(1);
    expect(upstream.calls.at(-1)).toMatchObject({ op: 'trip', id: 55 });
    expect(etags.size).toBe(1);
    expect(answers.every((a) => a.ok && a.value.id === 55)).toBe(true);
    // Within the cache time the next viewer is answered without asking again.
    expect((await feed.trip(55, 'viewer')).ok).toBe(true);
    expect(upstream.calls.length - before).toBe(1);
    await stopAll(clock, feed);
  });

  it('answers an upstream 404 as 404 and remembers it', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 10, onTrip: 5, limit: 600, latencyMs: 0 });
    await clock.advance(5_000);
    const a = await feed.trip(999, 'viewer');
    const b = await feed.trip(999, 'viewer');
    expect(a).toEqual({ ok: false, failure: { status: 404, message: 'Trip 999 was not found upstream.', correlationId: expect.any(String) } });
    expect(b.ok).toBe(false);
    expect(upstream.count('trip')).toBe(1);
    await stopAll(clock, feed);
  });

  it('builds the network from routes and their stops loaded in the background', async () => {
    const { clock, feed } = startTestFeed({ buses: 5, onTrip: 5, limit: 600, routes: 4 });
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

describe('an id sweep', () => {
  it('costs the sweeping client its own bounded lookups, not the headroom real trip opens need', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 60, onTrip: 50, limit: 600, latencyMs: 0 });
    await clock.advance(MINUTE);
    const from = clock.now();
    // Valid ids the upstream does not know (the fake answers 404 past twice the fleet), 20 a second for a minute.
    const swept: Promise<unknown>[] = [];
    for (let s = 0; s < 60; s++) {
      for (let i = 0; i < 20; i++) swept.push(feed.trip(1_000 + s * 20 + i, 'sweeper'));
      await clock.advance(1_000);
    }
    const answers = (await Promise.all(swept)) as { ok: boolean; failure?: { status: number } }[];
    const sent = upstream.count('trip', from);
    // The burst and one lookup every 5 s: 6 + 12 in the minute.
    expect(sent).toBeLessThanOrEqual(6 + 12 + 1);
    expect(answers.filter((a) => !a.ok && a.failure!.status === 429).length).toBe(answers.length - sent);
    // A dispatcher opening a trip that ended (not on /trips/active) meanwhile is served.
    const real = await feed.trip(55, 'dispatcher');
    expect(real.ok).toBe(true);
    await stopAll(clock, feed);
  });

  it('cannot evict the stops of listed routes from the network', async () => {
    // Most of a large limit left as headroom, so that the sweep below fits in a short simulated time.
    const { clock, upstream, feed } = startTestFeed({ buses: 5, onTrip: 5, limit: 6_000, routes: 4, latencyMs: 0 }, { feed: { budgetShare: 0.1 } });
    await clock.advance(MINUTE);
    const network = feed.networkGeoJson();
    expect(network.pendingRoutes).toBe(0);
    const from = clock.now();
    // More misses than any cache holds (5,000), each from its own client so no quota stops them, at the pace the
    // headroom allows (5,400 a minute).
    const misses: Promise<unknown>[] = [];
    for (let s = 0; s < 65; s++) {
      for (let i = 0; i < 85; i++) misses.push(feed.routeStops(100 + s * 85 + i, `client-${s}-${i}`));
      await clock.advance(1_000);
    }
    const settled = Promise.all(misses);
    await clock.advance(10_000);
    await settled;
    expect(upstream.count('routeStops', clock.now() - 2 * MINUTE)).toBeGreaterThan(5_000);
    expect(feed.networkGeoJson()).toEqual(network);
    // Still held: served, and never asked again (an evicted route's stops would be reloaded by the poller).
    for (let id = 1; id <= 4; id++) expect((await feed.routeStops(id, 'dispatcher')).ok).toBe(true);
    expect(upstream.calls.filter((c) => c.op === 'routeStops' && c.id! <= 4 && c.at >= from)).toEqual([]);
    await stopAll(clock, feed);
  });
});
