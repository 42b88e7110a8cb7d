import { describe, expect, it } from 'vitest';
import type { NetworkResponse } from '@/lib/model';
import { networkInScope, routeInScope, WALL_ROUTES_HEADER, wallRoutes } from './wall-scope';

const line = (routeId: number, code: string) => ({ type: 'Feature' as const, geometry: { type: 'LineString' as const, coordinates: [[0, 0], [1, 1]] as [number, number][] }, properties: { kind: 'route', routeId, code, name: code } });
const stop = (routeId: number, stopId: number) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [0, 0] as [number, number] }, properties: { kind: 'stop', stopId, routeId, name: `s${stopId}` } });

describe('a wall token limited to routes', () => {
  it('reads those routes’ lines and stops only; no list is every route', () => {
    const network: NetworkResponse = { type: 'FeatureCollection', features: [line(15, 'M15'), stop(15, 1), line(7, 'M7'), stop(7, 2)], pendingRoutes: 0, routesListed: true };
    expect(networkInScope(network, ['m15']).features.map((f) => f.properties.routeId)).toEqual([15, 15]);
    expect(networkInScope(network, ['7']).features.map((f) => f.properties.routeId)).toEqual([7, 7]);
    expect(routeInScope({ id: 15, code: 'M15' }, ['M15'])).toBe(true);
    expect(routeInScope({ id: 16, code: 'M16' }, ['M15'])).toBe(false);
  });

  it('takes its routes from the header proxy.ts wrote; an unreadable one allows nothing', () => {
    const req = (v?: string) => new Request('http://x/api/routes', { headers: v === undefined ? {} : { [WALL_ROUTES_HEADER]: v } });
    expect(wallRoutes(req())).toBeNull();
    expect(wallRoutes(req('["M15"]'))).toEqual(['M15']);
    expect(wallRoutes(req('{'))).toEqual([]);
  });
});
