// Pace profiles learnt from trips that ran: per route, direction and hour of planned departure, how the time of a
// trip splits over its path's segments against the flat plan (plannedOffsets). The flat plan spreads time by
// distance; real streets do not (a slow avenue, a fast bridge): where a profile is known it replaces the spread.
// Pure: the server's service and the benchmark's replay learn with the same code.
import { estimatePosition, type EstimateTrip, type RecentFix, type RoutePath } from '@/lib/estimate';
import type { EpochMs } from '@/lib/model';
import { plannedOffsets, type PaceProfile } from './predict';

/** A trip's passes as lib/estimate placed its fixes: metres along the path at each fix's GPS time. */
export interface TripPasses {
  routeId: number;
  direction: string | null;
  plannedDepartureAt: EpochMs;
  plannedArrivalAt: EpochMs;
  path: RoutePath;
  points: ReadonlyArray<{ m: number; t: EpochMs }>;
}

/**
 * Where the bus was along the path at its newest fix's own time, as lib/estimate places it (the fix snapped to the
 * path); null when the estimate does not put it on the path there (off the route, before departure, schedule).
 */
export function passOf(path: RoutePath, trip: EstimateTrip, fixes: readonly RecentFix[]): { m: number; t: EpochMs } | null {
  const last = fixes.reduce<RecentFix | null>((a, f) => (f.gpsAt !== null && (a === null || f.gpsAt > a.gpsAt!) ? f : a), null);
  if (!last || last.gpsAt === null) return null;
  const e = estimatePosition({ path, trip, fixes, now: last.gpsAt });
  return e && e.basis !== 'schedule-estimate' && e.progressM !== null ? { m: e.progressM, t: last.gpsAt } : null;
}

/** Two fixes further apart than this say little of how the time split between the stops in between. */
const MAX_GAP_MS = 5 * 60_000;
/** Trips needed before a profile is used (fewer: the flat plan). */
export const MIN_TRIPS = 3;

interface Sums {
  observedS: Float64Array;
  plannedS: Float64Array;
  flatShare: number[];
  trips: number;
}

export class PaceLearner {
  private readonly sums = new Map<string, Sums>();
  private readonly cache = new Map<string, PaceProfile | null>();

  /** `hourOf`: the local hour of an instant (the agency's clock). */
  constructor(private readonly hourOf: (t: EpochMs) => number) {}

  private static key(routeId: number, direction: string | null, hour: number | 'all') {
    return `${routeId}|${direction ?? ''}|${hour}`;
  }

  /** Learns from one trip that ran (its passes in time order). */
  add(trip: TripPasses): void {
    const { path } = trip;
    const n = path.line.cum.length;
    const durationS = (trip.plannedArrivalAt - trip.plannedDepartureAt) / 1000;
    if (!(durationS > 0)) return;
    const plan = plannedOffsets(path, durationS, null).atStopS;
    const pts = trip.points.filter((p, i, a) => i === 0 || (p.m > a[i - 1]!.m && p.t > a[i - 1]!.t));
    if (pts.length < 2) return;
    // When the bus passed each stop, between the fixes either side.
    const passed: (number | null)[] = [];
    let j = 0;
    for (let i = 0; i < n; i++) {
      const m = path.line.cum[i]!;
      while (j < pts.length - 2 && pts[j + 1]!.m < m) j++;
      const a = pts[j]!;
      const b = pts[j + 1]!;
      passed.push(a.m <= m && m <= b.m && b.t - a.t <= MAX_GAP_MS ? a.t + ((m - a.m) / (b.m - a.m)) * (b.t - a.t) : null);
    }
    for (const key of [PaceLearner.key(trip.routeId, trip.direction, this.hourOf(trip.plannedDepartureAt)), PaceLearner.key(trip.routeId, trip.direction, 'all')]) {
      let s = this.sums.get(key);
      if (!s) this.sums.set(key, (s = { observedS: new Float64Array(n - 1), plannedS: new Float64Array(n - 1), flatShare: plan.slice(1).map((x, i) => (x - plan[i]!) / durationS), trips: 0 }));
      // A route whose stops changed: its old sums no longer fit.
      if (s.observedS.length !== n - 1) this.sums.set(key, (s = { observedS: new Float64Array(n - 1), plannedS: new Float64Array(n - 1), flatShare: plan.slice(1).map((x, i) => (x - plan[i]!) / durationS), trips: 0 }));
      s.trips++;
      for (let i = 0; i < n - 1; i++) {
        const a = passed[i];
        const b = passed[i + 1];
        if (a === null || b === null || a === undefined || b === undefined) continue;
        s.observedS[i]! += (b - a) / 1000;
        s.plannedS[i]! += plan[i + 1]! - plan[i]!;
      }
      this.cache.delete(key);
    }
  }

  /** The profile for a trip: its hour's, else its route and direction's over all hours, else null (the flat plan). */
  profileFor(routeId: number, direction: string | null, plannedDepartureAt: EpochMs, stops: number): PaceProfile | null {
    for (const key of [PaceLearner.key(routeId, direction, this.hourOf(plannedDepartureAt)), PaceLearner.key(routeId, direction, 'all')]) {
      const p = this.profileOf(key);
      if (p && p.length === stops) return p;
    }
    return null;
  }

  get size(): number {
    let n = 0;
    for (const key of this.sums.keys()) if (!key.endsWith('|all') && this.profileOf(key)) n++;
    return n;
  }

  private profileOf(key: string): PaceProfile | null {
    if (this.cache.has(key)) return this.cache.get(key)!;
    const s = this.sums.get(key);
    let profile: PaceProfile | null = null;
    if (s && s.trips >= MIN_TRIPS) {
      // Each segment's share of the trip: the flat plan's, scaled by the ratio of observed to planned time there
      // (segments no pair of fixes bracketed keep the flat share).
      const weights = s.flatShare.map((share, i) => share * (s.plannedS[i]! > 0 ? s.observedS[i]! / s.plannedS[i]! : 1));
      const total = weights.reduce((sum, w) => sum + w, 0);
      if (total > 0) {
        const cum = [0];
        for (let i = 0; i < weights.length; i++) cum.push(cum[i]! + weights[i]!);
        profile = cum.map((c) => c / total);
      }
    }
    this.cache.set(key, profile);
    return profile;
  }
}
