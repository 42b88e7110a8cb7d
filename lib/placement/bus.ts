// What a bus is called on screen, its colour class, and whether it has a position: read by the placements, the
// map's layers, the lists and the banners alike (below lib/view/bus-features and bus-placement, which both need them).
import type { DelayClass, Vehicle } from '@/lib/model';
import { isLonLat } from '@/lib/geo/lon-lat';

export type BusClass = DelayClass | 'none';

/** The one rule for "this bus has a position": every view that draws, lists or counts positions asks it. */
export function hasPosition(v: Vehicle): v is Vehicle & { lat: number; lon: number } {
  return isLonLat(v.lon, v.lat);
}

/** Route code, else bus name, else plate: what a dispatcher calls the bus. */
export function busLabel(v: Pick<Vehicle, 'busName' | 'plateNumber' | 'busId'> & { trip: { routeCode: string | null } | null }): string {
  return v.trip?.routeCode ?? v.busName ?? v.plateNumber ?? `#${v.busId}`;
}
