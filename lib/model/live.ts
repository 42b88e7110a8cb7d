// The live snapshot that /api/live serves to every browser, and the health it carries.
// Built by lib/fleet from what the poller has seen; read by components through React Query.
import type { LiveHealth } from './live-health';
import type { EpochMs } from './transit';
import type { Health } from './upstream-health';

// The upstream's health (what the feed knows of it) has a module of its own, which live-health.ts reads too.
export type { Capabilities, Health, UpstreamError, UpstreamState } from './upstream-health';

export type DelayClass = 'early' | 'on-time' | 'late' | 'unknown';

export interface VehicleTrip {
  tripId: number;
  routeId: number | null;
  routeCode: string | null;
  routeName: string | null;
  direction: string | null;
  /** Raw upstream status. */
  status: string | null;
  delayMinutes: number | null;
  delayClass: DelayClass;
  plannedDepartureAt: EpochMs | null;
  plannedArrivalAt: EpochMs | null;
  actualDepartureAt: EpochMs | null;
  actualArrivalAt: EpochMs | null;
}

export interface Vehicle {
  busId: number;
  plateNumber: string | null;
  busName: string | null;
  internalCode: string | null;
  /** null when the bus has never reported a position we could read. */
  lat: number | null;
  lon: number | null;
  heading: number | null;
  speedKmh: number | null;
  accuracy: number | null;
  /** GPS time of the fix (upstream last_gps_at), epoch ms. */
  gpsAt: EpochMs | null;
  /** When the server last fetched this bus's location, epoch ms. */
  fetchedAt: EpochMs | null;
  trip: VehicleTrip | null;
}

/** An active trip whose bus has no usable position (no GPS capability, no fix yet, or no bus). */
export interface UnpositionedTrip extends VehicleTrip {
  busId: number | null;
  plateNumber: string | null;
  busName: string | null;
}

export interface LiveSnapshot {
  generatedAt: EpochMs;
  /**
   * The series `version` counts in (`[0-9a-z]{1,32}`): a restarted server, or a new leader of several instances,
   * starts a new epoch at version 1, so a version is only meaningful together with its epoch.
   */
  epoch: string;
  /** Bumps when anything in the snapshot changes; drives the ETag. */
  version: number;
  /** Sorted by busId. */
  vehicles: Vehicle[];
  /** Sorted by tripId. */
  unpositionedTrips: UnpositionedTrip[];
  /** What every viewer may know of the upstream's health (lib/model/live-health.ts). */
  health: LiveHealth;
  thresholds: { lateMin: number; earlyMin: number };
  /** Administrators' answers only: the full health, as /api/status gives it. */
  fullHealth?: Health;
}

/** What changed from one version of the snapshot to a later one: items whole, keyed by busId and tripId. */
export interface LiveChanges {
  /** Vehicles new or changed. */
  vehicles: Vehicle[];
  removedBusIds: number[];
  /** Unpositioned trips new or changed. */
  unpositionedTrips: UnpositionedTrip[];
  removedTripIds: number[];
}

/** `GET /api/live` without `since`, or with a `since` the server can no longer answer from: every bus. */
export interface LiveFull extends LiveSnapshot {
  kind: 'full';
}

/** `GET /api/live?since=<epoch>-<version>`: what changed since that version, and the health as it is now. */
export interface LiveDelta extends LiveChanges {
  kind: 'delta';
  epoch: string;
  since: number;
  version: number;
  generatedAt: EpochMs;
  health: LiveHealth;
  thresholds: { lateMin: number; earlyMin: number };
  /** Administrators' answers only. */
  fullHealth?: Health;
}

export type LiveAnswer = LiveFull | LiveDelta;
