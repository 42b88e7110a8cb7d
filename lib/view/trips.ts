// The one projection from the live snapshot to active trips. The delay board, the wall and the dispatcher's list
// all read trips from here, so they agree about every trip and about whether its bus has a position. Every active
// trip the snapshot knows is listed, with or without a position: on a Standard-plan key (no GPS) every trip is
// unpositioned and the list still works.
import type { EpochMs, LiveSnapshot, VehicleTrip } from '@/lib/model';
import { hasPosition } from '@/lib/placement/bus';

export interface ActiveTrip extends VehicleTrip {
  busId: number | null;
  plateNumber: string | null;
  busName: string | null;
  internalCode: string | null;
  /** The bus has a readable position (hasPosition): the map draws it. */
  positioned: boolean;
  /** GPS time of that position; null when the trip is not positioned. */
  gpsAt: EpochMs | null;
}

export function activeTrips(snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'>): ActiveTrip[] {
  const byId = new Map<number, ActiveTrip>();
  for (const v of snapshot.vehicles) {
    // A trip is listed once: on the first bus that carries it.
    if (!v.trip || byId.has(v.trip.tripId)) continue;
    const positioned = hasPosition(v);
    byId.set(v.trip.tripId, {
      ...v.trip,
      busId: v.busId,
      plateNumber: v.plateNumber,
      busName: v.busName,
      internalCode: v.internalCode,
      positioned,
      gpsAt: positioned ? v.gpsAt : null,
    });
  }
  // ... and once even if the feed, mid-refresh, shows it on a bus and as unpositioned.
  for (const t of snapshot.unpositionedTrips) {
    if (!byId.has(t.tripId)) byId.set(t.tripId, { ...t, internalCode: null, positioned: false, gpsAt: null });
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

export { tripMatchesRouteToken } from '@/lib/model';
