import { describe, expect, it } from 'vitest';
import type { Route, RouteStops } from '@/lib/model';
import { buildNetwork } from './network';

const route: Route = { id: 7, name: 'Crosstown', code: 'M7', startName: null, endName: null, distanceEstimate: null, durationEstimate: null, status: 'active' };
const stops: RouteStops = {
  route: { id: 7, name: null, code: null },
  stops: [
    { id: 2, routeId: 7, stopName: 'B', stopOrder: 2, latitude: 40.76, longitude: -73.98, isStart: false, isEnd: true, status: null },
    { id: 1, routeId: 7, stopName: 'A', stopOrder: 1, latitude: 40.75, longitude: -73.99, isStart: true, isEnd: false, status: null },
  ],
};

describe('network', () => {
  it('gives each stop its order and flags, so a browser can cut the route into its directions', () => {
    const net = buildNetwork([route], () => stops);
    const props = net.features.filter((f) => f.properties.kind === 'stop').map((f) => f.properties);
    expect(props).toEqual([
      { kind: 'stop', stopId: 1, routeId: 7, name: 'A', stopOrder: 1, isStart: true, isEnd: false },
      { kind: 'stop', stopId: 2, routeId: 7, name: 'B', stopOrder: 2, isStart: false, isEnd: true },
    ]);
  });
});
