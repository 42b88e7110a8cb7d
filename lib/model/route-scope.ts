// Which buses and trips a view limited to some routes shows: the wall's `?routes=`, and the server's answers to a
// wall-display token limited to routes (lib/http/live-scope.ts), which must never carry another route's bus or trip.
import type { LiveSnapshot, VehicleTrip } from './live';

/** Route filter tokens as people type them (`M15`, `m15`, or a numeric id) matched against a trip's route. */
export function tripMatchesRouteToken(trip: Pick<VehicleTrip, 'routeId' | 'routeCode'>, token: string): boolean {
  const t = token.trim().toLowerCase();
  if (!t) return false;
  if (trip.routeCode && trip.routeCode.toLowerCase() === t) return true;
  return trip.routeId !== null && /^\d+$/.test(t) && trip.routeId === Number(t);
}

/** The trip is on one of the routes. */
export function tripInRoutes(trip: Pick<VehicleTrip, 'routeId' | 'routeCode'>, routes: readonly string[]): boolean {
  return routes.some((r) => tripMatchesRouteToken(trip, r));
}

/**
 * The snapshot's buses and trips on the routes, and nothing else: a bus counts while its trip is on one of them
 * (a bus between trips belongs to no route). Order is kept (vehicles by busId, trips by tripId).
 */
export function liveInRoutes<T extends Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'>>(snapshot: T, routes: readonly string[]): T {
  return {
    ...snapshot,
    vehicles: snapshot.vehicles.filter((v) => v.trip !== null && tripInRoutes(v.trip, routes)),
    unpositionedTrips: snapshot.unpositionedTrips.filter((t) => tripInRoutes(t, routes)),
  };
}
