// A direction's route as a measured line through its stops: the app has no route shapes, only stops, so a bus is
// placed on the straight segments between them (within a few tens of metres of the street at corners).
import { polyline, type Polyline } from '@/lib/geo/polyline';
import { routeLine, type PlacedStop } from '@/lib/geo/route-lines';
import type { RouteStop } from '@/lib/model';
import { stopsForDirection, type DirectionSplit } from './direction';

export interface RoutePath {
  /** Through the placed stops in order: vertex i is the i-th placed stop, `line.cum[i]` its metres along. */
  line: Polyline;
  /** The placed stops, in order: stop i is vertex i. */
  stops: PlacedStop<RouteStop>[];
}

/**
 * The line through a direction's stops in order, as the map draws it (lib/geo/route-lines routeLine: the same
 * stops count as placed, in the same order); null below two placed stops.
 */
export function routePath(stops: readonly RouteStop[]): RoutePath | null {
  const { stops: placed, coordinates } = routeLine(stops);
  if (!coordinates) return null;
  const line = polyline(coordinates);
  if (!(line.lengthM > 0)) return null;
  return { line, stops: placed };
}

export type TripPath = { ok: true; path: RoutePath } | { ok: false; reason: Extract<DirectionSplit, { ok: false }>['reason'] | 'too-few-placed-stops' };

// Paths by the route's stops array (a new array from the server is a new route version) and direction value:
// every bus on the same route and direction shares one line, built once.
const cache = new WeakMap<readonly RouteStop[], Map<string, TripPath>>();

/** The path of a trip's direction over its route's stops (all directions, as /routes/{id}/stops lists them). */
export function pathForTrip(routeStops: readonly RouteStop[], direction: string | null): TripPath {
  let byDirection = cache.get(routeStops);
  if (!byDirection) {
    byDirection = new Map();
    cache.set(routeStops, byDirection);
  }
  const key = direction ?? '\u0000';
  let result = byDirection.get(key);
  if (!result) {
    const split = stopsForDirection(routeStops, direction);
    const path = split.ok ? routePath(split.stops) : null;
    result = !split.ok ? split : path ? { ok: true, path } : { ok: false, reason: 'too-few-placed-stops' };
    byDirection.set(key, result);
  }
  return result;
}
