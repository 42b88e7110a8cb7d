import 'server-only';
import { liveChanges, liveHealthOf, tripDelayClass, type DelayThresholds, type Health, type LiveChanges, type LiveSnapshot, type Trip, type UnpositionedTrip, type Vehicle, type VehicleTrip } from '@/lib/model';
import type { FleetState } from './fleet-state';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store';

// The live snapshot every viewer shares: built from the fleet state, serialised once, versioned only when its
// data changed (so ETags hold while nothing moves), and kept in the snapshot store. Some health figures move
// with the clock alone (ages, the last minute's requests, "failed N s ago"): they are read as of the snapshot's
// generatedAt, and their change alone makes no new version, or an upstream outage would cost every viewer the
// whole body every second for nothing new.

/** However many viewers ask, the snapshot is rebuilt at most this often. */
export const SNAPSHOT_MIN_INTERVAL_MS = 1_000;

export interface SnapshotSources {
  state: FleetState;
  store: SnapshotStore;
  thresholds: DelayThresholds;
  /** Whether the key may read locations: without it every trip is listed as unpositioned. */
  locations: () => boolean;
  health: (now: number) => Health;
}

/** One serialised item per key (bus or trip id), as the last version this builder wrote held them. */
type Serialised = Map<number, string>;

/** A bus as the last build made it, with its JSON and the trip it was made from. */
interface MadeVehicle {
  vehicle: Vehicle;
  trip: Trip | null;
  json: string;
  /** The build that last used it: one not used by the newest build is a bus no longer tracked. */
  build: number;
}

/** What the builder keeps of the version it wrote last, to diff the next one against without serialising it again. */
interface Written {
  stored: StoredSnapshot;
  trips: Serialised;
  /** The health without its clock figures, and the thresholds, as JSON: with the items, what makes a new version. */
  rest: string;
}

/** Each item serialised once, with what changed against the previous version's strings (null: no previous). */
function serialiseItems<T>(
  items: readonly T[],
  key: (t: T) => number,
  prev: Serialised | null,
): { json: string[]; byKey: Serialised; changed: T[]; removed: number[] } {
  const json: string[] = new Array(items.length);
  const byKey: Serialised = new Map();
  const changed: T[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const k = key(item);
    const j = JSON.stringify(item);
    json[i] = j;
    byKey.set(k, j);
    if (prev !== null && prev.get(k) !== j) changed.push(item);
  }
  const removed: number[] = [];
  if (prev !== null) for (const k of prev.keys()) if (!byKey.has(k)) removed.push(k);
  return { json, byKey, changed, removed: removed.sort((a, b) => a - b) };
}

export class SnapshotBuilder {
  private builtAt = Number.NEGATIVE_INFINITY;
  private written: Written | null = null;
  /**
   * Each bus as the last build made it: a bus whose track, names and trip did not change since is the same object
   * and the same string again. At 10,000 buses a few dozen change a second; making and serialising every one anew
   * each second was most of the builder's time and most of the garbage the server made.
   */
  private readonly made = new Map<number, MadeVehicle>();
  private builds = 0;
  /** The tracked bus ids in order, sorted again only when the set of tracked buses changed. */
  private ids: number[] = [];
  /**
   * The buses made again with other JSON, and those no longer tracked, since the last version this builder wrote:
   * the vehicles' step change without comparing every bus's string with the last version's (10,000 a second).
   */
  private readonly remadeSinceWritten = new Set<number>();
  private readonly droppedSinceWritten = new Set<number>();

  constructor(private readonly s: SnapshotSources) {}

  /**
   * The stored snapshot, rebuilt at most once a second and only re-versioned when its content changed. Versions
   * count within the store's epoch; each carries its step change from the previous one, for deltas.
   *
   * A bus is serialised when it is made again (its track, names or trip changed), an unpositioned trip once per
   * rebuild: the strings are the body's parts. The buses made with other JSON since the last written version, and
   * those dropped, are the vehicles' step change; the trips' strings compared with the last version's are theirs.
   */
  live(now: number): StoredSnapshot {
    const { store } = this.s;
    const stored = store.read();
    if (stored && now - this.builtAt < SNAPSHOT_MIN_INTERVAL_MS) return stored;
    this.builtAt = now;
    const parts = this.parts(now);
    const epoch = store.epoch();
    const sameEpoch = stored !== null && stored.snapshot.epoch === epoch;
    // The version this builder wrote last, in this epoch (a new leader's first build has none).
    const prev = sameEpoch && this.written !== null && this.written.stored.snapshot.epoch === epoch ? this.written : null;
    const vehicles = prev === null ? { json: parts.vehicleJson, changed: [], removed: [] } : { json: parts.vehicleJson, ...this.vehicleChanges() };
    const trips = serialiseItems(parts.unpositionedTrips, tripKey, prev && prev.trips);
    const thresholds = JSON.stringify(parts.thresholds);
    const rest = JSON.stringify(withoutClockFigures(parts.fullHealth)) + thresholds;
    const unchanged = prev !== null && rest === prev.rest && vehicles.changed.length + vehicles.removed.length + trips.changed.length + trips.removed.length === 0;
    if (unchanged) return stored!;
    const version = sameEpoch ? stored.snapshot.version + 1 : 1;
    const { fullHealth, vehicleJson: _json, ...served } = parts;
    const snapshot: LiveSnapshot = { generatedAt: now, epoch, version, ...served };
    // The step change is against the version in the store: this builder's last one, unless the store moved on
    // without it (a version of the cluster's own), in which case the two snapshots are compared.
    const changes: LiveChanges | null = !sameEpoch
      ? null
      : prev !== null && prev.stored === stored
        ? { vehicles: vehicles.changed, removedBusIds: vehicles.removed, unpositionedTrips: trips.changed, removedTripIds: trips.removed }
        : liveChanges(stored.snapshot, snapshot);
    // Byte for byte JSON.stringify({ kind: 'full', ...snapshot }): the same keys in the same order. Joined on first
    // read: viewers of the compact form never read it, and at 10,000 buses it is megabytes a second.
    const health = JSON.stringify(parts.health);
    let body: string | undefined;
    const joinBody = () =>
      `{"kind":"full","generatedAt":${now},"epoch":${JSON.stringify(epoch)},"version":${version},` +
      `"vehicles":[${vehicles.json.join(',')}],"unpositionedTrips":[${trips.json.join(',')}],` +
      `"health":${health},"thresholds":${thresholds}}`;
    const next: StoredSnapshot = {
      snapshot,
      get body() {
        return (body ??= joinBody());
      },
      changes,
      health: fullHealth,
    };
    store.write(next);
    // A store may refuse a version: a leader among several whose lease ran out before it stepped down. What the store
    // holds then stands; serving the refused build would show a version and then the one before it again.
    const held = store.read();
    if (held !== next && held !== null) return held;
    this.written = { stored: next, trips: trips.byKey, rest };
    this.remadeSinceWritten.clear();
    this.droppedSinceWritten.clear();
    return next;
  }

  /** The vehicles' step change since the last written version: the buses made with other JSON, and those dropped, by id. */
  private vehicleChanges(): { changed: Vehicle[]; removed: number[] } {
    const changed: Vehicle[] = [];
    for (const id of [...this.remadeSinceWritten].sort((a, b) => a - b)) {
      const m = this.made.get(id);
      if (m !== undefined) changed.push(m.vehicle);
    }
    const removed = [...this.droppedSinceWritten].filter((id) => !this.made.has(id)).sort((a, b) => a - b);
    return { changed, removed };
  }

  /**
   * What an instance that does not build (a follower before its first shared version) shows: version 0 of the
   * store's epoch, built from what this feed holds and kept out of the store.
   */
  unstored(now: number): StoredSnapshot {
    const { fullHealth, vehicleJson: _json, ...served } = this.parts(now);
    const epoch = this.s.store.epoch();
    const snapshot: LiveSnapshot = { generatedAt: now, epoch, version: 0, ...served };
    return { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: null, health: fullHealth };
  }

  /** The tracked bus ids in order: the last order while the same buses are tracked (checked, not sorted, each second). */
  private trackedIds(tracks: ReadonlyMap<number, unknown>): number[] {
    let same = this.ids.length === tracks.size;
    for (let i = 0; same && i < this.ids.length; i++) same = tracks.has(this.ids[i]!);
    if (!same) this.ids = [...tracks.keys()].sort((a, b) => a - b);
    return this.ids;
  }

  private parts(now: number): Omit<LiveSnapshot, 'generatedAt' | 'epoch' | 'version'> & { fullHealth: Health; vehicleJson: string[] } {
    const { state, thresholds } = this.s;
    const ids = this.trackedIds(state.tracks);
    const vehicles: Vehicle[] = new Array(ids.length);
    const vehicleJson: string[] = new Array(ids.length);
    const build = ++this.builds;
    for (let i = 0; i < ids.length; i++) {
      const busId = ids[i]!;
      const t = state.tracks.get(busId)!;
      const bus = state.buses.get(busId);
      const trip = state.tripByBus.get(busId) ?? null;
      const plateNumber = bus?.plateNumber ?? t.plateNumber ?? trip?.plateNumber ?? null;
      const busName = bus?.busName ?? t.busName ?? trip?.busName ?? null;
      const internalCode = bus?.internalCode ?? t.internalCode;
      let m = this.made.get(busId);
      // Trips are never changed in place (a new answer or a time shift makes new ones); tracks are, field by field.
      const same =
        m !== undefined &&
        m.trip === trip &&
        m.vehicle.plateNumber === plateNumber &&
        m.vehicle.busName === busName &&
        m.vehicle.internalCode === internalCode &&
        m.vehicle.lat === t.lat &&
        m.vehicle.lon === t.lon &&
        m.vehicle.heading === t.heading &&
        m.vehicle.speedKmh === t.speedKmh &&
        m.vehicle.accuracy === t.accuracy &&
        m.vehicle.gpsAt === t.gpsAt &&
        m.vehicle.fetchedAt === t.fetchedAt;
      if (!same) {
        const vehicle: Vehicle = {
          busId,
          plateNumber,
          busName,
          internalCode,
          lat: t.lat,
          lon: t.lon,
          heading: t.heading,
          speedKmh: t.speedKmh,
          accuracy: t.accuracy,
          gpsAt: t.gpsAt,
          fetchedAt: t.fetchedAt,
          trip: trip ? vehicleTrip(trip, thresholds) : null,
        };
        const json = JSON.stringify(vehicle);
        if (m === undefined || m.json !== json) this.remadeSinceWritten.add(busId);
        m = { vehicle, trip, json, build };
        this.made.set(busId, m);
      }
      m!.build = build;
      vehicles[i] = m!.vehicle;
      vehicleJson[i] = m!.json;
    }
    if (this.made.size > ids.length) {
      for (const [id, m] of this.made) {
        if (m.build === build) continue;
        this.made.delete(id);
        this.droppedSinceWritten.add(id);
      }
    }
    const locations = this.s.locations();
    const unpositionedTrips: UnpositionedTrip[] = [];
    for (const trip of state.trips) {
      const t = trip.busId === null ? undefined : state.tracks.get(trip.busId);
      if (locations && t && t.lat !== null && t.lon !== null) continue;
      unpositionedTrips.push({ ...vehicleTrip(trip, thresholds), busId: trip.busId, plateNumber: trip.plateNumber, busName: trip.busName });
    }
    // Deltas key trips by id, and a browser applying them rebuilds this order.
    unpositionedTrips.sort((a, b) => a.tripId - b.tripId);
    // Viewers get the reduced health (lib/model/live-health.ts); the full one is kept beside the body, for admins.
    const fullHealth = this.s.health(now);
    return { vehicles, unpositionedTrips, health: liveHealthOf(fullHealth, now, fullHealth.restoredFrom ?? null), thresholds, fullHealth, vehicleJson };
  }
}

/** The health without what changes with the clock alone; what the figures are computed from stays in the snapshot. */
function withoutClockFigures(h: Health): unknown {
  const { message: _message, freshness, budget, finalTrips, timezone, ...rest } = h;
  return {
    ...rest,
    freshness: { trackedBuses: freshness.trackedBuses },
    budget: { limit: budget.limit, share: budget.share, rateLimited429: budget.rateLimited429, pausedUntil: budget.pausedUntil },
    finalTrips: finalTrips && { pending: finalTrips.pending },
    timezone: { zone: timezone.zone, source: timezone.source },
  };
}

const tripKey = (t: UnpositionedTrip) => t.tripId;

/** A trip as the snapshot carries it (the benchmarks build snapshots with it too). */
export function vehicleTrip(trip: Trip, thresholds: DelayThresholds): VehicleTrip {
  return {
    tripId: trip.id,
    routeId: trip.routeId,
    routeCode: trip.routeCode,
    routeName: trip.routeName,
    direction: trip.direction,
    status: trip.status,
    delayMinutes: trip.delayMinutes,
    delayClass: tripDelayClass(trip.delayMinutes, thresholds),
    plannedDepartureAt: trip.plannedDepartureAt,
    plannedArrivalAt: trip.plannedArrivalAt,
    actualDepartureAt: trip.actualDepartureAt,
    actualArrivalAt: trip.actualArrivalAt,
  };
}
