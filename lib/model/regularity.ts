// Service regularity as our API answers it (/api/headways) and the pages draw it (the ladder, the trip list).
// The definitions live in lib/regularity (ghosts.ts, headways.ts) and docs/regularity.md.
import type { EpochMs } from './transit';
import type { DelayClass, UnpositionedTrip } from './live';
import type { NextArrival } from './predictions';

/** What regularity needs of the configuration (GHOST_AFTER_S, HEADWAY_BUNCHED_RATIO, HEADWAY_GAPPED_RATIO). */
export interface RegularityConfig {
  /** A trip whose bus has not been located for this long is a ghost. */
  ghostAfterS: number;
  /** A gap is bunched when h / h_sched ≤ this. */
  bunchedRatio: number;
  /** A gap is gapped when h / h_sched ≥ this. */
  gappedRatio: number;
}

export const DEFAULT_REGULARITY: RegularityConfig = { ghostAfterS: 300, bunchedRatio: 0.5, gappedRatio: 1.5 };

/** The regularity figures of a set of headways h at the stops (TCQSM; lib/regularity/passing.ts computes them). */
export interface RegularityFigures {
  /** Headway samples (consecutive passings at a stop). */
  samples: number;
  /** σ_h / mean(h). */
  cvH: number | null;
  /** Average wait Σh² / (2 Σh), seconds. */
  awtS: number | null;
  /** The same over the scheduled headways, seconds. */
  swtS: number | null;
  /** Excess wait AWT − SWT, seconds. */
  ewtS: number | null;
  /** Of the samples with a scheduled headway: r ≤ HEADWAY_BUNCHED_RATIO. */
  bunchedShare: number | null;
  /** Of the samples with a scheduled headway: r ≥ HEADWAY_GAPPED_RATIO. */
  gappedShare: number | null;
}

/**
 * Why a trip is a ghost:
 *  - `no-bus`: the trip is active and no bus is assigned to it;
 *  - `never-located`: its bus has given no position while the trip has run GHOST_AFTER_S;
 *  - `not-located`: its bus's last fix is older than GHOST_AFTER_S.
 */
export type GhostReason = 'no-bus' | 'never-located' | 'not-located';

/** An active trip no bus can be seen running: the ladder draws it at its scheduled place. */
export interface GhostTrip extends UnpositionedTrip {
  reason: GhostReason;
  /** GPS time of the bus's last fix, or null (no bus, or never located). */
  lastLocatedAt: EpochMs | null;
}

/** How a gap between a bus and the one ahead compares with the timetable's (r = h / h_sched). */
export type HeadwayClass = 'bunched' | 'regular' | 'gapped' | 'unknown';

/** Where a bus's place along its direction comes from, as the map draws it (lib/estimate's EstimateBasis). */
export type PlaceBasis = 'fix' | 'gps-estimate' | 'schedule-estimate';

/** s(t) = min(toM, fromM + speedMps · (t − fromAt) / 1000): the ladder moves a bus between updates with it. */
export interface ProgressMotion {
  fromM: number;
  fromAt: EpochMs;
  speedMps: number;
  toM: number;
}

export interface LadderStop {
  stopId: number;
  name: string;
  stopOrder: number;
  /** Metres along the direction's path (the same path lib/estimate places buses on). */
  m: number;
}

export interface HeadwayBus {
  busId: number;
  tripId: number;
  /** What people call the bus: its name, else its plate, else its id. */
  label: string;
  delayMinutes: number | null;
  delayClass: DelayClass;
  basis: PlaceBasis;
  /** The bus's last fix is older than STALE_AFTER_S (or of unknown age). */
  stale: boolean;
  /** GPS time of its last fix. */
  gpsAt: EpochMs | null;
  /** Route-snapped progress at the answer's `at`, metres along the direction; null for a bus off its line. */
  progressM: number | null;
  motion: ProgressMotion | null;
  /** Where the timetable (no delay) puts the trip now: a late bus is joined to it. */
  scheduledM: number | null;
  /** At a terminal between trips: `start` before the trip leaves, `end` once it has arrived. */
  layover: 'start' | 'end' | null;
  plannedDepartureAt: EpochMs | null;
  /**
   * The trip's next stop and its predicted arrival (lib/predictions, added by /api/headways); null when the trip has
   * no prediction, absent where regularity alone made the answer.
   */
  next?: NextArrival | null;
}

export interface HeadwayGap {
  /** The bus ahead. */
  leaderTripId: number;
  /** The bus behind, whose headway this is. */
  followerTripId: number;
  /** Along the route between them, metres. */
  distanceM: number;
  /** The time the follower needs to reach the leader's place now: distanceM ÷ paceMps. */
  headwayS: number;
  paceMps: number;
  /** `recent`: the follower's own progress over the last minutes; `scheduled`: its trip's planned pace. */
  paceSource: 'recent' | 'scheduled';
  /** Between the two trips' planned departures; null when unknown or not positive. */
  scheduledS: number | null;
  /** headwayS / scheduledS. */
  ratio: number | null;
  cls: HeadwayClass;
}

export interface DirectionHeadways {
  /** `outbound` or `inbound` (lib/estimate/direction.ts). */
  direction: string;
  /** The last stop's name: where this direction goes. */
  toward: string | null;
  lengthM: number;
  stops: LadderStop[];
  /** Buses on the line, the one furthest along first. */
  buses: HeadwayBus[];
  /** Between consecutive buses, in the buses' order; a follower whose pace is not known at all has none. */
  gaps: HeadwayGap[];
  /** Buses at a terminal between trips, and buses of the direction that cannot be placed on it (off the route). */
  layover: HeadwayBus[];
  offLine: HeadwayBus[];
  /** Ghost trips of the direction, at the place their schedule gives them (null when it gives none). */
  ghosts: Array<GhostTrip & { scheduledM: number | null }>;
}

export interface RouteHeadways {
  routeId: number;
  routeCode: string | null;
  routeName: string | null;
  directions: DirectionHeadways[];
}

/** GET /api/headways?route=M15,M101 (every route without `route`). */
export interface HeadwaysResponse {
  /** The instant every progress and headway is for (server clock). */
  at: EpochMs;
  epoch: string;
  version: number;
  config: RegularityConfig;
  routes: RouteHeadways[];
  /** Route tokens asked for that no route matched. */
  unknownRoutes: string[];
}
