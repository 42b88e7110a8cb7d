// The trips the delay board and the wall count: every active trip the snapshot knows, whether or not its bus
// has a position. Works the same on a Standard-plan key (no GPS), where every trip is unpositioned.
import type { LiveSnapshot, VehicleTrip } from '@/lib/model';

export interface ActiveTrip extends VehicleTrip {
  busId: number | null;
  plateNumber: string | null;
  busName: string | null;
  positioned: boolean;
}

export function activeTrips(snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'>): ActiveTrip[] {
  const byId = new Map<number, ActiveTrip>();
  for (const v of snapshot.vehicles) {
    if (!v.trip) continue;
    byId.set(v.trip.tripId, {
      ...v.trip,
      busId: v.busId,
      plateNumber: v.plateNumber,
      busName: v.busName,
      positioned: v.lat !== null && v.lon !== null,
    });
  }
  // A trip is listed once even if the feed, mid-refresh, shows it on a bus and as unpositioned.
  for (const t of snapshot.unpositionedTrips) {
    if (!byId.has(t.tripId)) byId.set(t.tripId, { ...t, positioned: false });
  }
  return [...byId.values()];
}

/** Trips without a route id fall back to their code, so two unnamed routes with different codes stay apart. */
export function routeKey(trip: Pick<VehicleTrip, 'routeId' | 'routeCode'>): string {
  if (trip.routeId !== null) return `id:${trip.routeId}`;
  if (trip.routeCode) return `code:${trip.routeCode}`;
  return 'none';
}

export function routeLabel(trip: Pick<VehicleTrip, 'routeCode' | 'routeName' | 'routeId'>): string {
  return trip.routeCode ?? trip.routeName ?? (trip.routeId !== null ? `Route ${trip.routeId}` : 'No route');
}

/** Route filter tokens as people type them (`M15`, `m15`, or a numeric id) matched against a trip's route. */
export function tripMatchesRouteToken(trip: Pick<VehicleTrip, 'routeId' | 'routeCode'>, token: string): boolean {
  const t = token.trim().toLowerCase();
  if (!t) return false;
  if (trip.routeCode && trip.routeCode.toLowerCase() === t) return true;
  return trip.routeId !== null && /^\d+$/.test(t) && trip.routeId === Number(t);
}
