import 'server-only';
import { liveChanges, tripDelayClass, type DelayThresholds, type Health, type LiveSnapshot, type Trip, type UnpositionedTrip, type Vehicle, type VehicleTrip } from '@/lib/model';
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

export class SnapshotBuilder {
  private builtAt = Number.NEGATIVE_INFINITY;
  private content = '';

  constructor(private readonly s: SnapshotSources) {}

  /**
   * The stored snapshot, rebuilt at most once a second and only re-versioned when its content changed. Versions
   * count within the store's epoch; each carries its step change from the previous one, for deltas.
   */
  live(now: number): StoredSnapshot {
    const { store } = this.s;
    const stored = store.read();
    if (stored && now - this.builtAt < SNAPSHOT_MIN_INTERVAL_MS) return stored;
    this.builtAt = now;
    const parts = this.parts(now);
    const epoch = store.epoch();
    const sameEpoch = stored !== null && stored.snapshot.epoch === epoch;
    const content = JSON.stringify({ ...parts, health: withoutClockFigures(parts.health) });
    if (sameEpoch && content === this.content) return stored;
    this.content = content;
    const json = JSON.stringify(parts);
    const version = sameEpoch ? stored.snapshot.version + 1 : 1;
    const snapshot: LiveSnapshot = { generatedAt: now, epoch, version, ...parts };
    const next: StoredSnapshot = {
      snapshot,
      body: `{"kind":"full","generatedAt":${now},"epoch":${JSON.stringify(epoch)},"version":${version},${json.slice(1)}`,
      changes: sameEpoch ? liveChanges(stored.snapshot, snapshot) : null,
    };
    store.write(next);
    return next;
  }

  /**
   * What an instance that does not build (a follower before its first shared version) shows: version 0 of the
   * store's epoch, built from what this feed holds and kept out of the store.
   */
  unstored(now: number): StoredSnapshot {
    const parts = this.parts(now);
    const epoch = this.s.store.epoch();
    const snapshot: LiveSnapshot = { generatedAt: now, epoch, version: 0, ...parts };
    return { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: null };
  }

  private parts(now: number): Omit<LiveSnapshot, 'generatedAt' | 'epoch' | 'version'> {
    const { state, thresholds } = this.s;
    const vehicles: Vehicle[] = [];
    const ids = [...state.tracks.keys()].sort((a, b) => a - b);
    for (const busId of ids) {
      const t = state.tracks.get(busId)!;
      const bus = state.buses.get(busId);
      const trip = state.tripByBus.get(busId) ?? null;
      vehicles.push({
        busId,
        plateNumber: bus?.plateNumber ?? t.plateNumber ?? trip?.plateNumber ?? null,
        busName: bus?.busName ?? t.busName ?? trip?.busName ?? null,
        internalCode: bus?.internalCode ?? t.internalCode,
        lat: t.lat,
        lon: t.lon,
        heading: t.heading,
        speedKmh: t.speedKmh,
        accuracy: t.accuracy,
        gpsAt: t.gpsAt,
        fetchedAt: t.fetchedAt,
        trip: trip ? vehicleTrip(trip, thresholds) : null,
      });
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
    return { vehicles, unpositionedTrips, health: this.s.health(now), thresholds };
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

function vehicleTrip(trip: Trip, thresholds: DelayThresholds): VehicleTrip {
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
