import { describe, expect, it } from 'vitest';
import type { RouteStop } from '@/lib/model';
import { routeOverlayBounds, routeOverlayGeoJson } from './route-overlay';

const stop = (over: Partial<RouteStop>): RouteStop => ({
  id: 1,
  routeId: 10,
  stopName: 'S',
  stopOrder: 1,
  latitude: 40.7,
  longitude: -73.9,
  isStart: false,
  isEnd: false,
  status: 'active',
  ...over,
});

describe('routeOverlayGeoJson', () => {
  it('draws the line in stop_order whatever order the stops came in', () => {
    const fc = routeOverlayGeoJson([
      stop({ id: 3, stopOrder: 3, longitude: -73.3 }),
      stop({ id: 1, stopOrder: 1, longitude: -73.1 }),
      stop({ id: 2, stopOrder: 2, longitude: -73.2 }),
    ]);
    const line = fc.features[0]!;
    expect(line.geometry.type).toBe('LineString');
    expect((line.geometry as GeoJSON.LineString).coordinates.map((c) => c[0])).toEqual([-73.1, -73.2, -73.3]);
  });

  it('uses the start/end flags when sent, else the ends of the order', () => {
    const flagged = routeOverlayGeoJson([
      stop({ id: 1, stopOrder: 1 }),
      stop({ id: 2, stopOrder: 2, isStart: true }),
      stop({ id: 3, stopOrder: 3, isEnd: true }),
    ]);
    const roles = (fc: ReturnType<typeof routeOverlayGeoJson>) =>
      fc.features.flatMap((f) => (f.properties.kind === 'stop' ? [f.properties.role] : []));
    expect(roles(flagged)).toEqual(['stop', 'start', 'end']);
    const plain = routeOverlayGeoJson([stop({ id: 1, stopOrder: 1 }), stop({ id: 2, stopOrder: 2 }), stop({ id: 3, stopOrder: 3 })]);
    expect(roles(plain)).toEqual(['start', 'stop', 'end']);
  });

  it('leaves out stops without coordinates, and draws no line through a single stop', () => {
    const fc = routeOverlayGeoJson([stop({ id: 1 }), stop({ id: 2, stopOrder: 2, latitude: null })]);
    expect(fc.features).toHaveLength(1);
    expect(fc.features[0]!.geometry.type).toBe('Point');
  });

  it('bounds the drawable stops', () => {
    expect(routeOverlayBounds([stop({ longitude: -74, latitude: 40.6 }), stop({ longitude: -73.9, latitude: 40.8 })])).toEqual([-74, 40.6, -73.9, 40.8]);
    expect(routeOverlayBounds([stop({ latitude: null })])).toBeNull();
  });
});
