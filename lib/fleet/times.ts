import 'server-only';
import type { Bus, Trip } from '@/lib/model';

// When the inferred timezone changes, instants already parsed under the old offset move by the difference.

const shift = (t: number | null, ms: number) => (t === null ? null : t + ms);

export function shiftTripTimes(trip: Trip, ms: number): Trip {
  return {
    ...trip,
    plannedDepartureAt: shift(trip.plannedDepartureAt, ms),
    plannedArrivalAt: shift(trip.plannedArrivalAt, ms),
    actualDepartureAt: shift(trip.actualDepartureAt, ms),
    actualArrivalAt: shift(trip.actualArrivalAt, ms),
  };
}

export function shiftBusTimes(bus: Bus, ms: number): Bus {
  return { ...bus, lastGpsAt: shift(bus.lastGpsAt, ms) };
}

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance; used for a bus's speed when the upstream sends none. */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}
