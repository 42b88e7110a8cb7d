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
