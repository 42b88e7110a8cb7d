import { DAY_MS, ZoneTime, weekdayOf } from './clock';
import type { Fleet, SimBus } from './fleet';
import { pointAlong } from '../geo/polyline';
import { bearingDeg, distanceM, normalizeHeading, offsetLonLat } from '../geo/sphere';
import { IncidentBook } from './incidents';
import { deadheadS, type SimNetwork } from './network';
import { SALT, unit } from './random';
import {
  MAX_DELAY_S,
  MIN_DELAY_S,
  buildDaySchedule,
  dayTypeOf,
  tripHash,
  tripProgress,
  type DaySchedule,
  type FleetPlan,
  type ScheduleContext,
} from './schedule';

// The state of the fleet at any instant, computed from the clock on demand: nothing ticks. A bus's state
// is a binary search in its day's block; active trips are a scan of one departure window, cached per second.
// One class in one file, past 400 lines: every answer (a bus's pose, its trip's state, its GPS fix, the active
// trips) is read from the same per-day schedules, blocks and incident book that World caches.

export type TripStatus = 'scheduled' | 'started' | 'delayed' | 'completed';
export type GpsState = 'ok' | 'lost' | 'none';
export type BusActivity = 'in_service' | 'layover' | 'available' | 'maintenance' | 'out_of_service';

export interface BusState {
  lon: number;
  lat: number;
  heading: number;
  speedKmh: number;
  onTrip: boolean;
  activity: BusActivity;
  /** On a trip: metres along its direction's line (the simulator's own measure of true progress). */
  alongM?: number;
}

export interface GpsFix {
  atMs: number;
  lon: number;
  lat: number;
  speedKmh: number;
  heading: number;
  accuracyM: number;
}

export interface TripState {
  status: TripStatus;
  delayMinutes: number | null;
  actualDepartureMs: number | null;
  actualArrivalMs: number | null;
}

interface Pose {
  lon: number;
  lat: number;
  heading: number;
}

export interface TripRef {
  s: DaySchedule;
  k: number;
}

/** Trip ids: (service day since 2020-01-01) * TRIP_ID_DAY_SPAN + position in the day + 1. */
export const TRIP_ID_DAY_SPAN = 1_000_000;
const TRIP_ID_EPOCH_DAY = Date.UTC(2020, 0, 1) / DAY_MS;
/** Trips can be read from a week back to tomorrow; older or later ids are unknown (404). */
const TRIP_HISTORY_DAYS = 7;
const GPS_LOSS_WINDOW_S = 1800;
const GPS_LOSS_SHARE = 0.04;
const SCHEDULE_CACHE_DAYS = 8;
const DELAYED_MINUTES = 5;

export interface WorldOptions {
  net: SimNetwork;
  seed: number;
  plan: FleetPlan;
  fleet: Fleet;
  zone: ZoneTime;
  /** Sim start, epoch ms (retired buses last reported some days before it). */
  startAt: number;
}

export class World {
  readonly net: SimNetwork;
  readonly seed: number;
  readonly fleet: Fleet;
  readonly zone: ZoneTime;
  private readonly ctx: ScheduleContext;
  private readonly startAt: number;
  private readonly days = new Map<number, DaySchedule>();
  private active: { second: number; incidents: number; trips: TripRef[] } | null = null;
  /** Incidents made through the admin endpoint (incidents.ts); empty unless a test or a demo asks. */
  readonly incidents = new IncidentBook();

  constructor(o: WorldOptions) {
    this.net = o.net;
    this.seed = o.seed;
    this.fleet = o.fleet;
    this.zone = o.zone;
    this.startAt = o.startAt;
    this.ctx = { net: o.net, seed: o.seed, plan: o.plan, slotBusIds: o.fleet.slotBusIds, totalBuses: o.fleet.buses.length };
  }

  get busCount(): number {
    return this.fleet.buses.length;
  }

  bus(id: number): SimBus | null {
    return Number.isSafeInteger(id) && id >= 1 && id <= this.fleet.buses.length ? this.fleet.buses[id - 1]! : null;
  }

  /** The service day (local date) whose trips are running at `tMs`. */
  serviceDayOf(tMs: number): number {
    const { day, secOfDay } = this.zone.localDay(tMs);
    return secOfDay < this.net.serviceDayStartHour * 3600 ? day - 1 : day;
  }

  schedule(day: number): DaySchedule {
    let s = this.days.get(day);
    if (s) {
      this.days.delete(day);
      this.days.set(day, s);
      return s;
    }
    s = buildDaySchedule(this.ctx, day, this.zone.dayBaseMs(day), dayTypeOf(weekdayOf(day)));
    if (s.count >= TRIP_ID_DAY_SPAN) throw new Error(`Too many trips in one day (${s.count}); lower SIM_BUSES`);
    this.days.set(day, s);
    if (this.days.size > SCHEDULE_CACHE_DAYS) this.days.delete(this.days.keys().next().value!);
    return s;
  }

  tripId(ref: TripRef): number {
    return (ref.s.day - TRIP_ID_EPOCH_DAY) * TRIP_ID_DAY_SPAN + ref.k + 1;
  }

  tripById(id: number, tMs: number): TripRef | null {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const day = Math.floor((id - 1) / TRIP_ID_DAY_SPAN) + TRIP_ID_EPOCH_DAY;
    const today = this.serviceDayOf(tMs);
    if (day < today - TRIP_HISTORY_DAYS || day > today + 1) return null;
    const s = this.schedule(day);
    const k = (id - 1) % TRIP_ID_DAY_SPAN;
    return k < s.count ? { s, k } : null;
  }

  // ---- trips ----

  tripStatus(ref: TripRef, tMs: number): TripState {
    if (this.incidents.size === 0) return this.timetableTripStatus(ref, tMs);
    // A broken-down bus stands where it stopped: its trip runs on (never completes) and loses every minute it stands.
    const breakdown = this.incidents.forTrip(this.tripId(ref), 'breakdown', tMs);
    if (!breakdown) return this.timetableTripStatus(ref, tMs);
    const before = this.timetableTripStatus(ref, breakdown.startAt);
    const minutes = Math.round((before.delayMinutes ?? 0) + (tMs - breakdown.startAt) / 60_000);
    return { status: minutes >= DELAYED_MINUTES ? 'delayed' : 'started', delayMinutes: minutes, actualDepartureMs: before.actualDepartureMs ?? breakdown.startAt, actualArrivalMs: null };
  }

  /** The bus a trip runs with at `tMs`: the timetable's, or none while a `no-bus` incident holds. */
  tripBus(ref: TripRef, tMs: number): SimBus | null {
    if (this.incidents.size > 0 && this.incidents.forTrip(this.tripId(ref), 'no-bus', tMs)) return null;
    return this.bus(ref.s.busId[ref.k]!);
  }

  /** The trip this bus runs at `tMs` (among the active trips), or null. */
  tripOfBus(busId: number, tMs: number): TripRef | null {
    return this.activeTrips(tMs).find((ref) => ref.s.busId[ref.k] === busId) ?? null;
  }

  private timetableTripStatus(ref: TripRef, tMs: number): TripState {
    const { s, k } = ref;
    const depMs = s.baseMs + s.depS[k]! * 1000;
    const arrMs = s.baseMs + s.arrS[k]! * 1000;
    const e = (tMs - depMs) / 1000;
    const T = s.arrS[k]! - s.depS[k]!;
    if (e < s.d0[k]!) {
      if (e < 0) return { status: 'scheduled', delayMinutes: null, actualDepartureMs: null, actualArrivalMs: null };
      // Past its departure time and still at the terminal: as late as the clock says so far.
      const minutes = Math.floor(e / 60);
      return { status: minutes >= DELAYED_MINUTES ? 'delayed' : 'scheduled', delayMinutes: minutes, actualDepartureMs: null, actualArrivalMs: null };
    }
    const actualDepartureMs = depMs + s.d0[k]! * 1000;
    if (e >= T + s.dEnd[k]!) {
      return { status: 'completed', delayMinutes: Math.round(s.dEnd[k]! / 60), actualDepartureMs, actualArrivalMs: arrMs + s.dEnd[k]! * 1000 };
    }
    const progress = tripProgress(s, k, e);
    const minutes = Math.round((progress?.delayS ?? s.d0[k]!) / 60);
    return { status: minutes >= DELAYED_MINUTES ? 'delayed' : 'started', delayMinutes: minutes, actualDepartureMs, actualArrivalMs: null };
  }

  /** Trips started or delayed at `tMs`, in trip id order. Cached per sim second. */
  activeTrips(tMs: number): TripRef[] {
    const second = Math.floor(tMs / 1000);
    if (this.active?.second === second && this.active.incidents === this.incidents.version) return this.active.trips;
    const s = this.schedule(this.serviceDayOf(tMs));
    const rel = (tMs - s.baseMs) / 1000;
    const from = lowerBound(s.depS, 0, s.count, rel - (this.net.maxTripS + MAX_DELAY_S + 60));
    const to = lowerBound(s.depS, from, s.count, rel - MIN_DELAY_S + 1);
    const trips: TripRef[] = [];
    for (let k = from; k < to; k++) {
      const st = this.tripStatus({ s, k }, tMs).status;
      if (st === 'started' || st === 'delayed') trips.push({ s, k });
    }
    this.active = { second, incidents: this.incidents.version, trips };
    return trips;
  }

  // ---- buses ----

  /** The true state of a bus at `tMs` (no GPS noise, no GPS loss), incidents included. */
  busState(bus: SimBus, tMs: number): BusState {
    if (this.incidents.size === 0) return this.timetableBusState(bus, tMs);
    const breakdown = this.incidents.forBus(bus.id, 'breakdown', tMs);
    let state = breakdown ? { ...this.timetableBusState(bus, breakdown.startAt), speedKmh: 0 } : this.timetableBusState(bus, tMs);
    const off = this.incidents.forBus(bus.id, 'off-route', tMs);
    if (off && off.distanceM !== null) {
      // To the right of the way the bus faces, as far as asked.
      const right = ((state.heading + 90) * Math.PI) / 180;
      const [lon, lat] = offsetLonLat(state.lon, state.lat, Math.sin(right) * off.distanceM, Math.cos(right) * off.distanceM);
      state = { ...state, lon, lat };
    }
    return state;
  }

  private timetableBusState(bus: SimBus, tMs: number): BusState {
    if (bus.routeIndex < 0 || bus.condition !== 'active') {
      const activity: BusActivity = bus.condition === 'maintenance' ? 'maintenance' : bus.condition === 'inactive' ? 'out_of_service' : 'available';
      return { ...bus.home, heading: Math.round(unit(this.seed, SALT.parking, bus.id, 3) * 4) * 90, speedKmh: 0, onTrip: false, activity };
    }
    const day = this.serviceDayOf(tMs);
    const s = this.schedule(day);
    const a = s.blockStart[bus.id]!;
    const b = s.blockStart[bus.id + 1]!;
    const rel = (tMs - s.baseMs) / 1000;
    // Last trip of the block planned to leave by now (early departures included).
    let lo = a;
    let hi = b;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s.depS[s.blockTrips[mid]!]! <= rel - MIN_DELAY_S) lo = mid + 1;
      else hi = mid;
    }
    const j = lo - 1;
    for (let i = j; i >= a && i >= j - 2; i--) {
      const k = s.blockTrips[i]!;
      const progress = tripProgress(s, k, rel - s.depS[k]!);
      if (progress) return this.onTrip(s, k, progress.tau, progress.slope);
    }
    // Not running: find the trip it last finished and the one it does next.
    let prevIndex = -1;
    for (let i = j; i >= a; i--) {
      const k = s.blockTrips[i]!;
      if (rel >= s.arrS[k]! + s.dEnd[k]!) {
        prevIndex = i;
        break;
      }
    }
    const nextIndex = prevIndex >= 0 ? prevIndex + 1 : a;
    const prev = prevIndex >= 0 ? this.tripEnd(s, s.blockTrips[prevIndex]!) : this.lastEndBefore(bus, day);
    const from = prev ? prev.at : { ...bus.home, heading: this.headingAtStart(bus) };
    if (nextIndex >= b) return { ...from, speedKmh: 0, onTrip: false, activity: 'available' };
    const nk = s.blockTrips[nextIndex]!;
    const route = this.net.routes[s.route[nk]!]!;
    const start = route.directions[s.dir[nk]!]!;
    const to = { lon: start.stops[0]!.lon, lat: start.stops[0]!.lat, heading: pointAlong(start.line, 0).heading };
    const nextDepMs = s.baseMs + (s.depS[nk]! + s.d0[nk]!) * 1000;
    const activity: BusActivity = prevIndex >= 0 ? 'layover' : 'available';
    const dh = deadheadS(from, to);
    if (dh === 0) return { ...from, speedKmh: 0, onTrip: false, activity };
    // Deadhead: leave so as to arrive two minutes before departure (or as soon as possible).
    const prevArrMs = prev?.atMs ?? Number.NEGATIVE_INFINITY;
    let endMs = nextDepMs - 120_000;
    let startMs = endMs - dh * 1000;
    if (startMs < prevArrMs) {
      startMs = prevArrMs;
      endMs = Math.max(startMs + 1000, Math.min(nextDepMs, startMs + dh * 1000));
    }
    if (tMs < startMs) return { ...from, speedKmh: 0, onTrip: false, activity };
    if (tMs >= endMs) return { ...to, speedKmh: 0, onTrip: false, activity };
    const f = (tMs - startMs) / (endMs - startMs);
    const metres = distanceM(from.lon, from.lat, to.lon, to.lat);
    return {
      lon: from.lon + f * (to.lon - from.lon),
      lat: from.lat + f * (to.lat - from.lat),
      heading: bearingDeg(from.lon, from.lat, to.lon, to.lat),
      speedKmh: Math.min(60, (metres / ((endMs - startMs) / 1000)) * 3.6),
      onTrip: false,
      activity,
    };
  }

  private headingAtStart(bus: SimBus): number {
    return pointAlong(this.net.routes[bus.routeIndex]!.directions[0]!.line, 0).heading;
  }

  private tripEnd(s: DaySchedule, k: number): { at: Pose; atMs: number } {
    const d = this.net.routes[s.route[k]!]!.directions[s.dir[k]!]!;
    const last = s.lastStop[k]!;
    const stop = d.stops[last]!;
    return {
      at: { lon: stop.lon, lat: stop.lat, heading: pointAlong(d.line, Math.max(0, d.distM[last]! - 1)).heading },
      atMs: s.baseMs + (s.arrS[k]! + s.dEnd[k]!) * 1000,
    };
  }

  /** Where the bus's last trip of an earlier service day ended (looking back a few days, e.g. over a weekend). */
  private lastEndBefore(bus: SimBus, day: number): { at: Pose; atMs: number } | null {
    for (let d = day - 1; d >= day - 3; d--) {
      const s = this.schedule(d);
      const a = s.blockStart[bus.id]!;
      const b = s.blockStart[bus.id + 1]!;
      if (b > a) return this.tripEnd(s, s.blockTrips[b - 1]!);
    }
    return null;
  }

  private onTrip(s: DaySchedule, k: number, tau: number, slope: number): BusState {
    const d = this.net.routes[s.route[k]!]!.directions[s.dir[k]!]!;
    const last = s.lastStop[k]!;
    const off = d.offsetS;
    // Last stop whose planned time has come (zero-length intervals are skipped by taking the last one).
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (off[mid]! <= tau) lo = mid;
      else hi = mid - 1;
    }
    const i = lo;
    let dist = d.distM[i]!;
    let speedMs = 0;
    if (i < last) {
      const interval = off[i + 1]! - off[i]!;
      const dwell = i === 0 ? 0 : Math.min(20 + 20 * (tripHash(this.seed, s, k, SALT.dwell, i) / 4_294_967_296), 0.45 * interval);
      const local = tau - off[i]!;
      if (local >= dwell && interval > dwell) {
        const segment = d.distM[i + 1]! - d.distM[i]!;
        dist += (segment * (local - dwell)) / (interval - dwell);
        speedMs = segment / (interval - dwell) / Math.max(0.2, 1 + slope);
      }
    }
    const p = pointAlong(d.line, dist);
    return { lon: p.lon, lat: p.lat, heading: p.heading, speedKmh: Math.min(90, speedMs * 3.6), onTrip: true, activity: 'in_service', alongM: dist };
  }

  // ---- GPS ----

  /** Time of the last fix the bus has reported by `tMs` (null: it never reports). */
  lastFixMs(bus: SimBus, tMs: number): { atMs: number; lost: boolean } | null {
    const silent = this.incidents.size > 0 ? this.incidents.forBus(bus.id, 'gps-silent', tMs) : null;
    if (!silent) return this.timetableFixMs(bus, tMs);
    // Silent: the last fix stays the one made before the silence began.
    const before = this.timetableFixMs(bus, silent.startAt - 1);
    return before && { atMs: before.atMs, lost: true };
  }

  private timetableFixMs(bus: SimBus, tMs: number): { atMs: number; lost: boolean } | null {
    if (!bus.hasGps) return null;
    if (bus.condition === 'inactive') return { atMs: Math.floor(this.startAt / 1000 - bus.staleGpsAgeS) * 1000, lost: true };
    const period = bus.gpsPeriodS * 1000;
    const phase = bus.gpsPhaseS * 1000;
    const fix = Math.floor((tMs - phase) / period) * period + phase;
    // Now and then a bus loses GPS for a few minutes: its last fix stays where the loss began.
    const windowMs = GPS_LOSS_WINDOW_S * 1000;
    const w = Math.floor(fix / windowMs);
    if (unit(this.seed, SALT.gpsLoss, bus.id, w) < GPS_LOSS_SHARE) {
      const lossStart = w * windowMs + unit(this.seed, SALT.gpsLoss, bus.id, w, 1) * (GPS_LOSS_WINDOW_S - 720) * 1000;
      const lossEnd = lossStart + (120 + unit(this.seed, SALT.gpsLoss, bus.id, w, 2) * 600) * 1000;
      if (fix >= lossStart && fix < lossEnd) return { atMs: Math.floor((lossStart - phase) / period) * period + phase, lost: true };
    }
    return { atMs: fix, lost: false };
  }

  gpsState(bus: SimBus, tMs: number): GpsState {
    const f = this.lastFixMs(bus, tMs);
    return f === null ? 'none' : f.lost ? 'lost' : 'ok';
  }

  /** The last GPS fix as the bus reported it: true position at fix time plus a few metres of noise. */
  fix(bus: SimBus, tMs: number): GpsFix | null {
    const f = this.lastFixMs(bus, tMs);
    if (!f) return null;
    const state = this.busState(bus, f.atMs);
    const n = (i: number) => unit(this.seed, SALT.noise, bus.id, Math.floor(f.atMs / 1000), i);
    const accuracyM = 3 + 12 * n(0) ** 2;
    const [lon, lat] = offsetLonLat(state.lon, state.lat, (n(1) - 0.5) * 1.2 * accuracyM, (n(2) - 0.5) * 1.2 * accuracyM);
    return {
      atMs: f.atMs,
      lon,
      lat,
      speedKmh: state.speedKmh > 0 ? state.speedKmh * (0.95 + 0.1 * n(3)) : 0,
      heading: normalizeHeading(state.heading + (n(4) - 0.5) * 6),
      accuracyM,
    };
  }
}

/** First index in [from, to) whose value is >= x (values sorted ascending). */
function lowerBound(values: Int32Array, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
