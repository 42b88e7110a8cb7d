import { describe, expect, it } from 'vitest';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet';
import { DEFAULT_REGULARITY, type LiveSnapshot, type NetworkResponse } from '@/lib/model';
import { makeHealth, makeSnapshot, T0 } from '@/lib/testing/view-factories';
import { HeadwayService } from './service';
import { bus, network, STOPS } from '@/lib/testing/regularity-factories';

function feedOf(snapshot: LiveSnapshot, net: Pick<NetworkResponse, 'features'>) {
  const events = new TypedEmitter<FeedEvents>();
  const source = {
    snapshot,
    calls: 0,
    events,
    liveSnapshot: () => ({ snapshot: source.snapshot, body: '', changes: null, health: makeHealth() }),
    networkGeoJson: () => {
      source.calls++;
      return { ...net, type: 'FeatureCollection', pendingRoutes: 0, routesListed: true } as NetworkResponse;
    },
  };
  return source;
}

describe('HeadwayService', () => {
  const snapshot = makeSnapshot({ vehicles: [bus(1, 1500, 6), bus(2, 1400, 3)] });

  it('answers the routes asked for by code or id, says which it does not know, and keeps a wall to its routes', () => {
    const feed = feedOf(snapshot, network(STOPS));
    const service = new HeadwayService(feed, { config: DEFAULT_REGULARITY, staleAfterS: 120, now: () => T0 });
    const all = service.answer(null, null);
    expect(all.routes.map((r) => r.routeCode)).toEqual(['M15']);
    expect(all).toMatchObject({ at: T0, epoch: 'e1', version: 1, config: DEFAULT_REGULARITY, unknownRoutes: [] });
    expect(service.answer(['m15'], null).routes.map((r) => r.routeId)).toEqual([10]);
    expect(service.answer(['10', 'M101'], null)).toMatchObject({ routes: [{ routeId: 10 }], unknownRoutes: ['M101'] });
    // A wall limited to M101 sees nothing of M15, and is not told M15 exists.
    expect(service.answer(['M15'], ['M101'])).toMatchObject({ routes: [], unknownRoutes: ['M15'] });
    expect(service.answer(null, ['M101']).routes).toEqual([]);
    service.close();
  });

  it('computes once per snapshot version within its refresh, and again at each walk of the active trips', () => {
    let now = T0;
    const feed = feedOf(snapshot, network(STOPS));
    const service = new HeadwayService(feed, { config: DEFAULT_REGULARITY, staleAfterS: 120, now: () => now });
    service.answer(null, null);
    service.answer(['M15'], null);
    expect(feed.calls).toBe(1);
    feed.snapshot = { ...snapshot, version: 2 };
    expect(service.answer(null, null).version).toBe(2);
    expect(feed.calls).toBe(2);
    now += 6_000;
    feed.events.emit('trips', { fetchedAt: now, trips: [] });
    expect(feed.calls).toBe(3);
    expect(service.answer(null, null).at).toBe(now);
    service.close();
    feed.events.emit('trips', { fetchedAt: now + 10_000, trips: [] });
    expect(feed.calls).toBe(3);
  });
});
