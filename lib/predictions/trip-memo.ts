// Each active trip's predictions, kept from one snapshot version to the next. A trip's predictions rest on its
// record, its route's stops, the bus's recent fixes and its pace profile, and are made from the bus's last fix
// (predict.ts: `at`), not from the snapshot's time: while none of these changes and no rule does (`validUntil`:
// a fix turning stale, a planned departure passing, a schedule refresh), the trip keeps the very object it had,
// and lib/gtfs-rt's entity cache keeps its encoded TripUpdate. Pure: the server's service and the GTFS-RT
// benchmark predict with it.
import type { RecentFix } from '@/lib/estimate';
import { sameVehicleTrip, type EpochMs, type RouteStop, type VehicleTrip } from '@/lib/model';
import type { PredictionBasis, ScheduleReason, TripPredictions } from '@/lib/model/predictions';
import { predictTrip, type PaceProfile, type TripPrediction } from './predict';

const NOTES: Record<PredictionBasis, string> & Record<ScheduleReason, string> = {
  gps: "From the bus's position and pace along its route at its last fix, with its current delay carried forward.",
  'planned-departure': 'The bus waits at its first stop: from its planned departure.',
  schedule: 'From the schedule moved by the current delay.',
  'no-gps': 'From the schedule moved by the current delay: no GPS position for this bus (the key’s plan or the bus has none).',
  'stale-fix': 'From the schedule moved by the current delay: no fix from this bus for 15 minutes.',
  'off-route': 'From the schedule moved by the current delay: the bus’s last fix is off its route.',
  'fix-before-trip': 'From the schedule moved by the current delay: no fix since the trip left.',
};

/** An active trip of a snapshot, with its bus. */
export interface ActiveTrip {
  trip: VehicleTrip;
  busId: number | null;
  busName: string | null;
}

interface Entry {
  trip: VehicleTrip;
  busId: number | null;
  busName: string | null;
  stops: readonly RouteStop[];
  /** The fixes' GPS times, in order (the fixes themselves are new objects per version). */
  fixTimes: (number | null)[];
  profile: PaceProfile | null;
  validUntil: EpochMs | null;
  value: TripPredictions | null;
}

function sameFixes(times: readonly (number | null)[], fixes: readonly RecentFix[]): boolean {
  if (times.length !== fixes.length) return false;
  for (let i = 0; i < times.length; i++) if (times[i] !== fixes[i]!.gpsAt) return false;
  return true;
}

export class TripPredictionMemo {
  private entries = new Map<number, Entry>();
  /** Trips predicted anew since the last sweep (the others were reused). */
  private predicted = 0;
  private seen = new Set<number>();

  /**
   * The trip's predictions at `now`: the ones it had when nothing they rest on changed, else made anew (null when
   * the trip cannot be predicted: no path on its stops, no schedule).
   */
  predict(a: ActiveTrip, stops: readonly RouteStop[], fixes: readonly RecentFix[], profile: PaceProfile | null, now: EpochMs): TripPredictions | null {
    const id = a.trip.tripId;
    this.seen.add(id);
    const e = this.entries.get(id);
    if (e && (e.validUntil === null || now < e.validUntil) && e.stops === stops && e.profile === profile && e.busId === a.busId && e.busName === a.busName && sameVehicleTrip(e.trip, a.trip) && sameFixes(e.fixTimes, fixes)) return e.value;
    this.predicted++;
    const p = predictTrip({ trip: a.trip, routeStops: stops, fixes, now, profile });
    const value = p.ok ? tripPredictions(a, p) : null;
    this.entries.set(id, { trip: a.trip, busId: a.busId, busName: a.busName, stops, fixTimes: fixes.map((f) => f.gpsAt), profile, validUntil: p.ok ? p.validUntil : null, value });
    return value;
  }

  /** Forgets the trips not asked since the last sweep (they left the active trips); how many were predicted anew. */
  sweep(): number {
    if (this.seen.size < this.entries.size) for (const id of this.entries.keys()) if (!this.seen.has(id)) this.entries.delete(id);
    this.seen = new Set();
    const n = this.predicted;
    this.predicted = 0;
    return n;
  }
}

/** A trip's predictions as the API serves them. */
export function tripPredictions(a: ActiveTrip, p: Extract<TripPrediction, { ok: true }>): TripPredictions {
  const t = a.trip;
  return {
    tripId: t.tripId,
    routeId: t.routeId,
    routeCode: t.routeCode,
    routeName: t.routeName,
    direction: t.direction,
    headsign: p.headsign,
    busId: a.busId,
    busName: a.busName,
    basis: p.basis,
    scheduleReason: p.scheduleReason,
    note: NOTES[p.scheduleReason ?? p.basis],
    delayMinutes: t.delayMinutes,
    plannedDepartureAt: t.plannedDepartureAt,
    at: p.at,
    stops: p.stops.map((s) => ({
      stopId: s.stop.id,
      stopName: s.stop.stopName,
      stopOrder: s.stop.stopOrder,
      lat: s.stop.latitude,
      lon: s.stop.longitude,
      alongM: Math.round(s.alongM),
      arrivalAt: s.arrivalAt,
      earliestAt: s.earliestAt,
      latestAt: s.latestAt,
      plannedAt: s.plannedAt,
    })),
  };
}
