import 'server-only';
import type { Bus, BusLocation, Route, Trip } from '@/lib/model';
import { newTrack, recordFix, type BusTrack } from './location-scheduler';
import { shiftBusTimes, shiftTripTimes } from './times';
import type { FeedTimezone } from './timezone';

// What the feed knows of the fleet: the buses, routes and active trips as last listed, one track per bus (its
// last fix and polling state), and which trip each bus runs. The rules that apply list and location answers
// live here, and so does the timezone rule's reach: when the inferred offset changes, every stored upstream time
// moves with it.

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
  private readonly shiftListeners: (() => void)[] = [];

  constructor(readonly tz: FeedTimezone) {}

  /** Called after stored times moved to a new timezone rule (caches holding upstream times must forget them). */
  onTimeShift(listener: () => void): void {
    this.shiftListeners.push(listener);
  }

  track(busId: number): BusTrack {
    let t = this.tracks.get(busId);
    if (!t) this.tracks.set(busId, (t = newTrack(busId)));
    return t;
  }

  /** A complete /trips/active walk: the list replaces the last one, and buses no list names any more go. */
  applyTrips(items: Trip[], now: number): void {
    this.trips = dedupeById(items).sort((a, b) => a.id - b.id);
    this.tripsFetchedAt = now;
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

  /** A location answer read under timezone generation `gen`: the track takes the fix at its true time. */
  applyLocation(track: BusTrack, loc: BusLocation, gen: number, now: number): void {
    const gpsAt = loc.lastGpsAt === null ? null : loc.lastGpsAt + this.tz.shiftSince(gen);
    const placed = loc.latitude !== null && loc.longitude !== null;
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
    if (this.fixes <= INFER_EARLY_FIXES || this.fixes % INFER_EVERY_N_FIXES === 0) this.inferTimezone([...this.tracks.values()].map((t) => t.gpsAt), now);
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
    this.trips = this.trips.map((t) => shiftTripTimes(t, shift));
    this.indexTrips();
    for (const t of this.tracks.values()) if (t.gpsAt !== null) t.gpsAt += shift;
    for (const listener of this.shiftListeners) listener();
  }
}

function tripStart(t: Trip): number {
  return t.actualDepartureAt ?? t.plannedDepartureAt ?? Number.NEGATIVE_INFINITY;
}

/** List order is not given by the spec and pages can shift while we walk them: one item per id. */
function dedupeById<T extends { id: number }>(items: T[]): T[] {
  return [...new Map(items.map((i) => [i.id, i])).values()];
}
