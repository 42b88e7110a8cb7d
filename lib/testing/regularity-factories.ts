// Small factories for the regularity tests: one two-way route of straight streets, its network as /api/network
// carries it, and buses on its outbound trips.
import { at, stopsAlong } from '@/lib/testing/estimate-factories';
import type { NetworkResponse, RouteStop, Vehicle } from '@/lib/model';
import { makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';

export const MIN = 60_000;
export const ROUTE = 10;
// Outbound: 9 stops 250 m apart due north (2 km); inbound: the same street back south.
const OUT = Array.from({ length: 9 }, (_, i) => [0, i * 250] as const);
export const STOPS: RouteStop[] = [
  ...stopsAlong(OUT, { routeId: ROUTE }),
  ...stopsAlong([...OUT].reverse().map(([e, n]) => [e + 20, n] as const), { routeId: ROUTE, firstOrder: 10, firstId: 200 }),
];

export function network(stops: readonly RouteStop[]): Pick<NetworkResponse, 'features'> {
  return {
    features: [
      { type: 'Feature', geometry: { type: 'LineString', coordinates: [] }, properties: { kind: 'route', routeId: ROUTE, code: 'M15', name: 'First Av' } },
      ...stops.map((s) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: [s.longitude!, s.latitude!] as [number, number] },
        properties: { kind: 'stop', stopId: s.id, routeId: s.routeId, name: s.stopName, stopOrder: s.stopOrder, isStart: s.isStart, isEnd: s.isEnd },
      })),
    ],
  };
}

/** A bus on an outbound trip of route 10 that left `departedMinAgo` minutes before T0 (10 minutes planned), seen at `north` metres. */
export function bus(busId: number, north: number, departedMinAgo: number, over: Partial<Vehicle> = {}, gpsAt = T0): Vehicle {
  const [lon, lat] = at(0, north);
  const dep = T0 - departedMinAgo * MIN;
  return makeVehicle({
    busId,
    busName: `#${busId}`,
    lon,
    lat,
    gpsAt,
    speedKmh: 12,
    trip: makeTrip({ tripId: 100 + busId, routeId: ROUTE, direction: 'outbound', plannedDepartureAt: dep, plannedArrivalAt: dep + 10 * MIN, actualDepartureAt: dep }),
    ...over,
  });
}

