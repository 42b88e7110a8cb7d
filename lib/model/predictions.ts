// Arrival predictions as /api/trips/{id}/predictions and /api/stops/{id}/arrivals serve them (lib/predictions
// computes them). The upstream has no stop-level schedule: a stop's planned time is the trip's planned departure
// and arrival interpolated along the route by distance, and every prediction says what it rests on.
import type { EpochMs } from './transit';

/**
 * What a trip's predictions rest on:
 *  - `gps`: the bus's route-snapped progress and pace (lib/estimate), its current delay carried forward;
 *  - `planned-departure`: the bus waits at its first stop: the trip leaves at its planned departure (or now, when
 *    that has passed);
 *  - `schedule`: the planned times moved by the trip's current delay, with no position of the bus (no GPS on the
 *    key's plan or the bus, no fix for 15 minutes, a fix off the route).
 */
export type PredictionBasis = 'gps' | 'planned-departure' | 'schedule';

/** Why a trip's predictions fell back to the schedule. */
export type ScheduleReason = 'no-gps' | 'stale-fix' | 'off-route' | 'fix-before-trip';

export interface StopPrediction {
  stopId: number;
  stopName: string;
  stopOrder: number;
  lat: number;
  lon: number;
  /** Metres along the trip's path (the line through its stops). */
  alongM: number;
  /** The predicted arrival. */
  arrivalAt: EpochMs;
  /** The stated uncertainty: about 1 arrival in 10 comes before `earliestAt`, 1 in 10 after `latestAt` (p10–p90). */
  earliestAt: EpochMs;
  latestAt: EpochMs;
  /** The planned arrival, interpolated along the route by distance between the trip's planned departure and arrival. */
  plannedAt: EpochMs | null;
}

/** The trip a prediction is for, and its bus: what a trip's predictions and an arrival at a place both name. */
export interface PredictedTrip {
  tripId: number;
  routeId: number | null;
  routeCode: string | null;
  routeName: string | null;
  direction: string | null;
  /** The trip's last stop's name (where the bus is headed). */
  headsign: string | null;
  busId: number | null;
  busName: string | null;
}

export interface TripPredictions extends PredictedTrip {
  basis: PredictionBasis;
  /** Set when basis is `schedule`. */
  scheduleReason: ScheduleReason | null;
  /** One sentence for people on what the predictions rest on ("From the schedule: no fix for 15 minutes."). */
  note: string;
  delayMinutes: number | null;
  /** The trip's planned departure from its first stop. */
  plannedDepartureAt: EpochMs | null;
  /**
   * The instant the predictions are made from: the bus's last fix (`gps`, and a bus waiting before its planned
   * departure), the start of the trip's current minute (`schedule`), or the instant asked. They stay the same until
   * the bus reports again, the trip's record changes or a rule's instant passes (docs/predictions.md).
   */
  at: EpochMs;
  /** The stops the bus has still to reach, in order; empty once the trip has reached its last stop. */
  stops: StopPrediction[];
}

/** A bus's next stop and its predicted arrival there, as the ladder shows it beside the bus (/api/headways). */
export interface NextArrival {
  stopId: number;
  stopName: string;
  arrivalAt: EpochMs;
  earliestAt: EpochMs;
  latestAt: EpochMs;
  basis: PredictionBasis;
}

/** `GET /api/trips/{id}/predictions`. */
export interface TripPredictionsResponse {
  predictions: TripPredictions;
}

/** One predicted arrival at a place (a physical stop), for "next arrivals here". */
export interface StopArrival extends PredictedTrip {
  /** The route stop of this trip at the place. */
  stopId: number;
  arrivalAt: EpochMs;
  earliestAt: EpochMs;
  latestAt: EpochMs;
  basis: PredictionBasis;
}

/** A physical stop: the route stops that share a name and lie within 30 m of each other. */
export interface StopPlace {
  name: string;
  lat: number;
  lon: number;
  /** Every route stop id at the place (any of them names the place in the URL). */
  stopIds: number[];
  /** Every route serving the place, whether or not a bus is on its way. */
  routes: Array<{ routeId: number; code: string | null; name: string | null }>;
}

/** `GET /api/stops/{id}/arrivals`: the next arrivals at the place, soonest first. */
export interface StopArrivalsResponse {
  place: StopPlace;
  arrivals: StopArrival[];
  at: EpochMs;
  /** Routes serving the place whose stops the server has not loaded yet (their arrivals are missing). */
  pendingRoutes: number;
}
