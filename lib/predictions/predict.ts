// Arrival predictions for the remaining stops of one trip. Pure: the server's service, the benchmark's replay and
// the tests call the same function. Where the bus is comes from lib/estimate (routeProgress: the map's one truth
// of place); this module only turns metres along the path into times.
//
// The model. The upstream has no stop-level schedule, so a trip's plan is spread over its path: a cruise speed
// over the distance plus a dwell allowance at each intermediate stop, both fitted so that the trip takes exactly
// its planned duration (planned arrival − planned departure). A bus at `m` metres reaches stop i after the planned
// time from `m` to stop i: the delay it runs with now is carried forward. Before departure the trip leaves at its
// planned departure (or now, when that has passed); with no position (no GPS, no fix for 15 minutes, off the
// route) the planned times are moved by the trip's current delay_minutes. A pace profile learnt from earlier days
// (the share of the trip's time spent up to each stop) can replace the flat plan.
import { estimatePosition, pathForTrip, type EstimateTrip, type RecentFix, type RoutePath } from '@/lib/estimate';
import type { EpochMs, RouteStop } from '@/lib/model';
import type { PredictionBasis, ScheduleReason } from '@/lib/model/predictions';

/** What the predictor reads of a trip (Trip and the live feed's VehicleTrip have it); the id spreads schedule refreshes. */
export type PredictTrip = EstimateTrip & { tripId?: number };

/**
 * The share of a trip's planned duration spent before reaching each stop of its direction (index = placed stop,
 * first 0, last 1), as recorded on earlier days for the same route, direction and hour. Null: the flat plan.
 */
export type PaceProfile = readonly number[];

/** How the delay is carried forward (see DEFAULT_PACE). */
export interface PaceTuning {
  /** Delay gained per planned second ahead, before anything is known of the trip (buses tend to lose time). */
  priorDrift: number;
  /** Weight of the trip's own drift so far (delay gained since departure ÷ planned time run) against the prior. */
  ownWeight: number;
}

export interface PredictInput {
  trip: PredictTrip;
  /** The route's stops, all directions, as /routes/{id}/stops lists them. */
  routeStops: readonly RouteStop[];
  /** The bus's recent fixes (none for a Standard-plan key or a bus without GPS). */
  fixes: readonly RecentFix[];
  now: EpochMs;
  profile?: PaceProfile | null;
  pace?: PaceTuning;
}

export interface PredictedStop {
  stop: RouteStop & { latitude: number; longitude: number };
  alongM: number;
  arrivalAt: EpochMs;
  earliestAt: EpochMs;
  latestAt: EpochMs;
  plannedAt: EpochMs | null;
}

export type TripPrediction =
  | {
      ok: true;
      basis: PredictionBasis;
      scheduleReason: ScheduleReason | null;
      stops: PredictedStop[];
      headsign: string | null;
      /**
       * The instant the predictions are made from (see madeAt below): the bus's last fix for `gps`, so that they
       * stay the same from one fix to the next, whatever the instant asked.
       */
      at: EpochMs;
      /** Predict again by then even without new data (a rule changes the basis: a fix turns stale …); null: never. */
      validUntil: EpochMs | null;
    }
  | { ok: false; reason: 'no-path' | 'no-schedule' };

// ---- tuning: the figures below come from the service-day replay of bench/predictions.ts ----

/** Seconds a bus is planned to stand at each intermediate stop (the simulator's dwells run 20–40 s). */
export const DWELL_ALLOWANCE_S = 25;

/**
 * The stated p10–p90 band around a prediction `h` seconds ahead: `base + perMinute · h/60` seconds before and
 * after. Lateness grows faster than earliness (a trip's delay tends to grow), so the late side is wider.
 */
export interface UncertaintyBand {
  earlyBaseS: number;
  earlyPerMinS: number;
  lateBaseS: number;
  latePerMinS: number;
}

// The horizon runs from the instant the predictions are made from (the bus's last fix, tens of seconds before they
// are read). Fitted on the replay's truth − prediction p10 and p90 by horizon (a line through the five bins' values),
// then narrowed by 8 %: a band that meets each bin's p10 and p90 exactly holds more than 80 % of the arrivals.
export const GPS_BAND: UncertaintyBand = { earlyBaseS: 54, earlyPerMinS: 7.3, lateBaseS: 28, latePerMinS: 8.8 };
/** With a pace profile learnt from earlier days the errors are about half as large. */
export const PROFILE_BAND: UncertaintyBand = { earlyBaseS: 31.5, earlyPerMinS: 3.5, lateBaseS: 1, latePerMinS: 4.1 };
export const SCHEDULE_BAND: UncertaintyBand = { earlyBaseS: 60, earlyPerMinS: 10, lateBaseS: 90, latePerMinS: 15 };

/**
 * In the replay a prior drift of 0.05 s per planned second beat 0, 0.03 and 0.08, and the trip's own drift so far
 * made things worse at every weight tried (0.25, 0.5, 0.75): a trip's delay changes by incidents that do not last.
 */
export const DEFAULT_PACE: PaceTuning = { priorDrift: 0.05, ownWeight: 0 };
/** A trip's own drift is read after this much of its plan has run (before, one late light dominates it). */
const MIN_RUN_FOR_DRIFT_S = 180;
const MIN_DRIFT = -0.3;
/**
 * Schedule predictions (no position) move with the clock alone: they are made again this often, each trip at its own
 * offset within the period (by trip id) so that a fleet on the schedule does not change all at once.
 */
export const SCHEDULE_REFRESH_MS = 60_000;
const MAX_DRIFT = 0.6;

export interface PlannedOffsets {
  /** Planned seconds from departure to the arrival at each placed stop. */
  atStopS: number[];
  /** Seconds planned at each intermediate stop after arriving (0 with a profile, whose shares include them). */
  dwellS: number;
}

/**
 * Planned seconds from departure to each placed stop: the profile when it fits the stops, otherwise cruise plus
 * a dwell allowance at every intermediate stop, together the planned duration.
 */
export function plannedOffsets(path: RoutePath, durationS: number, profile: PaceProfile | null | undefined): PlannedOffsets {
  const cum = path.line.cum;
  const n = cum.length;
  if (profile && profile.length === n) return { atStopS: profile.map((share) => share * durationS), dwellS: 0 };
  const dwells = Math.max(0, n - 2);
  // A plan too short for the allowance keeps at least half of it for driving.
  const dwellS = Math.min(DWELL_ALLOWANCE_S, (0.5 * durationS) / Math.max(1, dwells));
  const driveS = durationS - dwells * dwellS;
  // Arriving at stop i comes after the dwells at stops 1..i−1.
  return { atStopS: Array.from({ length: n }, (_, i) => (cum[i]! / path.line.lengthM) * driveS + Math.max(0, i - 1) * dwellS), dwellS };
}

/** Planned seconds from departure to `m` metres along (between stops: after the dwell at the stop behind). */
export function plannedOffsetAtM(path: RoutePath, plan: PlannedOffsets, m: number): number {
  const cum = path.line.cum;
  const at = plan.atStopS;
  const n = cum.length;
  if (m <= 0) return 0;
  if (m >= path.line.lengthM) return at[n - 1]!;
  let lo = 0;
  let hi = n - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cum[mid]! <= m) lo = mid;
    else hi = mid - 1;
  }
  const i = lo;
  const from = at[i]! + (i === 0 ? 0 : Math.min(plan.dwellS, at[i + 1]! - at[i]!));
  const segment = cum[i + 1]! - cum[i]!;
  const f = segment > 0 ? (m - cum[i]!) / segment : 1;
  return from + f * (at[i + 1]! - from);
}

function band(arrivalAt: number, now: number, b: UncertaintyBand): { earliestAt: number; latestAt: number } {
  const minutes = Math.max(0, arrivalAt - now) / 60_000;
  return {
    earliestAt: Math.max(now, arrivalAt - (b.earlyBaseS + b.earlyPerMinS * minutes) * 1000),
    latestAt: arrivalAt + (b.lateBaseS + b.latePerMinS * minutes) * 1000,
  };
}

/** Predicted arrivals at every stop the trip has still to reach. */
export function predictTrip({ trip, routeStops, fixes, now, profile, pace = DEFAULT_PACE }: PredictInput): TripPrediction {
  const tripPath = pathForTrip(routeStops, trip.direction);
  if (!tripPath.ok) return { ok: false, reason: 'no-path' };
  const path = tripPath.path;
  // The path's placed stops: stop i is vertex i (lib/estimate/path.ts).
  const stops = path.stops;
  if (trip.plannedDepartureAt === null || trip.plannedArrivalAt === null || !(trip.plannedArrivalAt > trip.plannedDepartureAt)) return { ok: false, reason: 'no-schedule' };
  const depAt = trip.plannedDepartureAt;
  const durationS = (trip.plannedArrivalAt - depAt) / 1000;
  const plan = plannedOffsets(path, durationS, profile);
  const headsign = stops[stops.length - 1]?.stopName ?? null;
  const delayMs = trip.delayMinutes !== null && Number.isFinite(trip.delayMinutes) ? trip.delayMinutes * 60_000 : 0;
  const estimate = estimatePosition({ path, trip, fixes, now });
  if (trip.actualArrivalAt !== null) return { ok: true, basis: 'gps', scheduleReason: null, stops: [], headsign, at: now, validUntil: null };

  // Which rule applies is read at `now` (a fix 15 minutes old is stale now); the predictions are then made from
  // `madeAt`, the instant the facts they rest on were known: the bus's last fix (its place snapped at that fix,
  // not advanced to now), so that they stay the same, to the byte, until the bus reports again or a rule changes.
  let madeAt = now;
  let validUntil: number | null = estimate?.validUntil ?? null;

  let basis: PredictionBasis;
  let scheduleReason: ScheduleReason | null = null;
  /** The instant the bus is (or is planned to be) at `fromM`, and the planned offset there. */
  let anchorAt: number;
  let fromM: number;
  /** Delay gained per planned second ahead of the bus. */
  let drift = pace.priorDrift;
  const reason = estimate?.reason;
  if (estimate && estimate.basis !== 'schedule-estimate' && estimate.progressM !== null) {
    basis = 'gps';
    // Where the bus was at its fix: the advance from there is the plan's, not the estimate's (which moves with now).
    const m = estimate.motion;
    // Never after `now`: a fix stamped ahead of the server's clock is taken as of now (the GTFS-RT header's time is
    // the newest of the feed).
    madeAt = Math.min(now, m ? m.fromAt : (estimate.fix?.gpsAt ?? now));
    fromM = m ? m.fromM : estimate.progressM;
    const ranS = plannedOffsetAtM(path, plan, fromM);
    anchorAt = madeAt - ranS * 1000;
    // The trip's own drift: the delay it runs with now against the delay it left with, over the plan it has run.
    if (trip.actualDepartureAt !== null && ranS >= MIN_RUN_FOR_DRIFT_S) {
      const gainedS = (anchorAt - trip.actualDepartureAt) / 1000;
      const own = Math.min(MAX_DRIFT, Math.max(MIN_DRIFT, gainedS / ranS));
      drift = pace.ownWeight * own + (1 - pace.ownWeight) * pace.priorDrift;
    }
  } else if (reason === 'not-departed') {
    // At the terminal before departure: it leaves at its planned departure, or now if that has passed.
    // Until then, from the bus's last fix there; once the departure has passed, from now (each instant anew).
    basis = 'planned-departure';
    fromM = 0;
    const fixAt = estimate?.fix?.gpsAt;
    if (now < depAt && fixAt !== undefined && fixAt <= now) {
      madeAt = fixAt;
      validUntil = Math.min(validUntil ?? depAt, depAt);
    } else validUntil = now;
    anchorAt = Math.max(madeAt, depAt);
  } else {
    basis = 'schedule';
    scheduleReason = reason === 'stale-fix' ? 'stale-fix' : reason === 'fix-before-trip' ? 'fix-before-trip' : fixes.length === 0 ? 'no-gps' : 'off-route';
    // Made at the start of the trip's current refresh period (SCHEDULE_REFRESH_MS), again at the next.
    const offset = ((((trip.tripId ?? 0) * 7919) % SCHEDULE_REFRESH_MS) + SCHEDULE_REFRESH_MS) % SCHEDULE_REFRESH_MS;
    madeAt = Math.floor((now - offset) / SCHEDULE_REFRESH_MS) * SCHEDULE_REFRESH_MS + offset;
    validUntil = Math.min(validUntil ?? Infinity, madeAt + SCHEDULE_REFRESH_MS);
    anchorAt = depAt + delayMs;
    fromM = Math.max(0, Math.min(path.line.lengthM, (path.line.lengthM * (madeAt - anchorAt)) / (durationS * 1000)));
  }

  const profiled = !!profile && profile.length === path.line.cum.length;
  const bandOf = basis === 'schedule' ? SCHEDULE_BAND : profiled ? PROFILE_BAND : GPS_BAND;
  const out: PredictedStop[] = [];
  const cum = path.line.cum;
  let previous = -Infinity;
  for (let i = 0; i < stops.length; i++) {
    const alongM = cum[i]!;
    // The stop the bus stands at is behind it once it has left; before departure the first stop is its departure.
    if (basis === 'planned-departure' ? alongM < fromM : alongM <= fromM + 1) continue;
    const aheadS = Math.max(0, plan.atStopS[i]! - plannedOffsetAtM(path, plan, fromM));
    let arrivalAt = Math.round(anchorAt + (plan.atStopS[i]! + drift * aheadS) * 1000);
    if (arrivalAt < madeAt) arrivalAt = madeAt;
    // Strictly increasing times, a second apart at least (two stops at one place).
    if (arrivalAt <= previous) arrivalAt = previous + 1000;
    previous = arrivalAt;
    out.push({ stop: stops[i]!, alongM, arrivalAt, ...band(arrivalAt, madeAt, bandOf), plannedAt: Math.round(depAt + (alongM / path.line.lengthM) * durationS * 1000) });
  }
  return { ok: true, basis, scheduleReason, stops: out, headsign, at: madeAt, validUntil: validUntil === Infinity ? null : validUntil };
}
