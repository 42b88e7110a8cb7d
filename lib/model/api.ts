// Bodies of Fleetmap's own /api routes: server handlers return exactly these and browsers read them, so they live
// here, in the model both sides share.
import type { Bus, Route, RouteStops, Trip } from './transit';

export interface ApiErrorBody {
  error: { status: number; message: string; correlationId?: string | null };
}

export interface TripResponse {
  trip: Trip;
  /** When the server fetched it from the upstream (epoch ms). */
  fetchedAt: number;
}

export interface RoutesResponse {
  routes: Route[];
  fetchedAt: number | null;
}

export interface RouteStopsResponse extends RouteStops {
  fetchedAt: number;
}

export interface BusesResponse {
  buses: Bus[];
  fetchedAt: number | null;
}

/** GeoJSON of the whole network (route lines through their stops, and the stops), for map context. */
export interface NetworkResponse {
  type: 'FeatureCollection';
  features: Array<{
    type: 'Feature';
    id?: number;
    geometry: { type: 'LineString'; coordinates: [number, number][] } | { type: 'Point'; coordinates: [number, number] };
    properties: Record<string, string | number | boolean | null>;
  }>;
  /** Routes whose stops are not loaded yet (the feed fetches them a few at a time). */
  pendingRoutes: number;
  /** False until the feed has listed the routes once: an empty network then means "not known yet". */
  routesListed: boolean;
}
