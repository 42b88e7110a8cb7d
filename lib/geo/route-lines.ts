// A route drawn as a line through its stops. The one builder behind the server's network GeoJSON, the browser's
// route overlay and the line buses are estimated along (lib/estimate/path.ts), so a route is drawn the same way on
// every map and a bus is estimated on the line that is drawn. Pure: no server-only, no React.
import { isLonLat } from './lon-lat';

/** The fields of a route stop (lib/model RouteStop) that place it on a route. */
export interface StopPlace {
  id: number;
  stopOrder: number;
  latitude: number | null;
  longitude: number | null;
}

export type PlacedStop<S extends StopPlace> = S & { latitude: number; longitude: number };

export interface RouteLine<S extends StopPlace> {
  /** The stops that can be drawn, in stop_order; stops of equal order by id, whatever order they came in. */
  stops: PlacedStop<S>[];
  /** [lon, lat] through those stops; null with fewer than two (one point is not a line). */
  coordinates: [number, number][] | null;
}

/** The one rule for a stop that counts as placed: a position that can be drawn (lib/geo/lon-lat isLonLat). */
export function isPlacedStop<S extends StopPlace>(s: S): s is PlacedStop<S> {
  return isLonLat(s.longitude, s.latitude);
}

/**
 * A route's stops in stop_order. The spec does not say stop_order is unique; the id breaks ties so nothing
 * depends on the order of a list.
 */
export function stopsInOrder<S extends StopPlace>(stops: readonly S[]): S[] {
  return [...stops].sort((a, b) => a.stopOrder - b.stopOrder || a.id - b.id);
}

/**
 * Stops without a readable position are left out of the line and the stops alike (the spec allows null
 * latitude/longitude); the rest in stopsInOrder's order.
 */
export function routeLine<S extends StopPlace>(stops: readonly S[]): RouteLine<S> {
  const ordered = stopsInOrder(stops.filter(isPlacedStop));
  return { stops: ordered, coordinates: ordered.length >= 2 ? ordered.map((s) => [s.longitude, s.latitude]) : null };
}
