// Where a bus is now, from its last fix advanced along its route or, with no usable fix, from its trip's
// schedule. Pure: the browser, the benchmarks and the tests call the same function. An estimate is a function of
// time: a position along the route at an anchor time and a speed up to a bound, so a map layer can place the bus
// at any later instant (estimateAt) without estimating again until new data or `validUntil`.
// One file past 400 lines: the estimator's rules sit beside the constants the replay chose for them (each with the
// figures that chose it), and the motion they produce beside the functions that read it (positionM, estimateAt).
import { pointAlong, projectOnto, type Polyline, type Projection } from '@/lib/geo/polyline';
import type { EpochMs, Trip } from '@/lib/model';
import type { RoutePath } from './path';

export type EstimateBasis = 'gps-estimate' | 'schedule-estimate' | 'fix';

export type EstimateReason =
  /** gps-estimate: the last fix, snapped to the route and advanced. */
  | 'advanced'
  /** schedule-estimate: no fix at all (Standard plan, no GPS on the bus). */
  | 'no-fix'
  /** The last fix is older than the tuning's staleFixS (the GPS has stopped reporting): the schedule places the bus. */
  | 'stale-fix'
  /** The last fix predates the trip's departure and says nothing of its progress: the schedule places the bus. */
  | 'fix-before-trip'
  /** fix: no path for the trip's direction (see direction.ts), or no trip. */
  | 'no-route'
  /** fix: farther from the route than GPS and the stop-to-stop line explain (detour, depot). */
  | 'off-route'
  /** fix: the trip has not left its first stop (no actual departure yet): a bus held at the terminal. */
  | 'not-departed'
  /** fix: the trip has arrived. */
  | 'arrived'
  /** fix: the bus did not move between its last fixes. */
  | 'stopped'
  /** fix: neither the bus's motion nor the trip's pace is known (a stale or earlier fix of a trip with no schedule also stays). */
  | 'no-speed';

/** What the estimator reads of a trip (Trip and the live feed's VehicleTrip both have it). */
export type EstimateTrip = Pick<Trip, 'direction' | 'plannedDepartureAt' | 'plannedArrivalAt' | 'actualDepartureAt' | 'actualArrivalAt' | 'delayMinutes'>;

/** One fix as the app holds it (a live Vehicle has these fields). */
export interface RecentFix {
  lat: number | null;
  lon: number | null;
  /** GPS time of the fix, epoch ms on the same clock as `now`. */
  gpsAt: EpochMs | null;
  speedKmh: number | null;
  heading: number | null;
  accuracy: number | null;
}

/**
 * Distinct fixes (by GPS time) a caller keeps per bus: the estimator reads the last one and the newest one at least
 * 5 s older on the same trip, for the bus's travel speed; a third covers one that came too soon after.
 */
export const RECENT_FIXES_NEEDED = 3;

export interface EstimateInput {
  /** The path of the trip's direction (pathForTrip), or null when it cannot be told. */
  path: RoutePath | null;
  trip: EstimateTrip | null;
  /** The bus's recent fixes, any order; the last RECENT_FIXES_NEEDED distinct ones are enough. */
  fixes: readonly RecentFix[];
  now: EpochMs;
}

/** s(t) = min(toM, fromM + speedMps · (t − fromAt)) along `line`, for t ≥ fromAt. */
export interface EstimateMotion {
  line: Polyline;
  fromM: number;
  fromAt: EpochMs;
  speedMps: number;
  /** Never beyond: the trip's terminal, or where the horizon ends the advance. */
  toM: number;
}

/**
 * How far from the estimate the bus may be, as a function of time: the radius holds the true position in about 9
 * samples of 10 in the replay (bench/estimation.ts prints the share for each basis).
 *  - growing: baseM + growthMps · (t − fromAt), for a fix and for an estimate advanced from one;
 *  - schedule: SCHEDULE_RADIUS_M · √(minutes to the nearer end of the trip + ½): pinned at both ends by the
 *    departure and the arrival, most uncertain mid-trip, growing like a random walk of the pace.
 */
export type EstimateRadius = { kind: 'growing'; baseM: number; growthMps: number; fromAt: EpochMs } | { kind: 'schedule'; startAt: EpochMs; endAt: EpochMs };

export interface Estimate {
  basis: EstimateBasis;
  reason: EstimateReason;
  /** The instant the position below is for (the input's `now`). */
  at: EpochMs;
  lon: number;
  lat: number;
  /** Heading along the route, or the fix's own; null when unknown. */
  heading: number | null;
  radiusM: number;
  /**
   * Route-snapped progress: metres along the trip's path (RoutePath.line) at `at`; null when the bus is not placed
   * on its path (no path, off the route, not departed yet, arrived). The ladder, the headways and everything else
   * that asks "how far along" reads this (or progressAt), never a projection of its own.
   */
  progressM: number | null;
  /** The fix the estimate starts from (or is): the map joins it to the estimate when selected. */
  fix: { lon: number; lat: number; gpsAt: EpochMs } | null;
  /** Null when the estimate does not move (a fix). */
  motion: EstimateMotion | null;
  radius: EstimateRadius;
  /** Estimate again by then even without new data: the basis changes (a fix turns stale). Null: no such instant. */
  validUntil: EpochMs | null;
}

// ---- tuning: the figures below come from the service-day replay of bench/estimation.ts ----

export interface EstimateTuning {
  /** The advance stops this long after the fix: the estimate no longer improves on the fix beyond it. */
  horizonS: number;
  /** A fix older than this is a GPS that stopped reporting: the schedule places the bus better. */
  staleFixS: number;
}

/**
 * The horizon was found by the replay, which scores the GPS-based estimate with the advance stopped 0, 30, 60, 90,
 * 120, 180, 300, 600, 900 and 1800 s after the fix: over the service day the mean error falls from 168 m (the
 * snapped fix) to 48 m at 300 s and 47 m at 600 s, flat beyond; 600 s is the shortest within 1 % of the best. A bus
 * held at a light or a stop is not what limits the advance: the pace it advances at (its travel speed over the last
 * fixes and the trip's average) already counts the time buses stand. Stale fixes: up to 900 s an advanced fix beats
 * the schedule (155 m against 251 m mean at 600–900 s); no fix on a running trip grew older than that in the replay.
 */
export const DEFAULT_TUNING: EstimateTuning = { horizonS: 600, staleFixS: 900 };

/**
 * How far from the stop-to-stop line a bus on its route can be: GPS accuracy, this margin, and half the length of
 * the segment it is beside (a street path with one turn between two stops keeps within half their distance of the
 * straight line). Farther is a detour or a depot. In the replay, 0.1 % of on-trip fixes lie farther: the loops
 * some routes run around a block before their last stop.
 */
const OFF_ROUTE_MARGIN_M = 50;
/** Between two fixes, shorter intervals are GPS noise and longer ones say little about now. */
const MIN_INTERVAL_MS = 5_000;
const MAX_INTERVAL_MS = 5 * 60_000;
/** Weight of the bus's own travel speed against its trip's planned pace (0.5 beat 0, 0.25, 0.75 and 1 in the replay). */
const TRAVEL_WEIGHT = 0.5;
/** Faster than any bus in town: a larger figure is a GPS jump. */
const MAX_SPEED_MPS = 25;
/** How much slack the cap on the advance leaves above the fastest speed observed (a speed of 0 is a dwell, not a limit). */
const SPEED_CAP_FACTOR = 1.25;
/**
 * A bus that went less than STOPPED_M over at least STOPPED_MIN_MS has stopped for longer than a dwell or a light
 * (in the replay, holding such a bus at its fix beat advancing it; over shorter baselines advancing won).
 */
const STOPPED_M = 15;
const STOPPED_MIN_MS = 60_000;
/** GPS accuracy when a fix gives none. */
const DEFAULT_ACCURACY_M = 10;
/** Radius: growth per metre an estimate advanced; per second for a fix held where it is (buses average ~4 m/s). */
const RADIUS_PER_ADVANCED_M = 0.5;
const HELD_FIX_GROWTH_MPS = 4;
const SCHEDULE_RADIUS_M = 150;
const MAX_RADIUS_M = 2_000;

const KMH = 1 / 3.6;

interface Usable {
  lat: number;
  lon: number;
  gpsAt: number;
  speedKmh: number | null;
  heading: number | null;
  accuracy: number | null;
}

function usable(f: RecentFix): f is Usable {
  return f.lat !== null && f.lon !== null && f.gpsAt !== null && Number.isFinite(f.lat) && Number.isFinite(f.lon) && Number.isFinite(f.gpsAt);
}

/** Distinct fixes by GPS time, oldest first (a repeated GPS time is the same fix fetched again). */
function distinctFixes(fixes: readonly RecentFix[]): Usable[] {
  const out: Usable[] = [];
  for (const f of fixes) if (usable(f)) out.push(f);
  if (out.length < 2) return out;
  // A stable sort keeps the fixes of one time in the order given: the last of them is the one kept.
  out.sort((a, b) => a.gpsAt - b.gpsAt);
  let k = 0;
  for (let i = 0; i < out.length; i++) if (i + 1 === out.length || out[i + 1]!.gpsAt !== out[i]!.gpsAt) out[k++] = out[i]!;
  out.length = k;
  return out;
}

interface Schedule {
  /** When the bus is at the first stop on the way out (planned departure moved by the delay). */
  startAt: number;
  durationMs: number;
  departed: boolean;
  arrived: boolean;
}

/**
 * A trip with no actual departure counts as gone this long after its planned departure moved by its delay: an
 * upstream that never fills actual_departure_at still gets estimates, while a bus held at its terminal does not
 * (its delay grows with the wait, so the planned departure plus delay stays within the last minute or so).
 */
const DEPARTURE_GRACE_MS = 2 * 60_000;

/**
 * The trip's timing at `now`. The current delay is the better anchor than the actual departure: it follows the
 * drift and incidents of the trip so far (the upstream refreshes it), where the departure only knows its start.
 * In the replay it halves the schedule-only error (mean 317 m against 459 m from the actual departure).
 */
function scheduleOf(trip: EstimateTrip | null, now: number): Schedule | null {
  if (!trip || trip.plannedDepartureAt === null || trip.plannedArrivalAt === null) return null;
  const durationMs = trip.plannedArrivalAt - trip.plannedDepartureAt;
  if (!(durationMs > 0)) return null;
  const delayMs = trip.delayMinutes !== null && Number.isFinite(trip.delayMinutes) ? trip.delayMinutes * 60_000 : null;
  const startAt = delayMs !== null ? trip.plannedDepartureAt + delayMs : (trip.actualDepartureAt ?? trip.plannedDepartureAt);
  const departed = trip.actualDepartureAt !== null || now - startAt > DEPARTURE_GRACE_MS;
  return { startAt, durationMs, departed, arrived: trip.actualArrivalAt !== null };
}

/**
 * Where the timetable alone puts a trip at `t`: at its first stop until its planned departure, then along the path
 * at the planned pace (linear in distance) until its planned arrival; no delay, no fix. Null without both planned
 * times in order. What the schedule's estimate gives a trip that left on time (the ladder's scheduled place).
 */
export function plannedProgressM(lengthM: number, plannedDepartureAt: EpochMs | null, plannedArrivalAt: EpochMs | null, t: EpochMs): number | null {
  if (plannedDepartureAt !== null && t < plannedDepartureAt) return 0;
  if (plannedDepartureAt === null || plannedArrivalAt === null || !(plannedArrivalAt > plannedDepartureAt)) return null;
  return lengthM * Math.min(1, (t - plannedDepartureAt) / (plannedArrivalAt - plannedDepartureAt));
}

/** Metres along the path the schedule puts the bus at `t`. */
function scheduledM(path: RoutePath, s: Schedule, t: number): number {
  if (s.arrived) return path.line.lengthM;
  if (!s.departed) return 0;
  return path.line.lengthM * Math.min(1, Math.max(0, (t - s.startAt) / s.durationMs));
}

function radiusAtTime(r: EstimateRadius, t: number): number {
  if (r.kind === 'growing') return Math.min(MAX_RADIUS_M, r.baseM + (r.growthMps * Math.max(0, t - r.fromAt)) / 1000);
  const minutes = Math.max(0, Math.min(t - r.startAt, r.endAt - t)) / 60_000;
  return Math.min(MAX_RADIUS_M, SCHEDULE_RADIUS_M * Math.sqrt(minutes + 0.5));
}

function asFix(f: Usable, reason: EstimateReason, now: number, validUntil: EpochMs | null = null, progressM: number | null = null): Estimate {
  const radius: EstimateRadius = { kind: 'growing', baseM: f.accuracy ?? DEFAULT_ACCURACY_M, growthMps: HELD_FIX_GROWTH_MPS, fromAt: f.gpsAt };
  return {
    basis: 'fix',
    reason,
    at: now,
    lon: f.lon,
    lat: f.lat,
    heading: f.heading,
    radiusM: radiusAtTime(radius, now),
    progressM,
    fix: { lon: f.lon, lat: f.lat, gpsAt: f.gpsAt },
    motion: null,
    radius,
    validUntil,
  };
}

function fromSchedule(path: RoutePath, s: Schedule, reason: EstimateReason, now: number, fix: Usable | null): Estimate {
  const line = path.line;
  const motion: EstimateMotion | null =
    s.departed && !s.arrived ? { line, fromM: 0, fromAt: s.startAt, speedMps: line.lengthM / (s.durationMs / 1000), toM: line.lengthM } : null;
  const m = motion ? positionM(motion, now) : scheduledM(path, s, now);
  const p = pointAlong(line, m);
  const radius: EstimateRadius = { kind: 'schedule', startAt: s.startAt, endAt: s.startAt + s.durationMs };
  return {
    basis: 'schedule-estimate',
    reason,
    at: now,
    lon: p.lon,
    lat: p.lat,
    heading: p.heading,
    radiusM: radiusAtTime(radius, now),
    progressM: m,
    fix: fix ? { lon: fix.lon, lat: fix.lat, gpsAt: fix.gpsAt } : null,
    motion,
    radius,
    validUntil: s.departed || s.arrived ? null : s.startAt + DEPARTURE_GRACE_MS + 1,
  };
}

function positionM(m: EstimateMotion, t: number): number {
  return Math.min(m.toM, m.fromM + (m.speedMps * Math.max(0, t - m.fromAt)) / 1000);
}

/** Route-snapped progress at another instant `t` (metres along the trip's path), or null when not on it. */
export function progressAt(e: Pick<Estimate, 'motion' | 'progressM'>, t: EpochMs): number | null {
  return e.motion ? positionM(e.motion, t) : e.progressM;
}

/** The estimate placed at another instant `t` (a later animation frame): cheap, no estimating again. */
export function estimateAt(e: Estimate, t: EpochMs): { lon: number; lat: number; heading: number | null; radiusM: number } {
  const radiusM = radiusAtTime(e.radius, t);
  if (!e.motion) return { lon: e.lon, lat: e.lat, heading: e.heading, radiusM };
  const p = pointAlong(e.motion.line, positionM(e.motion, t));
  return { lon: p.lon, lat: p.lat, heading: p.heading, radiusM };
}

/**
 * Snaps a fix to the path. Near the schedule's place for the fix's time first (a loop passes its terminal twice,
 * a route may come back along the same street); anywhere on the path when that finds nothing close.
 */
function snap(line: Polyline, f: Usable, expectedM: number | null): Projection | null {
  if (expectedM !== null) {
    const half = Math.max(1_000, 0.35 * line.lengthM);
    const near = projectOnto(line, f.lon, f.lat, expectedM - half, expectedM + half);
    if (near && onRoute(line, f, near)) return near;
  }
  const anywhere = projectOnto(line, f.lon, f.lat);
  return anywhere && onRoute(line, f, anywhere) ? anywhere : null;
}

function onRoute(line: Polyline, f: Usable, p: Projection): boolean {
  const segmentM = line.cum[p.segment + 1]! - line.cum[p.segment]!;
  return p.offM <= OFF_ROUTE_MARGIN_M + (f.accuracy ?? DEFAULT_ACCURACY_M) + segmentM / 2;
}

/** The bus's travel speed along the path between the fix before and the last one (m/s), or null. */
function travelSpeed(line: Polyline, prev: Usable | undefined, last: Usable, lastM: number): number | null {
  if (!prev) return null;
  const dt = last.gpsAt - prev.gpsAt;
  if (dt < MIN_INTERVAL_MS || dt > MAX_INTERVAL_MS) return null;
  const reach = MAX_SPEED_MPS * (dt / 1000);
  const p = projectOnto(line, prev.lon, prev.lat, lastM - reach, lastM + OFF_ROUTE_MARGIN_M);
  if (!p || !onRoute(line, prev, p)) return null;
  const moved = lastM - p.alongM;
  if (moved < STOPPED_M) return 0;
  return Math.min(MAX_SPEED_MPS, moved / (dt / 1000));
}

/** Where the bus is at `now`: advanced from its last fix, from the schedule, or the fix itself; null when nothing places it. */
export function estimatePosition({ path, trip, fixes, now }: EstimateInput, tuning: EstimateTuning = DEFAULT_TUNING): Estimate | null {
  const distinct = distinctFixes(fixes);
  const last = distinct[distinct.length - 1] ?? null;
  const schedule = scheduleOf(trip, now);

  if (!last) return path && schedule ? fromSchedule(path, schedule, 'no-fix', now, null) : null;
  if (!path || !trip) return asFix(last, 'no-route', now);
  if (schedule?.arrived) return asFix(last, 'arrived', now);
  const departedAt = trip.actualDepartureAt ?? (schedule?.departed ? schedule.startAt : null);
  // A held trip turns to moving once the grace after its planned departure has passed (see DEPARTURE_GRACE_MS).
  if (departedAt === null) return asFix(last, 'not-departed', now, schedule ? schedule.startAt + DEPARTURE_GRACE_MS + 1 : null);
  if (last.gpsAt < departedAt) return schedule ? fromSchedule(path, schedule, 'fix-before-trip', now, last) : asFix(last, 'fix-before-trip', now);
  // From here on the estimate turns to the schedule when the fix grows stale.
  const staleAt = schedule ? last.gpsAt + tuning.staleFixS * 1000 : null;
  if (now - last.gpsAt > tuning.staleFixS * 1000) return schedule ? fromSchedule(path, schedule, 'stale-fix', now, last) : asFix(last, 'stale-fix', now);

  const line = path.line;
  const snapped = snap(line, last, schedule ? scheduledM(path, schedule, last.gpsAt) : null);
  if (!snapped) return asFix(last, 'off-route', now, staleAt);

  // Fixes of this trip before the last one, within the interval that tells a travel speed. The oldest gives the
  // longest baseline, which averages over stops and lights: two fixes 20 s apart in one dwell say nothing.
  const earlier = distinct.filter((f) => f !== last && f.gpsAt >= departedAt && last.gpsAt - f.gpsAt >= MIN_INTERVAL_MS && last.gpsAt - f.gpsAt <= MAX_INTERVAL_MS);
  const base = earlier[0];
  const travel = travelSpeed(line, base, last, snapped.alongM);
  const pace = schedule ? line.lengthM / (schedule.durationMs / 1000) : null;
  if (base && travel === 0 && (last.speedKmh ?? 0) === 0 && last.gpsAt - base.gpsAt >= STOPPED_MIN_MS) return asFix(last, 'stopped', now, staleAt, snapped.alongM);
  let speed = travel !== null && pace !== null ? TRAVEL_WEIGHT * travel + (1 - TRAVEL_WEIGHT) * pace : (travel ?? pace);
  if (speed === null) return asFix(last, 'no-speed', now, staleAt, snapped.alongM);
  // The fastest the bus was seen moving: the speeds its fixes report and its travel speed (0 when none moved).
  let fastest = travel !== null && travel > 0 ? travel : 0;
  for (let i = -1; i < earlier.length; i++) {
    const v = ((i < 0 ? last : earlier[i]!).speedKmh ?? 0) * KMH;
    if (Number.isFinite(v) && v > fastest) fastest = v;
  }
  if (fastest > 0) speed = Math.min(speed, SPEED_CAP_FACTOR * fastest);
  speed = Math.min(MAX_SPEED_MPS, speed);

  const motion: EstimateMotion = {
    line,
    fromM: snapped.alongM,
    fromAt: last.gpsAt,
    speedMps: speed,
    toM: Math.min(line.lengthM, snapped.alongM + speed * tuning.horizonS),
  };
  const m = positionM(motion, now);
  const p = pointAlong(line, m);
  const baseM = (last.accuracy ?? DEFAULT_ACCURACY_M) + snapped.offM;
  const radius: EstimateRadius = { kind: 'growing', baseM, growthMps: RADIUS_PER_ADVANCED_M * speed, fromAt: last.gpsAt };
  return {
    basis: 'gps-estimate',
    reason: 'advanced',
    at: now,
    lon: p.lon,
    lat: p.lat,
    heading: p.heading,
    radiusM: radiusAtTime(radius, now),
    progressM: m,
    fix: { lon: last.lon, lat: last.lat, gpsAt: last.gpsAt },
    motion,
    radius,
    validUntil: staleAt,
  };
}

/**
 * Until when the estimate moves in a straight line at a steady pace from `t`: the next stop of the path it
 * reaches (where its heading may turn), or where its advance ends. A map can move the bus on the GPU between
 * `t` and that instant by interpolating two points, exactly. Null when it does not move after `t`.
 */
export function straightUntil(e: Estimate, t: EpochMs): EpochMs | null {
  const m = e.motion;
  if (!m || !(m.speedMps > 0)) return null;
  const at = Math.max(t, m.fromAt);
  const s = positionM(m, at);
  if (s >= m.toM) return null;
  const cum = m.line.cum;
  // First vertex strictly ahead of s (a bus exactly on a vertex turns there, so the window runs to the next one).
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > s + 1e-6) hi = mid;
    else lo = mid + 1;
  }
  const end = Math.min(m.toM, cum[lo]!);
  if (!(end > s)) return null;
  return at + ((end - s) / m.speedMps) * 1000;
}

/**
 * Where a fix lies against its trip's path: metres along it, and metres beyond where the stop-to-stop line can put a
 * bus on its street (`offM` less half the segment beside it, the same allowance `onRoute` gives; never below 0).
 * The rules that ask "how far off its route" (lib/exceptions' off-route, stopped away from terminals) read this
 * instead of projecting on their own.
 */
export function routeProgress(path: RoutePath, lon: number, lat: number): { alongM: number; offM: number; beyondM: number } | null {
  const p = projectOnto(path.line, lon, lat);
  if (!p) return null;
  const segmentM = path.line.cum[p.segment + 1]! - path.line.cum[p.segment]!;
  return { alongM: p.alongM, offM: p.offM, beyondM: Math.max(0, p.offM - segmentM / 2) };
}
