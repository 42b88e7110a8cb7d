// Bodies of the history API (/api/history/...): what Fleetmap recorded, as the server answers and the views read.
import type { DelayFigures, DelayThresholds } from './delay';
import type { RegularityFigures } from './regularity';
import type { EpochMs, Trip } from './transit';

/**
 * One fix of a bus, the one type for it: the feed emits it (FixEvent), the recorder stores it (its columns:
 * lib/history/fix-columns.ts) and the history API answers it.
 */
export interface HistoryFix {
  busId: number;
  /** Upstream last_gps_at, already in the feed's time rule. */
  gpsAt: EpochMs | null;
  /** When the feed received it. */
  fetchedAt: EpochMs;
  lat: number;
  lon: number;
  heading: number | null;
  speedKmh: number | null;
  accuracy: number | null;
  /** The active trip the bus was running at that moment (the feed's trip by bus), or null. */
  tripId: number | null;
}

/** A time the recorder could not write, and how many rows it dropped. */
export interface HistoryGap {
  fromAt: EpochMs;
  toAt: EpochMs;
  droppedRows: number;
  reason: string;
}

/**
 * Headway regularity over a period (lib/regularity/passing.ts, docs/regularity.md): from the passing times the
 * recorded fixes give at every stop. Days recorded before the derivation existed are "not derived": their figures
 * are unknown (null), never zero.
 */
export interface HistoryRegularity extends Omit<RegularityFigures, 'samples'> {
  /** `derived`: every day of the period with trips was; `partial`: some were not (`daysNotDerived`); `not-derived`: none. */
  derivation: 'derived' | 'partial' | 'not-derived';
  /** Service days with trips and no regularity derived. */
  daysNotDerived: number;
  /** Headway samples; null when not derived. */
  samples: number | null;
  /** Minutes trips ran as ghosts (no bus, or not located for GHOST_AFTER_S); null when not derived. */
  ghostTripMinutes: number | null;
}

export interface HistoryRouteFigures extends DelayFigures {
  routeId: number;
  routeCode: string | null;
  routeName: string | null;
  regularity: HistoryRegularity;
  /** The same per direction (`outbound`, `inbound`; a raw value for trips whose direction the stops cannot tell). */
  directions: { direction: string; regularity: HistoryRegularity }[];
}

export interface HistoryRoutesResponse {
  /** The period, service dates inclusive. */
  from: string;
  to: string;
  /** Today on the agency's clock: its figures are the trips recorded so far. */
  today: string;
  thresholds: DelayThresholds;
  /** Per route over the period (`activeTrips` counts the period's trips). */
  routes: HistoryRouteFigures[];
  /** Per service date, over the routes asked for (every route when none): the trend. */
  days: { date: string; figures: DelayFigures; regularity: HistoryRegularity }[];
  /** Mean delay by local hour of planned departure over the period and routes; hours without trips are left out. */
  hours: { hour: number; meanMin: number; trips: number }[];
  /** EWT by local hour of the wait over the period's derived days and the routes asked for; hours without headways are left out. */
  regularityHours: { hour: number; ewtS: number | null; samples: number }[];
  /** Recording gaps that overlap the period. */
  gaps: HistoryGap[];
}

export interface HistoryTripResponse {
  trip: Trip;
  firstSeenAt: EpochMs;
  lastSeenAt: EpochMs;
  /** When the lookup after the trip left /trips/active answered (null before, or never). */
  finalAt: EpochMs | null;
  /** False when that lookup answered 404. */
  finalFound: boolean | null;
  delayChanges: { at: EpochMs; delayMinutes: number | null }[];
  statusChanges: { at: EpochMs; status: string | null }[];
  /** The bus's fixes while it ran this trip, oldest first. */
  trail: HistoryFix[];
}

export interface BusTrackResponse {
  busId: number;
  from: EpochMs;
  to: EpochMs;
  fixes: HistoryFix[];
}

/** A bus as Fleetmap knew it at a moment: its last fix fetched before then, and its trip then. */
export interface FleetMomentVehicle extends HistoryFix {
  trip: {
    tripId: number;
    routeId: number | null;
    routeCode: string | null;
    routeName: string | null;
    direction: string | null;
    status: string | null;
    /** The delay last recorded for the trip at that moment. */
    delayMinutes: number | null;
  } | null;
}

export interface FleetMomentResponse {
  at: EpochMs;
  vehicles: FleetMomentVehicle[];
  /** The fixes the store keeps, oldest to newest fetched (what a replay can show); null before the first. */
  recorded: { from: EpochMs; to: EpochMs } | null;
}
