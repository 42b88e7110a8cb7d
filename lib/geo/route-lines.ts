// A route drawn as a line through its stops. The one builder behind the server's network GeoJSON and the
// browser's route overlay, so a route is drawn the same way on every map. Pure: no server-only, no React.
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

function placed<S extends StopPlace>(s: S): s is PlacedStop<S> {
  return isLonLat(s.longitude, s.latitude);
}

/**
 * Stops without a readable position are left out of the line and the stops alike (the spec allows null
 * latitude/longitude). The spec does not say stop_order is unique; the id breaks ties so the line never
 * depends on the order of a list.
 */
export function routeLine<S extends StopPlace>(stops: readonly S[]): RouteLine<S> {
  const ordered = stops.filter(placed).sort((a, b) => a.stopOrder - b.stopOrder || a.id - b.id);
  return { stops: ordered, coordinates: ordered.length >= 2 ? ordered.map((s) => [s.longitude, s.latitude]) : null };
}
