// Fleet playback: the replay's URL (a deep link carries the moment) and the recorded fleet as the map's vehicles.
import { tripDelayClass, type DelayThresholds, type FleetMomentResponse, type Vehicle } from '@/lib/model';

export const REPLAY_SPEEDS = [1, 10, 60] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];
/** The scrubber spans this much either side of the moment the replay opened on. */
export const REPLAY_HALF_WINDOW_MS = 60 * 60_000;
/** Moments are asked for on this grid, so playing and scrubbing reuse answers. */
export const REPLAY_STEP_MS = 5_000;

export interface ReplayUrlState {
  /** The moment shown, epoch ms; null: not chosen (the page picks one). */
  at: number | null;
  speed: ReplaySpeed;
  routeId: number | null;
  busId: number | null;
}

const positiveId = (s: string | null) => (s && /^[1-9]\d{0,15}$/.test(s) ? Number(s) : null);

export function parseReplayUrl(params: URLSearchParams): ReplayUrlState {
  const atRaw = params.get('at');
  const at = atRaw ? Date.parse(atRaw) : NaN;
  const speed = Number(params.get('speed'));
  return {
    at: Number.isFinite(at) ? at : null,
    speed: (REPLAY_SPEEDS as readonly number[]).includes(speed) ? (speed as ReplaySpeed) : 10,
    routeId: positiveId(params.get('route')),
    busId: positiveId(params.get('bus')),
  };
}

export function serializeReplayUrl(s: ReplayUrlState): string {
  const q = new URLSearchParams();
  if (s.at !== null) q.set('at', new Date(s.at).toISOString().replace('.000Z', 'Z'));
  if (s.speed !== 10) q.set('speed', String(s.speed));
  if (s.routeId !== null) q.set('route', String(s.routeId));
  if (s.busId !== null) q.set('bus', String(s.busId));
  return q.toString();
}

export function snapToStep(ms: number): number {
  return Math.floor(ms / REPLAY_STEP_MS) * REPLAY_STEP_MS;
}

/** The recorded fleet at a moment as the live map's vehicles, each with the fix and trip it had then. */
export function momentVehicles(moment: FleetMomentResponse, thresholds: DelayThresholds): Vehicle[] {
  return moment.vehicles.map((v) => ({
    busId: v.busId,
    plateNumber: null,
    busName: null,
    internalCode: null,
    lat: v.lat,
    lon: v.lon,
    heading: v.heading,
    speedKmh: v.speedKmh,
    accuracy: v.accuracy,
    gpsAt: v.gpsAt,
    fetchedAt: v.fetchedAt,
    trip: v.trip
      ? {
          tripId: v.trip.tripId,
          routeId: v.trip.routeId,
          routeCode: v.trip.routeCode,
          routeName: v.trip.routeName,
          direction: v.trip.direction,
          status: v.trip.status,
          delayMinutes: v.trip.delayMinutes,
          delayClass: tripDelayClass(v.trip.delayMinutes, thresholds),
          plannedDepartureAt: null,
          plannedArrivalAt: null,
          actualDepartureAt: null,
          actualArrivalAt: null,
        }
      : null,
  }));
}

export interface EmptyMoment {
  /** Why no bus is drawn. */
  reason: 'nothing-recorded' | 'before-recording' | 'after-recording' | 'no-bus-on-route' | 'gap';
  /** A moment with buses to offer instead (within the recording), or null. */
  offer: number | null;
}

/**
 * Why a moment has no bus to draw, and a moment to offer instead: a replay opened half an hour back on a store that
 * began recording ten minutes ago is not a broken page, and says where the recording starts.
 */
export function emptyMoment(at: number, recorded: FleetMomentResponse['recorded'], routeFiltered: boolean): EmptyMoment {
  if (recorded === null) return { reason: 'nothing-recorded', offer: null };
  // A step into the recording, so the first fixes are drawn (a moment shows fixes fetched at or before it).
  if (at < recorded.from) return { reason: 'before-recording', offer: Math.min(snapToStep(recorded.from) + REPLAY_STEP_MS, recorded.to) };
  if (at > recorded.to) return { reason: 'after-recording', offer: recorded.to };
  return { reason: routeFiltered ? 'no-bus-on-route' : 'gap', offer: null };
}
