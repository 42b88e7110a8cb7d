import 'server-only';

// Which bus gets the next location slot. One pass over the tracks per slot (O(B)), best of each tier:
//  1. watched buses (a viewer named them) not refreshed since the watch began or older than the watch
//     refresh; oldest first. At most every other slot, so a crowd of watchers cannot starve the fleet.
//  2. buses on an active trip never located yet: the map is missing them entirely.
//  3. buses without an active trip never located, or whose age reached their floor (FEED_PARKED_FLOOR_S,
//     minus a lead of a few slots so the queue drains before the floor is crossed); oldest first. At most
//     every other slot while buses on trips wait, so a large parked fleet at start-up cannot freeze them.
//  4. buses on an active trip, by expected position error: error ≈ speed × age, and polling at a rate
//     ∝ sqrt(speed) minimises the mean error for a fixed budget, which picking the largest sqrt(v)·age²
//     achieves. Speed has a floor so stopped buses on a trip are still seen.
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
  /** Recent speeds, newest last, km/h. */
  speeds: number[];
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
    speeds: [],
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
/** A bus whose speed we have never seen is assumed to move like a city bus. */
const UNKNOWN_SPEED_KMH = 20;
const SPEED_HISTORY = 5;

export function recentSpeedKmh(t: BusTrack): number {
  if (t.speeds.length === 0) return UNKNOWN_SPEED_KMH;
  let sum = 0;
  for (const s of t.speeds) sum += s;
  return sum / t.speeds.length;
}

export function pushSpeed(t: BusTrack, speedKmh: number | null): void {
  if (speedKmh === null || !Number.isFinite(speedKmh) || speedKmh < 0) return;
  t.speeds.push(speedKmh);
  if (t.speeds.length > SPEED_HISTORY) t.speeds.shift();
}

export function errorScore(t: BusTrack, now: number): number {
  if (t.fetchedAt === null) return Number.POSITIVE_INFINITY;
  const age = Math.max(0, now - t.fetchedAt) / 1000;
  return Math.sqrt(Math.max(SPEED_FLOOR_KMH, recentSpeedKmh(t))) * age * age;
}

export interface SchedulerTiming {
  parkedFloorMs: number;
  /** A watched bus is refreshed again once its fix is this old. */
  watchRefreshMs: number;
  /** Current spacing of the poller's slots; sets how early a parked bus is queued. */
  slotMs: number;
}

export class LocationScheduler {
  private lastWasWatched = false;
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
