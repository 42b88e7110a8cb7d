import 'server-only';
import { distanceM } from '@/lib/geo/sphere';

// Which bus gets the next location slot. One pass over the tracks per slot (O(B)), best of each tier:
//  1. watched buses (a viewer named them) not refreshed since the watch began or older than the watch
//     refresh; oldest first. At most every other slot, so a crowd of watchers cannot starve the fleet.
//  2. buses on an active trip never located yet: the map is missing them entirely.
//  3. buses without an active trip never located, or whose age reached their floor (FEED_PARKED_FLOOR_S,
//     minus a lead of a few slots so the queue drains before the floor is crossed); oldest first. At most
//     every other slot while buses on trips wait, so a large parked fleet at start-up cannot freeze them.
//  4. buses on an active trip, by expected position error. A bus's error grows as v·age, so its mean error is
//     v·T/2 when it is polled every T; for a fixed budget Σ1/T the fleet's mean error is smallest when each
//     bus is polled at a rate ∝ sqrt(v). Always picking the largest w·age² polls every bus when w·age² reaches
//     a common level, i.e. at a rate ∝ sqrt(w): so the weight is the speed, w = v. With equal speeds this is
//     oldest first, round robin. v is the bus's average speed over its last few fixes (stops and lights
//     included), not the GPS speed of one instant, which is 0 at every stop; it has a floor so stopped buses
//     on a trip are still seen. The last few fixes foretell the next minute only loosely (a bus held at a
//     light moves on, one on a clear avenue reaches traffic), so the weight is v plus half a typical bus
//     speed, which keeps the ages of a fleet of similar speeds close to round robin's while a mixed-speed fleet
//     keeps most of the √-rate gain (location-scheduler.test.ts simulates one). What it gains or costs on the
//     simulator's fleet is measured by the freshness benchmark (bench/freshness.ts, docs/performance.md).
//  5. only when no bus is on a trip (no trips scope, or a quiet hour): every other bus by the same score.

export interface BusTrack {
  busId: number;
  /** When we last fetched its location (epoch ms). */
  fetchedAt: number | null;
  gpsAt: number | null;
  lat: number | null;
  lon: number | null;
  heading: number | null;
  speedKmh: number | null;
  accuracy: number | null;
  /** Average speed over the last few intervals between fixes (km/h, smoothed); null until two fixes are seen. */
  travelSpeedKmh: number | null;
  lastError: { at: number; status: number | null; message: string } | null;
  /** Failed requests for this bus since its last good one. */
  failures: number;
  /** Not picked again before this (epoch ms) after a failure, so one broken bus cannot take every slot. */
  retryAt: number;
  onTrip: boolean;
  inFlight: boolean;
  /** When the current watch started and when it lapses (epoch ms); 0 when never watched. */
  watchedSince: number;
  watchedUntil: number;
  plateNumber: string | null;
  busName: string | null;
  internalCode: string | null;
}

export function newTrack(busId: number): BusTrack {
  return {
    busId,
    fetchedAt: null,
    gpsAt: null,
    lat: null,
    lon: null,
    heading: null,
    speedKmh: null,
    accuracy: null,
    travelSpeedKmh: null,
    lastError: null,
    failures: 0,
    retryAt: 0,
    onTrip: false,
    inFlight: false,
    watchedSince: 0,
    watchedUntil: 0,
    plateNumber: null,
    busName: null,
    internalCode: null,
  };
}

/** Stopped buses on a trip still count as slowly moving, so their score keeps growing with age. */
const SPEED_FLOOR_KMH = 3;
/** With no fix history and no reported speed, a bus is assumed to move like a city bus in service. */
const TYPICAL_SPEED_KMH = 20;
/** Added to every bus's expected speed in its weight: how much the scheduler trusts a bus's recent speed. */
const SPEED_PRIOR_KMH = TYPICAL_SPEED_KMH / 2;
/** Faster than any bus: a larger figure is a GPS jump, not travel. */
const MAX_SPEED_KMH = 100;
/** Weight of the newest interval in the average: about the last three intervals count. */
const SPEED_SMOOTHING = 0.4;
// Over a short interval GPS noise (a few metres each fix) would read as speed; over a long one the average says
// little about now (a parked bus that has since left on a trip).
const MIN_INTERVAL_MS = 5_000;
const MAX_INTERVAL_MS = 5 * 60_000;
/** A fix this much older than the fetch that brought it is a silent GPS (the upstream keeps its last fix), not a lag between reports. */
const STALE_FIX_MS = 90_000;

export interface Fix {
  gpsAt: number | null;
  lat: number | null;
  lon: number | null;
}

export interface LocationFix extends Fix {
  speedKmh: number | null;
  heading: number | null;
  accuracy: number | null;
}

/** The track takes a fetched fix: its travel speed first (it needs the previous position), then the fix. */
export function recordFix(t: BusTrack, fix: LocationFix, fetchedAt: number): void {
  noteTravel(t, fix);
  t.fetchedAt = fetchedAt;
  t.gpsAt = fix.gpsAt;
  t.lat = fix.lat;
  t.lon = fix.lon;
  t.heading = fix.heading;
  t.speedKmh = fix.speedKmh;
  t.accuracy = fix.accuracy;
}

/**
 * Folds a new fix into the bus's travel speed: distance between its previous and new position over the GPS
 * time between them, so it runs before the track takes the new fix. A fix with the same GPS time as the last one
 * (the GPS has not reported since) carries no new interval.
 */
function noteTravel(t: BusTrack, fix: Fix): void {
  if (fix.lat === null || fix.lon === null || fix.gpsAt === null || t.lat === null || t.lon === null || t.gpsAt === null) return;
  const dt = fix.gpsAt - t.gpsAt;
  if (dt < MIN_INTERVAL_MS) return;
  if (dt > MAX_INTERVAL_MS) {
    t.travelSpeedKmh = null;
    return;
  }
  const v = Math.min(MAX_SPEED_KMH, distanceM(t.lon, t.lat, fix.lon, fix.lat) / 1000 / (dt / 3_600_000));
  t.travelSpeedKmh = t.travelSpeedKmh === null ? v : t.travelSpeedKmh + SPEED_SMOOTHING * (v - t.travelSpeedKmh);
}

/** The speed the scheduler expects of the bus until its next fix, km/h. */
export function expectedSpeedKmh(t: BusTrack): number {
  // An answer without a position, or with a fix long stale, says the GPS is not reporting: asking again brings
  // nothing new until it does, so the bus waits like a stopped one rather than taking a moving bus's slots.
  if (t.fetchedAt !== null && (t.lat === null || (t.gpsAt !== null && t.fetchedAt - t.gpsAt > STALE_FIX_MS))) return SPEED_FLOOR_KMH;
  const v = t.travelSpeedKmh ?? (t.speedKmh !== null && Number.isFinite(t.speedKmh) && t.speedKmh >= 0 ? Math.min(MAX_SPEED_KMH, t.speedKmh) : TYPICAL_SPEED_KMH);
  return Math.max(SPEED_FLOOR_KMH, v);
}

/** The bus's weight w in w·age²: it is polled at a rate ∝ √w. */
export function schedulerWeightKmh(t: BusTrack): number {
  return expectedSpeedKmh(t) + SPEED_PRIOR_KMH;
}

/** A weight at this value is a bus whose expected speed sits at the floor (stopped, or a silent GPS). */
export const FLOOR_WEIGHT_KMH = SPEED_FLOOR_KMH + SPEED_PRIOR_KMH;

export function errorScore(t: BusTrack, now: number): number {
  if (t.fetchedAt === null) return Number.POSITIVE_INFINITY;
  const age = Math.max(0, now - t.fetchedAt) / 1000;
  return schedulerWeightKmh(t) * age * age;
}

export interface SchedulerTiming {
  parkedFloorMs: number;
  /** A watched bus is refreshed again once its fix is this old. */
  watchRefreshMs: number;
  /** Current spacing of the poller's slots; sets how early a parked bus is queued. */
  slotMs: number;
}

export class LocationScheduler {
  /** The last slot went to a watched bus: the next one goes to the fleet. The job picker keeps it true to every path. */
  lastWasWatched = false;
  private lastWasParked = false;

  pick(tracks: Iterable<BusTrack>, now: number, timing: SchedulerTiming): BusTrack | null {
    // The lead covers a list walk or a few watched buses taking the slots just before the floor.
    const parkedDueAt = timing.parkedFloorMs - Math.min(timing.parkedFloorMs / 4, 30 * timing.slotMs);
    let watched: BusTrack | null = null;
    let unseenOnTrip: BusTrack | null = null;
    let parked: BusTrack | null = null;
    let parkedAge = -1;
    let onTrip: BusTrack | null = null;
    let onTripScore = -1;
    let other: BusTrack | null = null;
    let otherScore = -1;

    for (const t of tracks) {
      if (t.inFlight || t.retryAt > now) continue;
      if (t.watchedUntil > now) {
        const due = t.fetchedAt === null || t.fetchedAt < t.watchedSince || now - t.fetchedAt >= timing.watchRefreshMs;
        if (due && (!watched || (t.fetchedAt ?? -1) < (watched.fetchedAt ?? -1))) watched = t;
      }
      if (t.onTrip) {
        if (t.fetchedAt === null) {
          if (!unseenOnTrip) unseenOnTrip = t;
          continue;
        }
        const s = errorScore(t, now);
        if (s > onTripScore) {
          onTrip = t;
          onTripScore = s;
        }
        continue;
      }
      // A parked bus never located is due at once (after the unseen ones on trips): the map needs it once.
      const age = t.fetchedAt === null ? Number.POSITIVE_INFINITY : now - t.fetchedAt;
      if (age >= parkedDueAt && age > parkedAge) {
        parked = t;
        parkedAge = age;
      }
      const s = t.fetchedAt === null ? Number.POSITIVE_INFINITY : errorScore(t, now);
      if (s > otherScore) {
        other = t;
        otherScore = s;
      }
    }

    const fleet = unseenOnTrip ?? (parked && (!this.lastWasParked || !onTrip) ? parked : null) ?? onTrip ?? other;
    const choice = watched && (!this.lastWasWatched || !fleet) ? watched : fleet;
    this.lastWasWatched = choice !== null && choice === watched;
    if (choice !== watched) this.lastWasParked = choice !== null && choice === parked;
    return choice;
  }
}
