// Headways over days: one route's service day from what the recorder kept (its trips, and each bus's fixes on
// them), cut into the sums the stored rows hold per direction and local hour (passing.ts's HeadwaySums and the
// ghost trip-minutes). Pure: the recorder's derivation (lib/history/regularity.ts), the benchmark and the tests
// call the same function.
//
// - Each fix is placed where lib/estimate places it for the map (estimatePosition at the fix's own time, with the
//   trip as it stood then: not departed before its recorded departure, not arrived before its recorded arrival);
//   the recorded departure and arrival put the trip at the direction's first and last stop. A short-turned trip
//   (tripType `short_turn`) arrives at the stop its planned time reaches on the direction's pace profile (its planned
//   time over the nearest whole trips'), not before where its fixes had it: the stops after it are not passed.
// - Across a long gap between fixes (or a trip with none), the stops are passed by the trip's own clock when its
//   delay changes were recorded: its planned time at each point (planned departure to arrival, shared out as the
//   direction's pace profile) shifted by its delay as it changed (delay-clock.ts); else by the pace profile alone.
// - Passing times, headway samples and their classes: passing.ts. A sample counts in the local hour of its later
//   passing (the wait it measures ends then).
// - Ghost trip-minutes (ghosts.ts's rule over time, passing.ts's ghostMinutes) count in the local hour of the
//   trip's departure. A trip with no bus is a ghost from its departure to its end; with no fix recorded on the
//   whole day (a key that cannot read locations) only those count, as on the live ladder.
import { estimatePosition, pathForTrip, runIndexOf, type EstimateTrip, type RecentFix, type RoutePath } from '@/lib/estimate';
import type { EpochMs, RegularityConfig, RouteStop } from '@/lib/model';
import { tripDepartedAt } from './ghosts';
import { delayClock, type DelayChange } from './delay-clock';
import { NO_SUMS, addSample, eachHeadway, ghostMinutes, paceProfile, passingTimes, plannedPassings, profileAt, shortTurnStop, type GapClock, type HeadwaySums, type PaceProfile, type ProgressFix, type TripPassings } from './passing';

export type { DelayChange };

export interface DayTrip extends EstimateTrip {
  tripId: number;
  busId: number | null;
  /** When the recorder last saw it on /trips/active: the end of a trip whose arrival is not known. */
  lastSeenAt: EpochMs | null;
  /** As the feed lists it: `short_turn` ends before the direction's last stop (which stop, the feed does not say). */
  tripType?: string | null;
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
  /** Each trip's delay changes in time order (none recorded: the trip is passed by its fixes and the profile alone). */
  delaysByTrip?: ReadonlyMap<number, readonly DelayChange[]>;
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

/**
 * Each fix's progress along the path, as lib/estimate snaps it (the fix an estimate stands on); the recorded
 * departure at the path's start and the arrival at `endM` (the path's end; null: where the trip ended is not known).
 */
export function progressFixes(path: Parameters<typeof estimatePosition>[0]['path'], trip: DayTrip, fixes: readonly DayFix[], endM: number | null = path?.line.lengthM ?? null): ProgressFix[] {
  const out: ProgressFix[] = [];
  if (!path) return out;
  if (trip.actualDepartureAt !== null) out.push({ at: trip.actualDepartureAt, m: 0 });
  for (const f of fixes) {
    const e = estimatePosition({ path, trip: tripAt(trip, f.at), fixes: [{ ...f, gpsAt: f.at }], now: f.at });
    if (!e) continue;
    if (e.basis === 'gps-estimate' && e.motion) out.push({ at: e.motion.fromAt, m: e.motion.fromM });
    else if (e.basis === 'fix' && e.progressM !== null) out.push({ at: f.at, m: e.progressM });
  }
  if (trip.actualArrivalAt !== null && endM !== null) out.push({ at: trip.actualArrivalAt, m: endM });
  return plausible(out.sort((a, b) => a.at - b.at));
}

/** Faster than any bus in town (lib/estimate's bound): a fix that says so was snapped to another leg of the route. */
const MAX_SPEED_MPS = 25;
/** A bus does not go back along its route further than a fix's noise. */
const MAX_BACK_M = 300;

/**
 * The placed fixes a bus could have made in order: the longest chain in which each fix is reachable from the one
 * before (no faster than MAX_SPEED_MPS) and no more than MAX_BACK_M behind the furthest the chain had reached (not
 * only the fix before: a street run both ways, out and back, snaps the way back onto the way out a little further
 * back at each fix). A loop or a street run both ways can snap a fix to the wrong leg; interpolating across it would
 * invent the passings of every stop in between, and dropping only what disagrees with the first fix would lose the
 * whole trip when that first one is the wrong one.
 */
function plausible(fixes: readonly ProgressFix[]): ProgressFix[] {
  const n = fixes.length;
  if (n < 2) return [...fixes];
  const length = new Array<number>(n).fill(1);
  const prev = new Array<number>(n).fill(-1);
  const furthest = fixes.map((f) => f.m);
  const reachable = (j: number, b: ProgressFix) => {
    const a = fixes[j]!;
    return b.m >= furthest[j]! - MAX_BACK_M && (b.m <= a.m || (b.m - a.m) / Math.max(1, (b.at - a.at) / 1000) <= MAX_SPEED_MPS);
  };
  let best = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (length[j]! + 1 > length[i]! && reachable(j, fixes[i]!)) {
        length[i] = length[j]! + 1;
        prev[i] = j;
        furthest[i] = Math.max(furthest[j]!, fixes[i]!.m);
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

/** One direction's passing times over the day: its stops' metres along the path, and each trip's passings. */
export interface DirectionPassings {
  stopsM: readonly number[];
  passings: TripPassings[];
}

/**
 * Every trip's passing times, per direction: first where the fixes tell them (passingTimes), then, with the pace
 * profile those passings make, across the longer gaps too (between fixes, or between the recorded departure and
 * arrival of a trip whose bus sent none).
 */
export function routeDayPassings(input: Pick<RouteDayInput, 'stops' | 'trips' | 'fixesByTrip' | 'delaysByTrip'>): Map<string, DirectionPassings> {
  type Placed = { trip: DayTrip; path: RoutePath; placed: ProgressFix[] };
  const byDirection = new Map<string, DirectionPassings & { cum: Float64Array; placed: Placed[] }>();
  for (const trip of input.trips) {
    const tp = input.stops ? pathForTrip(input.stops, trip.direction) : null;
    if (!tp?.ok) continue;
    const direction = directionName(trip.direction);
    // The path's vertex k is its k-th placed stop (lib/estimate/path.ts): its metres along are the stops'.
    const cum = tp.path.line.cum;
    let d = byDirection.get(direction);
    if (!d) byDirection.set(direction, (d = { cum, stopsM: Array.from(cum), passings: [], placed: [] }));
    if (d.cum !== cum) continue;
    // A short-turned trip's arrival is not at the path's end: placed once the profile says where (below).
    const placed = progressFixes(tp.path, trip, input.fixesByTrip.get(trip.tripId) ?? [], trip.tripType === SHORT_TURN ? null : tp.path.line.lengthM);
    d.placed.push({ trip, path: tp.path, placed });
    d.passings.push({ tripId: trip.tripId, actual: passingTimes(d.stopsM, placed), planned: plannedPassings(d.stopsM, trip.plannedDepartureAt, trip.plannedArrivalAt) });
  }
  const out = new Map<string, DirectionPassings>();
  for (const [direction, d] of byDirection) {
    const profile = paceProfile(d.stopsM, d.passings.map((p) => p.actual));
    const whole = d.placed.filter((p) => p.trip.tripType !== SHORT_TURN).map((p) => p.trip);
    const passings = d.passings.map((p, i) => {
      const { trip, path, placed } = d.placed[i]!;
      let fixes = placed;
      let endM: number | null = path.line.lengthM;
      if (trip.tripType === SHORT_TURN) {
        // It arrived at the stop its planned time reaches on the profile, not before where its fixes had it.
        const share = plannedShare(trip, whole);
        const k = share === null ? null : shortTurnStop(d.stopsM, profile, share, placed.reduce((m, f) => Math.max(m, f.m), 0) - MAX_BACK_M);
        endM = k === null ? null : d.stopsM[k]!;
        if (endM !== null) fixes = progressFixes(path, trip, input.fixesByTrip.get(trip.tripId) ?? [], endM);
      }
      const clock = endM === null ? null : tripClock(trip, input.delaysByTrip?.get(trip.tripId), d.stopsM, profile, endM);
      return { ...p, actual: passingTimes(d.stopsM, fixes, clock ?? profile) };
    });
    out.set(direction, { stopsM: d.stopsM, passings });
  }
  return out;
}

/**
 * The trip's own clock along the path (delay-clock.ts): its planned time at each point (planned departure to arrival,
 * shared out as the pace profile's time to `endM`, where the trip ends) shifted by its delay as recorded, the last
 * value holding until its arrival (or its last listing); null without a delay recorded or a planned time.
 */
function tripClock(trip: DayTrip, changes: readonly DelayChange[] | undefined, stopsM: readonly number[], profile: PaceProfile, endM: number): GapClock | null {
  const clock = changes ? delayClock(changes, trip.actualArrivalAt ?? trip.lastSeenAt) : null;
  const from = trip.plannedDepartureAt;
  const to = trip.plannedArrivalAt;
  const total = profileAt(stopsM, profile, endM);
  if (!clock || from === null || to === null || !(to > from) || !(total > 0)) return null;
  return (m) => clock(from + (Math.min(profileAt(stopsM, profile, m), total) / total) * (to - from));
}

const SHORT_TURN = 'short_turn';
/** Whole trips of the direction whose planned time a short-turned trip's is compared with: the nearest in time. */
const NEAREST_WHOLE = 5;

/** A short-turned trip's planned time over a whole trip's (the median of the nearest whole trips'), or null. */
function plannedShare(trip: DayTrip, whole: readonly DayTrip[]): number | null {
  const at = trip.plannedDepartureAt;
  if (at === null || trip.plannedArrivalAt === null || !(trip.plannedArrivalAt > at)) return null;
  const near = whole
    .filter((w) => w.plannedDepartureAt !== null && w.plannedArrivalAt !== null && w.plannedArrivalAt > w.plannedDepartureAt)
    .sort((a, b) => Math.abs(a.plannedDepartureAt! - at) - Math.abs(b.plannedDepartureAt! - at))
    .slice(0, NEAREST_WHOLE)
    .map((w) => w.plannedArrivalAt! - w.plannedDepartureAt!)
    .sort((a, b) => a - b);
  if (near.length === 0) return null;
  return (trip.plannedArrivalAt - at) / near[near.length >> 1]!;
}

/** The stored rows of one route's service day: per direction and local hour, rows with nothing in them left out. */
export function deriveRouteDay(input: RouteDayInput): RegularityRow[] {
  return deriveRouteDaySince(input, { from: Number.NEGATIVE_INFINITY, until: Number.POSITIVE_INFINITY, ghostsDone: NONE_DONE }).settled;
}

const NONE_DONE: ReadonlySet<number> = new Set();

/**
 * Where a running day's derivation stands (lib/history/regularity.ts): what happened before `from` was counted by
 * an earlier derivation; what happens from `from` to `until` is counted now for good; what happens after `until` is
 * counted so far and again next time.
 */
export interface DeriveWindow {
  from: EpochMs;
  until: EpochMs;
  /** Trips whose ghost minutes were counted for good before. */
  ghostsDone: ReadonlySet<number>;
}

export interface WindowRows {
  /** Samples from `from` to `until`, and the ghost minutes of trips over by `until` not counted before. */
  settled: RegularityRow[];
  /** Samples after `until`, and the ghost minutes so far of trips not over by then. */
  open: RegularityRow[];
  /** The trips whose ghost minutes `settled` holds. */
  ghostsSettled: number[];
}

/**
 * deriveRouteDay over a window of the day: each headway sample counts by the time of its later passing, each trip's
 * ghost minutes once the trip is over (by its end as endOf tells). The trips given must hold every trip with a
 * passing in the window and the trips just before them (the caller's context); samples before `from` are left out.
 */
export function deriveRouteDaySince(input: RouteDayInput, window: DeriveWindow): WindowRows {
  const parts = [new Map<string, RegularityRow>(), new Map<string, RegularityRow>()] as const;
  const row = (part: 0 | 1, direction: string, hour: number): RegularityRow => {
    const key = `${direction}\u0000${hour}`;
    let r = parts[part].get(key);
    if (!r) parts[part].set(key, (r = { routeId: input.routeId, direction, hour, ...NO_SUMS, ghostMinutes: 0 }));
    return r;
  };
  const ghostsSettled: number[] = [];
  for (const trip of input.trips) {
    if (window.ghostsDone.has(trip.tripId)) continue;
    const ghost = tripGhostMinutes(trip, input.fixesByTrip.get(trip.tripId) ?? [], input.locations, input.config.ghostAfterS, input.now);
    const departed = tripDepartedAt(trip);
    const end = endOf(trip);
    const part = end !== null && end < window.until ? 0 : 1;
    if (part === 0) ghostsSettled.push(trip.tripId);
    if (ghost > 0 && departed !== null) row(part, directionName(trip.direction), input.hourOf(departed)).ghostMinutes += ghost;
  }
  for (const [direction, d] of routeDayPassings(input)) {
    const byHour = [new Map<number, RegularityRow>(), new Map<number, RegularityRow>()] as const;
    eachHeadway(d.passings, d.stopsM.length, input.config, (_stop, at, headwayS, scheduledS, cls) => {
      if (at < window.from) return;
      const part = at < window.until ? 0 : 1;
      const h = input.hourOf(at);
      let r = byHour[part].get(h);
      if (!r) byHour[part].set(h, (r = row(part, direction, h)));
      addSample(r, headwayS, scheduledS, cls);
    });
  }
  const sorted = (m: Map<string, RegularityRow>) => [...m.values()].sort((a, b) => (a.direction < b.direction ? -1 : a.direction > b.direction ? 1 : a.hour - b.hour));
  return { settled: sorted(parts[0]), open: sorted(parts[1]), ghostsSettled };
}
