import 'server-only';
import { routeLine } from '@/lib/geo/route-lines';
import type { NetworkResponse } from '@/lib/model';
import type { Route, RouteStops } from '@/lib/model';

type Feature = NetworkResponse['features'][number];

/**
 * The network as GeoJSON: each route a LineString through its stops, each stop a Point, both placed by
 * lib/geo/route-lines (the browser's route overlay draws the same line). `routes` is null until the feed has
 * listed them once.
 */
export function buildNetwork(
  routes: readonly Route[] | null,
  stopsByRoute: (routeId: number) => RouteStops | null,
): NetworkResponse {
  // Before the first routes list there is nothing to draw and nothing known to be pending: say so, rather
  // than answer an empty network that looks complete.
  if (routes === null) return { type: 'FeatureCollection', features: [], pendingRoutes: 0, routesListed: false };
  const features: Feature[] = [];
  let pendingRoutes = 0;
  for (const route of [...routes].sort((a, b) => a.id - b.id)) {
    const stops = stopsByRoute(route.id);
    if (!stops) {
      pendingRoutes++;
      continue;
    }
    const { stops: placed, coordinates } = routeLine(stops.stops);
    if (coordinates) {
      features.push({
        type: 'Feature',
        id: route.id,
        geometry: { type: 'LineString', coordinates },
        properties: { kind: 'route', routeId: route.id, code: route.code, name: route.name },
      });
    }
    for (const s of placed) {
      features.push({
        type: 'Feature',
        id: s.id,
        geometry: { type: 'Point', coordinates: [s.longitude, s.latitude] },
        // stopOrder lets the browser cut a route into its directions (lib/estimate/direction.ts) without a request per route.
        properties: { kind: 'stop', stopId: s.id, routeId: route.id, name: s.stopName, stopOrder: s.stopOrder, isStart: s.isStart, isEnd: s.isEnd },
      });
    }
  }
  return { type: 'FeatureCollection', features, pendingRoutes, routesListed: true };
}
