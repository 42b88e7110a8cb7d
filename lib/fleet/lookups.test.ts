import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from './test-feed';

describe('Lookups', () => {
  it('serves 100 concurrent viewers and 100 concurrent opens of one trip with a single upstream request', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 60, onTrip: 50, limit: 600, latencyMs: 0 });
    await clock.advance(MINUTE);
    const before = upstream.calls.length;
    const etags = new Set<string>();
    for (let i = 0; i < 100; i++) {
      feed.watch(1 + (i % 60));
      const { epoch, version } = feed.liveSnapshot().snapshot;
      etags.add(`${epoch}-${version}`);
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
    const { clock, upstream, feed } = startTestFeed({ buses: 10, onTrip: 5, limit: 600, latencyMs: 0 });
    await clock.advance(5_000);
    const a = await feed.trip(999);
    const b = await feed.trip(999);
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
