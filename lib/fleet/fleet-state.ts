import 'server-only';
import type { Bus, BusLocation, Route, Trip } from '@/lib/model';
import type { FixEvent, WarmState } from './events';
import { newTrack, recordFix, type BusTrack } from './location-scheduler';
import { shiftBusTimes, shiftTripTimes } from './times';
import type { FeedTimezone } from './timezone';

// What the feed knows of the fleet: the buses, routes and active trips as last listed, one track per bus (its
// last fix and polling state), and which trip each bus runs. The rules that apply list and location answers
// live here, and so does the timezone rule's reach: when the inferred offset changes, every stored upstream time
// moves with it. Restored data (a warm restart) carries true instants: it never moves, and it is not evidence
// for the inference, until answers of this process replace it.

/** Fixes after start used for timezone inference, then every Nth fix. */
const INFER_EARLY_FIXES = 20;
const INFER_EVERY_N_FIXES = 200;

export class FleetState {
  readonly buses = new Map<number, Bus>();
  busesFetchedAt: number | null = null;
  routes: Route[] = [];
  routesFetchedAt: number | null = null;
  trips: Trip[] = [];
  tripsFetchedAt: number | null = null;
  readonly tripByBus = new Map<number, Trip>();
  readonly tracks = new Map<number, BusTrack>();
  private fixes = 0;
  private readonly shiftListeners: ((shiftMs: number) => void)[] = [];
  /** Buses whose fix is still the restored one. */
  private readonly restoredFixes = new Set<number>();
  /** The trip list is still the restored one. */
  private tripsRestored = false;
  /** When the restored data was recorded (its newest fetch), null when nothing was restored. */
  private restoredAt: number | null = null;

  constructor(readonly tz: FeedTimezone) {}

  /** Called after stored times moved `shiftMs` to a new timezone rule (caches holding upstream times must follow). */
  onTimeShift(listener: (shiftMs: number) => void): void {
    this.shiftListeners.push(listener);
  }

  /**
   * The upstream is back after an outage: every bus's backoff from it is forgotten. A bus the upstream said it
   * does not know (404) keeps its wait; a bus whose own answers keep failing runs up its backoff again.
   */
  forgiveFailures(): void {
    for (const t of this.tracks.values()) {
      if (t.failures === 0 || t.lastError?.status === 404) continue;
      t.failures = 0;
      t.retryAt = 0;
    }
  }

  track(busId: number): BusTrack {
    let t = this.tracks.get(busId);
    if (!t) this.tracks.set(busId, (t = newTrack(busId)));
    return t;
  }

  /**
   * What a restarted server knew (see WarmState): each bus's newest fix and the last complete trip list, served
   * with their true times until the upstream answers anew. Only before the first answer.
   */
  restore(warm: WarmState): void {
    const newest = Math.max(warm.tripsFetchedAt ?? 0, ...warm.fixes.map((f) => f.fetchedAt));
    if (newest > 0) this.restoredAt = Math.max(this.restoredAt ?? 0, newest);
    for (const f of warm.fixes) {
      const t = this.track(f.busId);
      if (t.fetchedAt !== null && t.fetchedAt >= f.fetchedAt) continue;
      recordFix(t, { gpsAt: f.gpsAt, lat: f.lat, lon: f.lon, speedKmh: f.speedKmh, heading: f.heading, accuracy: f.accuracy }, f.fetchedAt);
      this.restoredFixes.add(f.busId);
    }
    if (warm.tripsFetchedAt !== null) {
      this.trips = dedupeById(warm.trips).sort((a, b) => a.id - b.id);
      this.tripsFetchedAt = warm.tripsFetchedAt;
      this.tripsRestored = true;
      this.indexTrips();
    }
  }

  /** When the restored data was recorded, while some of it is still served; null otherwise. */
  restoredFrom(): number | null {
    return this.restoredAt !== null && (this.tripsRestored || this.restoredFixes.size > 0) ? this.restoredAt : null;
  }

  /** The trip list is still the one restored from the store (no complete walk since). */
  get tripsStillRestored(): boolean {
    return this.tripsRestored;
  }

  /** A complete /trips/active walk: the list replaces the last one, and buses no list names any more go. */
  applyTrips(items: Trip[], now: number): void {
    this.trips = dedupeById(items).sort((a, b) => a.id - b.id);
    this.tripsFetchedAt = now;
    this.tripsRestored = false;
    this.indexTrips();
    this.pruneTracks();
  }

  applyBuses(items: Bus[], now: number): void {
    this.buses.clear();
    for (const b of items) this.buses.set(b.id, b);
    this.busesFetchedAt = now;
    for (const b of this.buses.values()) {
      const t = this.track(b.id);
      t.plateNumber = b.plateNumber;
      t.busName = b.busName;
      t.internalCode = b.internalCode;
    }
    this.pruneTracks();
    this.inferTimezone([...this.buses.values()].map((b) => b.lastGpsAt), now);
  }

  applyRoutes(items: Route[], now: number): void {
    this.routes = dedupeById(items).sort((a, b) => a.id - b.id);
    this.routesFetchedAt = now;
  }

  /**
   * A location answer read under timezone generation `gen`: the track takes the fix at its true time. Returns
   * the fix as an event when it is new: a position whose GPS time differs from the bus's previous fix.
   */
  applyLocation(track: BusTrack, loc: BusLocation, gen: number, now: number): FixEvent | null {
    const gpsAt = loc.lastGpsAt === null ? null : loc.lastGpsAt + this.tz.shiftSince(gen);
    const placed = loc.latitude !== null && loc.longitude !== null;
    const isNew = placed && gpsAt !== track.gpsAt;
    this.restoredFixes.delete(track.busId);
    recordFix(track, { gpsAt, lat: placed ? loc.latitude : null, lon: placed ? loc.longitude : null, speedKmh: loc.speedKmh, heading: loc.heading, accuracy: loc.accuracy }, now);
    Object.assign(track, {
      lastError: null,
      failures: 0,
      retryAt: 0,
      plateNumber: loc.plateNumber ?? track.plateNumber,
      busName: loc.busName ?? track.busName,
      internalCode: loc.internalCode ?? track.internalCode,
    });
    this.fixes++;
    if (this.fixes <= INFER_EARLY_FIXES || this.fixes % INFER_EVERY_N_FIXES === 0) {
      this.inferTimezone([...this.tracks.values()].filter((t) => !this.restoredFixes.has(t.busId)).map((t) => t.gpsAt), now);
    }
    if (!isNew) return null;
    // Read after the inference, which may just have moved this fix's time to the new rule.
    const { busId, gpsAt: at, lat, lon, heading, speedKmh, accuracy } = track;
    return { busId, gpsAt: at, fetchedAt: now, lat: lat!, lon: lon!, heading, speedKmh, accuracy, tripId: this.tripByBus.get(busId)?.id ?? null };
  }

  private indexTrips(): void {
    this.tripByBus.clear();
    for (const trip of this.trips) {
      if (trip.busId === null) continue;
      // Two active trips on one bus: the one that started (or is planned) last is the one it is running.
      const prev = this.tripByBus.get(trip.busId);
      if (!prev || tripStart(trip) >= tripStart(prev)) this.tripByBus.set(trip.busId, trip);
    }
    for (const t of this.tracks.values()) t.onTrip = this.tripByBus.has(t.busId);
    for (const [busId, trip] of this.tripByBus) {
      const t = this.track(busId);
      t.onTrip = true;
      t.plateNumber ??= trip.plateNumber;
      t.busName ??= trip.busName;
    }
  }

  /** A bus the fleet list no longer has and no trip names is dropped. */
  private pruneTracks(): void {
    if (this.busesFetchedAt === null) return;
    for (const id of this.tracks.keys()) if (!this.buses.has(id) && !this.tripByBus.has(id)) this.tracks.delete(id);
  }

  private inferTimezone(samples: Iterable<number | null>, now: number): void {
    const shift = this.tz.inferFrom(samples, now);
    if (shift === 0) return;
    for (const [id, b] of this.buses) this.buses.set(id, shiftBusTimes(b, shift));
    if (!this.tripsRestored) {
      this.trips = this.trips.map((t) => shiftTripTimes(t, shift));
      this.indexTrips();
    }
    for (const t of this.tracks.values()) if (t.gpsAt !== null && !this.restoredFixes.has(t.busId)) t.gpsAt += shift;
    for (const listener of this.shiftListeners) listener(shift);
  }
}

function tripStart(t: Trip): number {
  return t.actualDepartureAt ?? t.plannedDepartureAt ?? Number.NEGATIVE_INFINITY;
}

/** List order is not given by the spec and pages can shift while we walk them: one item per id. */
function dedupeById<T extends { id: number }>(items: T[]): T[] {
  return [...new Map(items.map((i) => [i.id, i])).values()];
}
