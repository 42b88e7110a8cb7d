// Headways over days: one route's service day from what the recorder kept (its trips, and each bus's fixes on
// them), cut into the sums the stored rows hold per direction and local hour (passing.ts's HeadwaySums and the
// ghost trip-minutes). Pure: the recorder's derivation (lib/history/regularity.ts), the benchmark and the tests
// call the same function.
//
// - Each fix is placed where lib/estimate places it for the map (estimatePosition at the fix's own time, with the
//   trip as it stood then: not departed before its recorded departure, not arrived before its recorded arrival);
//   the recorded departure and arrival put the trip at the direction's first and last stop.
// - Passing times, headway samples and their classes: passing.ts. A sample counts in the local hour of its later
//   passing (the wait it measures ends then).
// - Ghost trip-minutes (ghosts.ts's rule over time, passing.ts's ghostMinutes) count in the local hour of the
//   trip's departure. A trip with no bus is a ghost from its departure to its end; with no fix recorded on the
//   whole day (a key that cannot read locations) only those count, as on the live ladder.
import { estimatePosition, pathForTrip, runIndexOf, type EstimateTrip, type RecentFix } from '@/lib/estimate';
import type { EpochMs, RegularityConfig, RouteStop } from '@/lib/model';
import { tripDepartedAt } from './ghosts';
import { NO_SUMS, addSums, ghostMinutes, headwaySamples, passingTimes, plannedPassings, sumsOf, type HeadwaySums, type ProgressFix, type TripPassings } from './passing';

export interface DayTrip extends EstimateTrip {
  tripId: number;
  busId: number | null;
  /** When the recorder last saw it on /trips/active: the end of a trip whose arrival is not known. */
  lastSeenAt: EpochMs | null;
}

/** A recorded fix of the trip's bus while it ran the trip; `at` its GPS time (the fetched time without one). */
export type DayFix = Omit<RecentFix, 'gpsAt'> & { at: EpochMs };

/** One stored row: a route's direction in one local hour of one service day. */
export interface RegularityRow extends HeadwaySums {
  routeId: number;
  /** `outbound` / `inbound` as lib/estimate cuts the route; the raw value for a trip it cannot place. */
  direction: string;
  hour: number;
  ghostMinutes: number;
}

export interface RouteDayInput {
  routeId: number;
  /** The route's stops, all directions (as /routes/{id}/stops lists them); undefined when not known. */
  stops: readonly RouteStop[] | undefined;
  trips: readonly DayTrip[];
  fixesByTrip: ReadonlyMap<number, readonly DayFix[]>;
  /** Whether the key read locations at all that day (any fix recorded). */
  locations: boolean;
  /** Local hour (0–23) of an instant on the agency's clock. */
  hourOf: (ms: EpochMs) => number;
  config: RegularityConfig;
  /** For a day not over: trips still running count their ghost minutes until now. */
  now?: EpochMs;
}

const DIRECTION_NAMES = ['outbound', 'inbound'] as const;

function directionName(direction: string | null): string {
  const i = runIndexOf(direction);
  if (i === 0 || i === 'any') return DIRECTION_NAMES[0];
  if (i === 1) return DIRECTION_NAMES[1];
  return direction ?? '';
}

/** The trip as it stood at `t`: its recorded departure and arrival only once they had happened. */
function tripAt(trip: DayTrip, t: EpochMs): EstimateTrip {
  return {
    direction: trip.direction,
    plannedDepartureAt: trip.plannedDepartureAt,
    plannedArrivalAt: trip.plannedArrivalAt,
    actualDepartureAt: trip.actualDepartureAt !== null && trip.actualDepartureAt <= t ? trip.actualDepartureAt : null,
    actualArrivalAt: trip.actualArrivalAt !== null && trip.actualArrivalAt <= t ? trip.actualArrivalAt : null,
    delayMinutes: trip.delayMinutes,
  };
}

/** Each fix's progress along the path, as lib/estimate snaps it (the fix an estimate stands on). */
export function progressFixes(path: Parameters<typeof estimatePosition>[0]['path'], trip: DayTrip, fixes: readonly DayFix[]): ProgressFix[] {
  const out: ProgressFix[] = [];
  if (!path) return out;
  if (trip.actualDepartureAt !== null) out.push({ at: trip.actualDepartureAt, m: 0 });
  for (const f of fixes) {
    const e = estimatePosition({ path, trip: tripAt(trip, f.at), fixes: [{ ...f, gpsAt: f.at }], now: f.at });
    if (!e) continue;
    if (e.basis === 'gps-estimate' && e.motion) out.push({ at: e.motion.fromAt, m: e.motion.fromM });
    else if (e.basis === 'fix' && e.progressM !== null) out.push({ at: f.at, m: e.progressM });
  }
  if (trip.actualArrivalAt !== null) out.push({ at: trip.actualArrivalAt, m: path.line.lengthM });
  return plausible(out.sort((a, b) => a.at - b.at));
}

/** Faster than any bus in town (lib/estimate's bound): a fix that says so was snapped to another leg of the route. */
const MAX_SPEED_MPS = 25;
/** A bus does not go back along its route further than a fix's noise. */
const MAX_BACK_M = 300;

/**
 * The placed fixes a bus could have made in order: the longest chain in which each fix is reachable from the one
 * before (no faster than MAX_SPEED_MPS, no more than MAX_BACK_M behind). A loop or a street run both ways can snap a
 * fix to the wrong leg; interpolating across it would invent the passings of every stop in between, and dropping
 * only what disagrees with the first fix would lose the whole trip when that first one is the wrong one.
 */
function plausible(fixes: readonly ProgressFix[]): ProgressFix[] {
  const n = fixes.length;
  if (n < 2) return [...fixes];
  const reachable = (a: ProgressFix, b: ProgressFix) => b.m >= a.m - MAX_BACK_M && (b.m <= a.m || (b.m - a.m) / Math.max(1, (b.at - a.at) / 1000) <= MAX_SPEED_MPS);
  const length = new Array<number>(n).fill(1);
  const prev = new Array<number>(n).fill(-1);
  let best = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (length[j]! + 1 > length[i]! && reachable(fixes[j]!, fixes[i]!)) {
        length[i] = length[j]! + 1;
        prev[i] = j;
      }
    }
    if (length[i]! > length[best]!) best = i;
  }
  const out: ProgressFix[] = [];
  for (let i = best; i >= 0; i = prev[i]!) out.push(fixes[i]!);
  return out.reverse();
}

/** When the trip ended as far as the record tells: its arrival, else its planned arrival shifted by its delay. */
function endOf(trip: DayTrip): EpochMs | null {
  if (trip.actualArrivalAt !== null) return trip.actualArrivalAt;
  if (trip.plannedArrivalAt !== null) return trip.plannedArrivalAt + (trip.delayMinutes !== null && Number.isFinite(trip.delayMinutes) ? trip.delayMinutes * 60_000 : 0);
  return trip.lastSeenAt;
}

/** The ghost trip-minutes of one trip (see the rule above). */
export function tripGhostMinutes(trip: DayTrip, fixes: readonly DayFix[], locations: boolean, ghostAfterS: number, now?: EpochMs): number {
  const from = tripDepartedAt(trip);
  let to = endOf(trip);
  if (from === null || to === null) return 0;
  if (now !== undefined) to = Math.min(to, now);
  if (!(to > from)) return 0;
  if (trip.busId === null) return (to - from) / 60_000;
  if (!locations) return 0;
  return ghostMinutes(
    fixes.map((f) => f.at),
    from,
    to,
    ghostAfterS,
  );
}

/** The stored rows of one route's service day: per direction and local hour, rows with nothing in them left out. */
export function deriveRouteDay(input: RouteDayInput): RegularityRow[] {
  const rows = new Map<string, RegularityRow>();
  const row = (direction: string, hour: number): RegularityRow => {
    const key = `${direction}\u0000${hour}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { routeId: input.routeId, direction, hour, ...NO_SUMS, ghostMinutes: 0 }));
    return r;
  };
  const byDirection = new Map<string, { cum: Float64Array; stopsM: readonly number[]; passings: TripPassings[] }>();
  for (const trip of input.trips) {
    const fixes = [...(input.fixesByTrip.get(trip.tripId) ?? [])].sort((a, b) => a.at - b.at);
    const direction = directionName(trip.direction);
    const ghost = tripGhostMinutes(trip, fixes, input.locations, input.config.ghostAfterS, input.now);
    const departed = tripDepartedAt(trip);
    if (ghost > 0 && departed !== null) row(direction, input.hourOf(departed)).ghostMinutes += ghost;
    const tp = input.stops ? pathForTrip(input.stops, trip.direction) : null;
    if (!tp?.ok) continue;
    // The path's vertex k is its k-th placed stop (lib/estimate/path.ts): its metres along are the stops'.
    const cum = tp.path.line.cum;
    let d = byDirection.get(direction);
    if (!d) byDirection.set(direction, (d = { cum, stopsM: Array.from(cum), passings: [] }));
    if (d.cum !== cum) continue;
    const stopsM = d.stopsM;
    d.passings.push({ tripId: trip.tripId, actual: passingTimes(stopsM, progressFixes(tp.path, trip, fixes)), planned: plannedPassings(stopsM, trip.plannedDepartureAt, trip.plannedArrivalAt) });
  }
  for (const [direction, d] of byDirection) {
    const byHour = new Map<number, ReturnType<typeof headwaySamples>>();
    for (const s of headwaySamples(d.passings, d.stopsM.length, input.config)) {
      const h = input.hourOf(s.at);
      (byHour.get(h) ?? byHour.set(h, []).get(h)!).push(s);
    }
    for (const [hour, samples] of byHour) {
      const r = row(direction, hour);
      Object.assign(r, addSums(r, sumsOf(samples)));
    }
  }
  return [...rows.values()].sort((a, b) => (a.direction < b.direction ? -1 : a.direction > b.direction ? 1 : a.hour - b.hour));
}
