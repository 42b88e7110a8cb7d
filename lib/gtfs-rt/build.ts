// The GTFS-Realtime feeds as messages (the gtfs-realtime-bindings shapes, before encoding): VehiclePositions from
// the snapshot's fixes, TripUpdates from lib/predictions. Pure: the service, the tests and the benchmark build
// with it. Only what the feed holds is published: a bus's last fix and its GPS time (an estimate is never a fix),
// and a bus whose record breaks a rule below is left out, never published with a guessed field.
import type { transit_realtime } from 'gtfs-realtime-bindings';
import type { EpochMs, Vehicle } from '@/lib/model';
import type { TripPredictions } from '@/lib/model/predictions';
import type { TimeRule } from '@/lib/partner/time';
import { wallClockAsUtc, wallClockInZone } from '@/lib/time/zone';
import type { GtfsIds } from './ids';
import type { WireEntity, WirePosition, WireStopTimeUpdate, WireTrip, WireTripUpdate, WireVehicle, WireVehiclePosition } from './wire';

/** What both feeds are built from: one snapshot version. */
export interface FeedSource {
  /** The snapshot's time: the header's timestamp. */
  at: EpochMs;
  vehicles: readonly Vehicle[];
  /** By trip id: the predictions of every active trip (lib/predictions). */
  predictions: ReadonlyMap<number, TripPredictions>;
  /** A trip's `trip_date` (YYYY-MM-DD) as /trips/active gave it, or null. */
  tripDate(tripId: number): string | null;
  /** The agency's clock (PARTNER_TIMEZONE or the inferred offset): start_time is local. */
  timeRule: TimeRule;
  ids: GtfsIds;
}

/** A feed's message: the bindings' shapes, narrowed to the fields this feed sets (wire.ts writes them). */
export interface FeedMessage {
  header: transit_realtime.IFeedHeader;
  entity: WireEntity[];
}

export interface BuiltFeed {
  message: FeedMessage;
  /** Buses (or trips) left out because their record broke a rule. */
  leftOut: number;
}

/** Faster than a city bus goes (the validator's W004 bound, about 60 mph): a GPS or unit error. */
export const MAX_SPEED_MPS = 26;

export const feedHeader = (at: EpochMs): transit_realtime.IFeedHeader => ({ gtfsRealtimeVersion: '2.0', incrementality: 0, timestamp: Math.floor(at / 1000) });

/** GTFS direction_id from the API's direction (the rule of lib/estimate/direction.ts); null when it cannot be told. */
export function directionId(direction: string | null): number | null {
  const d = direction?.trim().toLowerCase();
  if (d === 'outbound' || d === '0') return 0;
  if (d === 'inbound' || d === '1') return 1;
  return null;
}

/** Zones change their offset only on a quarter hour: one Intl lookup per zone and quarter hour serves every trip. */
const QUARTER_MS = 15 * 60_000;
/** By zone, by quarter hour: the zone's offset (ms). */
const offsets = new Map<string, Map<number, number>>();

function localMs(ms: number, rule: TimeRule): number {
  if (rule.kind === 'offset') return ms + rule.minutes * 60_000;
  const quarter = Math.floor(ms / QUARTER_MS) * QUARTER_MS;
  let zone = offsets.get(rule.zone);
  if (!zone) offsets.set(rule.zone, (zone = new Map()));
  let offset = zone.get(quarter);
  if (offset === undefined) {
    offset = wallClockAsUtc(wallClockInZone(quarter, rule.zone)) - quarter;
    if (zone.size > 10_000) zone.clear();
    zone.set(quarter, offset);
  }
  return ms + offset;
}

/** A service date (YYYY-MM-DD): its midnight as UTC ms and its GTFS form (YYYYMMDD), read once per date. */
const serviceDates = new Map<string, { midnight: number; gtfs: string }>();

function serviceDate(day: string): { midnight: number; gtfs: string } {
  let d = serviceDates.get(day);
  if (!d) {
    if (serviceDates.size > 1_000) serviceDates.clear();
    serviceDates.set(day, (d = { midnight: Date.parse(`${day}T00:00:00Z`), gtfs: day.replaceAll('-', '') }));
  }
  return d;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** start_date (YYYYMMDD) and start_time (HH:MM:SS past the service date's midnight; 25:10:00 after midnight). */
export function startOf(plannedDepartureAt: EpochMs | null, tripDate: string | null, rule: TimeRule): { startDate?: string; startTime?: string } {
  const out: { startDate?: string; startTime?: string } = {};
  const date = tripDate && DATE_RE.test(tripDate) ? tripDate : null;
  if (plannedDepartureAt === null || !Number.isFinite(plannedDepartureAt)) return date ? { startDate: serviceDate(date).gtfs } : out;
  const local = localMs(plannedDepartureAt, rule);
  const day = serviceDate(date ?? new Date(local).toISOString().slice(0, 10));
  const seconds = Math.round((local - day.midnight) / 1000);
  out.startDate = day.gtfs;
  if (seconds >= 0 && seconds < 48 * 3600) out.startTime = `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
  return out;
}

function tripDescriptor(t: { tripId: number; routeId: number | null; direction: string | null; plannedDepartureAt: EpochMs | null }, s: FeedSource): WireTrip {
  const d: WireTrip = { tripId: s.ids.trip(t.tripId) };
  if (t.routeId !== null) d.routeId = s.ids.route(t.routeId);
  const dir = directionId(t.direction);
  if (dir !== null) d.directionId = dir;
  Object.assign(d, startOf(t.plannedDepartureAt, s.tripDate(t.tripId), s.timeRule));
  return d;
}

function vehicleDescriptor(busId: number, busName: string | null, plate: string | null, s: FeedSource): WireVehicle {
  const v: WireVehicle = { id: s.ids.vehicle(busId) };
  if (busName) v.label = busName;
  if (plate) v.licensePlate = plate;
  return v;
}

const finiteIn = (x: number | null, lo: number, hi: number) => x !== null && Number.isFinite(x) && x >= lo && x <= hi;

/** Why a bus's record cannot be published as it is, or null. */
export function brokenFix(v: Vehicle, at: EpochMs): string | null {
  if (!finiteIn(v.lat, -90, 90) || !finiteIn(v.lon, -180, 180)) return 'position';
  if (v.gpsAt === null || !Number.isFinite(v.gpsAt) || v.gpsAt <= 0) return 'gps time';
  // A fix time after the snapshot's: a clock or zone error (the header must be the newest time in the feed).
  if (v.gpsAt > at) return 'gps time after the snapshot';
  if (v.heading !== null && !finiteIn(v.heading, 0, 360)) return 'heading';
  if (v.speedKmh !== null && !finiteIn(v.speedKmh / 3.6, 0, MAX_SPEED_MPS)) return 'speed';
  return null;
}

/** A bus's VehiclePosition entity, its fix already checked (brokenFix is null). */
export function vehicleEntity(v: Vehicle, s: FeedSource): WireEntity {
  const position: WirePosition = { latitude: v.lat!, longitude: v.lon! };
  if (v.heading !== null) position.bearing = v.heading === 360 ? 0 : v.heading;
  if (v.speedKmh !== null) position.speed = v.speedKmh / 3.6;
  const vp: WireVehiclePosition = {
    vehicle: vehicleDescriptor(v.busId, v.busName, v.plateNumber, s),
    position,
    timestamp: Math.floor(v.gpsAt! / 1000),
  };
  if (v.trip) {
    vp.trip = tripDescriptor(v.trip, s);
    const next = s.predictions.get(v.trip.tripId)?.stops[0];
    if (next) {
      vp.currentStopSequence = next.stopOrder;
      vp.stopId = s.ids.stop(next.stopId);
      vp.currentStatus = 2; // IN_TRANSIT_TO
    }
  }
  return { id: `vehicle-${v.busId}`, vehicle: vp };
}

/** Whether a bus is in VehiclePositions: 'skip' (it never reported), 'broken' (left out), or 'ok'. */
export function vehicleFate(v: Vehicle, at: EpochMs): 'skip' | 'broken' | 'ok' {
  if (v.lat === null && v.lon === null && v.gpsAt === null) return 'skip';
  return brokenFix(v, at) === null ? 'ok' : 'broken';
}

/** VehiclePositions: every bus with a fix, at its fix, with its trip and the next stop it is headed for. */
export function vehiclePositions(s: FeedSource): BuiltFeed {
  const entity: WireEntity[] = [];
  let leftOut = 0;
  for (const v of s.vehicles) {
    const fate = vehicleFate(v, s.at);
    if (fate === 'broken') leftOut++;
    if (fate === 'ok') entity.push(vehicleEntity(v, s));
  }
  return { message: { header: feedHeader(s.at), entity }, leftOut };
}

/** The trips of TripUpdates in their order (by trip id), each with the bus on it (the snapshot's). */
export function tripsInOrder(s: FeedSource): Array<{ p: TripPredictions; v: Vehicle | undefined }> {
  const byTrip = new Map<number, Vehicle>();
  for (const v of s.vehicles) if (v.trip) byTrip.set(v.trip.tripId, v);
  return [...s.predictions.values()].sort((a, b) => a.tripId - b.tripId).map((p) => ({ p, v: byTrip.get(p.tripId) }));
}

/** A trip's TripUpdate entity; 'broken' when its stop times do not strictly increase, null when it has none left. */
export function tripEntity(p: TripPredictions, v: Vehicle | undefined, s: FeedSource): WireEntity | 'broken' | null {
  const updates: WireStopTimeUpdate[] = [];
  let last = -Infinity;
  for (const stop of p.stops) {
    const time = Math.round(stop.arrivalAt / 1000);
    if (!Number.isFinite(time) || time <= last) return 'broken';
    last = time;
    updates.push({
      stopSequence: stop.stopOrder,
      stopId: s.ids.stop(stop.stopId),
      // The stated p10–p90 as one figure: half its width, in seconds.
      arrival: { time, uncertainty: Math.round((stop.latestAt - stop.earliestAt) / 2000) },
    });
  }
  if (updates.length === 0) return null;
  const tu: WireTripUpdate = {
    trip: tripDescriptor({ tripId: p.tripId, routeId: p.routeId, direction: p.direction, plannedDepartureAt: p.plannedDepartureAt }, s),
    stopTimeUpdate: updates,
    timestamp: Math.floor(p.at / 1000),
  };
  if (p.busId !== null) tu.vehicle = vehicleDescriptor(p.busId, p.busName, v?.plateNumber ?? null, s);
  if (p.delayMinutes !== null && Number.isFinite(p.delayMinutes)) tu.delay = Math.round(p.delayMinutes * 60);
  return { id: `trip-${p.tripId}`, tripUpdate: tu };
}

/** TripUpdates: every active trip with predictions, a stop_time_update per remaining stop, times strictly increasing. */
export function tripUpdates(s: FeedSource): BuiltFeed {
  const entity: WireEntity[] = [];
  let leftOut = 0;
  for (const { p, v } of tripsInOrder(s)) {
    const e = tripEntity(p, v, s);
    if (e === 'broken') leftOut++;
    else if (e !== null) entity.push(e);
  }
  return { message: { header: feedHeader(s.at), entity }, leftOut };
}
