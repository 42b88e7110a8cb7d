import { deadheadS, terminalOf, type SimNetwork, type SimStop } from './network';
import { SALT, hashInts, unit } from './random';

// Timetables and vehicle blocks. Departures come from each direction's weekday trips per hour (scaled for
// the fleet size and the day of week); each route's trips are chained into blocks first-in-first-out at the
// terminals, so a bus alternates directions with a layover. A service day runs from the network's quietest
// hour to the same hour next day and no trip crosses that boundary, so every day is built on its own.
// One file, at about 400 lines: the day is laid out in columns (DaySchedule), and the delay curve and each trip's
// progress (delayAtShare, tripProgress) read the knots buildDaySchedule lays in them; apart, each would have to know
// the other's layout.

/** Share of the weekday timetable run on Sunday, weekdays, Saturday (index = day of week). */
const DAY_TYPE_FACTOR = [0.6, 1, 1, 1, 1, 1, 0.72] as const;
export type DayType = 0 | 1 | 2;
export const WEEKDAY: DayType = 0;

export function dayTypeOf(weekday: number): DayType {
  return weekday === 0 ? 2 : weekday === 6 ? 1 : 0;
}

const DAY_TYPE_SHARE: Record<DayType, number> = { 0: DAY_TYPE_FACTOR[1], 1: DAY_TYPE_FACTOR[6], 2: DAY_TYPE_FACTOR[0] };

/** No planned arrival later than this before the next service day starts. */
const DAY_END_MARGIN_S = 10 * 60;
/** Upper bound of any delay. Trips near the end of a service day are also capped so they end within it. */
export const MAX_DELAY_S = 40 * 60;
export const MIN_DELAY_S = -5 * 60;
/** A driver needs this much between arriving and leaving again. */
const MIN_TURN_S = 120;

export function layoverS(durationS: number): number {
  return Math.max(300, Math.round(durationS * 0.1));
}

export const TRIP_SHORT_TURN = 1;
export const KIND_SHIFT = 1;
export const SERVICE_KINDS = ['local', 'limited', 'select'] as const;

function isPeakHour(hour: number): boolean {
  const h = ((hour % 24) + 24) % 24;
  return (h >= 7 && h < 10) || (h >= 16 && h < 19);
}

/** Planned departures (seconds after the service date's reference point) of one direction on a day type. */
export function departures(net: SimNetwork, seed: number, routeIndex: number, dirIndex: number, dayType: DayType, scale: number): number[] {
  const dir = net.routes[routeIndex]!.directions[dirIndex]!;
  const b = net.serviceDayStartHour;
  const latestArrival = (b + 24) * 3600 - DAY_END_MARGIN_S;
  const out: number[] = [];
  for (let h = 0; h < 24; h++) {
    const rate = dir.tripsPerHour[h]! * scale * DAY_TYPE_SHARE[dayType];
    // Fractional rates round up or down by a fixed coin per hour, so the mean frequency is kept at any scale.
    const n = Math.floor(rate + unit(seed, SALT.departures, routeIndex, dirIndex, h, dayType));
    if (n <= 0) continue;
    const headway = 3600 / n;
    const hourStart = (h < b ? h + 24 : h) * 3600;
    for (let i = 0; i < n; i++) {
      const jitter = (unit(seed, SALT.departureJitter, routeIndex, dirIndex, h, i) - 0.5) * 0.3 * headway;
      const raw = hourStart + (i + 0.5) * headway + jitter;
      // Public timetables are in whole minutes unless buses come more often than every two minutes.
      const s = headway >= 120 ? Math.round(raw / 60) * 60 : Math.round(raw);
      if (s + dir.durationS <= latestArrival) out.push(s);
    }
  }
  return out.sort((x, y) => x - y);
}

export interface ChainedTrips {
  dep: number[];
  dir: number[];
  slot: number[];
  /** Index of the last stop served (the last stop of the direction unless the trip turns short). */
  lastStop: number[];
  slotsUsed: number;
}

class FifoQueue {
  private slots: number[] = [];
  private free: number[] = [];
  private head = 0;
  get size() {
    return this.slots.length - this.head;
  }
  headFree() {
    return this.free[this.head]!;
  }
  push(slot: number, freeAt: number) {
    this.slots.push(slot);
    this.free.push(freeAt);
  }
  pop(): number {
    return this.slots[this.head++]!;
  }
}

/**
 * Chains a route's trips into blocks: a bus waits at the terminal where its last trip ended and takes the
 * next departure from there (first in, first out); failing that, one waiting at another terminal deadheads
 * over; failing that, a new bus pulls out, up to `maxSlots` (a trip with no bus left is not run).
 */
export function chainRoute(net: SimNetwork, seed: number, routeIndex: number, dayType: DayType, scale: number, maxSlots: number): ChainedTrips {
  const route = net.routes[routeIndex]!;
  const dirs = route.directions;
  const nd = dirs.length;
  const perDir = dirs.map((_, d) => departures(net, seed, routeIndex, d, dayType, scale));
  const merged: Array<[number, number]> = [];
  perDir.forEach((deps, d) => deps.forEach((s) => merged.push([s, d])));
  merged.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  const next = (d: number) => (d + 1) % nd;
  const starts = dirs.map((d) => terminalOf(d, 'start'));
  const ends = dirs.map((d) => terminalOf(d, 'end'));
  const between = starts.map((from) => starts.map((to) => deadheadS(from, to)));
  const turnaround = dirs.map((d, i) => d.durationS + deadheadS(ends[i]!, starts[next(i)]!) + layoverS(d.durationS));
  const queues = dirs.map(() => new FifoQueue());
  const out: ChainedTrips = { dep: [], dir: [], slot: [], lastStop: [], slotsUsed: 0 };

  for (const [dep, d] of merged) {
    let slot = -1;
    const q = queues[d]!;
    if (q.size > 0 && q.headFree() <= dep) slot = q.pop();
    for (let o = 0; slot < 0 && o < nd; o++) {
      const other = queues[o]!;
      if (o !== d && other.size > 0 && other.headFree() + between[o]![d]! <= dep) slot = other.pop();
    }
    if (slot < 0 && out.slotsUsed < maxSlots) slot = out.slotsUsed++;
    if (slot < 0) continue;
    const stops = dirs[d]!.stops.length;
    let lastStop = stops - 1;
    if (stops >= 12 && unit(seed, SALT.shortTurn, routeIndex, d, dep, dayType) < 0.03) {
      lastStop = Math.floor((stops - 1) * (0.55 + 0.25 * unit(seed, SALT.shortTurn, routeIndex, d, dep, 1 + dayType)));
    }
    // A short-turned bus is booked as if it ran the whole way: it deadheads to the terminal meanwhile,
    // and the terminal queue stays in order of release.
    queues[next(d)]!.push(slot, dep + turnaround[d]!);
    out.dep.push(dep);
    out.dir.push(d);
    out.slot.push(slot);
    out.lastStop.push(lastStop);
  }
  return out;
}

export interface FleetPlan {
  /** Multiplier applied to the file's trips per hour. */
  scale: number;
  /** Buses assigned to each route (by route index). */
  slotsPerRoute: number[];
  workBuses: number;
  spareBuses: number;
  totalBuses: number;
}

function weekdayNeed(net: SimNetwork, seed: number, scale: number): number[] {
  return net.routes.map((_, r) => chainRoute(net, seed, r, WEEKDAY, scale, Number.POSITIVE_INFINITY).slotsUsed);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * How many buses and at what frequency. By default the real weekday timetable sets the fleet (the peak
 * need of every route plus ~10% spares); with a requested size the timetable is scaled so that about
 * 1/1.1 of the fleet works and the rest are spares.
 */
export function planFleet(net: SimNetwork, seed: number, requestedBuses?: number): FleetPlan {
  if (requestedBuses === undefined) {
    const slotsPerRoute = weekdayNeed(net, seed, 1);
    const workBuses = sum(slotsPerRoute);
    const spareBuses = Math.max(1, Math.round(workBuses * 0.1));
    return { scale: 1, slotsPerRoute, workBuses, spareBuses, totalBuses: workBuses + spareBuses };
  }
  const target = Math.max(1, Math.min(requestedBuses, Math.round(requestedBuses / 1.1)));
  const baseNeed = Math.max(1, sum(weekdayNeed(net, seed, 1)));
  let scale = target / baseNeed;
  let best: { scale: number; slots: number[]; need: number } | null = null;
  // The need grows almost linearly with frequency: a few proportional corrections land close to the target.
  for (let i = 0; i < 6; i++) {
    const slots = weekdayNeed(net, seed, scale);
    const need = sum(slots);
    if (need <= target && (!best || need > best.need)) best = { scale, slots, need };
    if (need <= target && need >= target * 0.97) break;
    scale *= (target / Math.max(need, 1)) * (need > target ? 0.99 : 1);
  }
  for (let i = 0; !best && i < 80; i++) {
    scale *= 0.85;
    const slots = weekdayNeed(net, seed, scale);
    if (sum(slots) <= target) best = { scale, slots, need: sum(slots) };
  }
  const chosen = best ?? { scale: 0, slots: net.routes.map(() => 0), need: 0 };
  return { scale: chosen.scale, slotsPerRoute: chosen.slots, workBuses: chosen.need, spareBuses: requestedBuses - chosen.need, totalBuses: requestedBuses };
}

/** One service day of trips, sorted by planned departure (trip index = position), struct-of-arrays. */
export interface DaySchedule {
  day: number;
  /** Epoch ms the second offsets count from (local "noon minus 12 h" of the service date). */
  baseMs: number;
  /** Seconds (from baseMs) when the next service day starts. */
  dayEndS: number;
  count: number;
  route: Uint16Array;
  dir: Uint8Array;
  depS: Int32Array;
  /** Planned arrival at the last stop served. */
  arrS: Int32Array;
  lastStop: Uint16Array;
  busId: Int32Array;
  kind: Uint8Array;
  /** Delay profile, seconds: at departure, drift over the trip, an incident (share of trip where it starts, ramp share, size), at arrival. */
  d0: Int16Array;
  drift: Int16Array;
  incP: Float32Array;
  incW: Float32Array;
  incM: Int16Array;
  dEnd: Int16Array;
  /** Per bus id, the range of its trips in `blockTrips` (CSR layout): blockStart[id]..blockStart[id+1]. */
  blockStart: Int32Array;
  blockTrips: Int32Array;
}

export interface ScheduleContext {
  net: SimNetwork;
  seed: number;
  plan: FleetPlan;
  /** Bus id of each route's slot: slotBusIds[routeIndex][slot]. */
  slotBusIds: number[][];
  totalBuses: number;
}

function stopOf(net: SimNetwork, route: number, dir: number, stop: number): SimStop {
  return net.routes[route]!.directions[dir]!.stops[stop]!;
}

const POSITION_SPACE = 2 ** 22;

/** The latest delay trip k may have: it must still arrive a minute before its service day ends. */
function maxDelayOf(s: DaySchedule, k: number): number {
  return Math.max(0, Math.min(MAX_DELAY_S, s.dayEndS - 60 - s.arrS[k]!));
}

const clampDelay = (x: number, max: number) => Math.max(MIN_DELAY_S, Math.min(max, Math.round(x)));

/** Builds a service day. `localHourOf(depS)` gives the local hour of a departure (for peaks). */
export function buildDaySchedule(ctx: ScheduleContext, day: number, baseMs: number, dayType: DayType): DaySchedule {
  const { net, seed, plan } = ctx;
  const chained = net.routes.map((_, r) => chainRoute(net, seed, r, dayType, plan.scale, plan.slotsPerRoute[r]!));
  const count = sum(chained.map((c) => c.dep.length));
  if (count >= POSITION_SPACE) throw new Error(`Too many trips in one day (${count}); lower SIM_BUSES`);
  // One numeric key per trip: departure, then route, then direction, then position (all fit in 2^53).
  const keys = new Float64Array(count);
  const src: Array<[number, number]> = [];
  chained.forEach((c, r) =>
    c.dep.forEach((dep, i) => {
      keys[src.length] = (dep * 2048 + r * 2 + c.dir[i]!) * POSITION_SPACE + src.length;
      src.push([r, i]);
    }),
  );
  keys.sort();

  const s: DaySchedule = {
    day,
    baseMs,
    dayEndS: (net.serviceDayStartHour + 24) * 3600,
    count,
    route: new Uint16Array(count),
    dir: new Uint8Array(count),
    depS: new Int32Array(count),
    arrS: new Int32Array(count),
    lastStop: new Uint16Array(count),
    busId: new Int32Array(count),
    kind: new Uint8Array(count),
    d0: new Int16Array(count),
    drift: new Int16Array(count),
    incP: new Float32Array(count),
    incW: new Float32Array(count),
    incM: new Int16Array(count),
    dEnd: new Int16Array(count),
    blockStart: new Int32Array(ctx.totalBuses + 2),
    blockTrips: new Int32Array(count),
  };

  const prevArrDelay = new Float64Array(ctx.totalBuses + 1);
  const prevTrip = new Int32Array(ctx.totalBuses + 1).fill(-1);
  for (let k = 0; k < count; k++) {
    const [r, i] = src[keys[k]! % POSITION_SPACE]!;
    const c = chained[r]!;
    const route = net.routes[r]!;
    const d = c.dir[i]!;
    const direction = route.directions[d]!;
    const dep = c.dep[i]!;
    const last = c.lastStop[i]!;
    const bus = ctx.slotBusIds[r]![c.slot[i]!]!;
    s.route[k] = r;
    s.dir[k] = d;
    s.depS[k] = dep;
    s.lastStop[k] = last;
    s.arrS[k] = dep + direction.offsetS[last]!;
    s.busId[k] = bus;
    const hour = Math.floor(dep / 3600);
    const peak = isPeakHour(hour);
    let kind = route.serviceKind === 'select' ? 2 : route.serviceKind === 'limited' ? 1 : 0;
    if (kind === 0 && peak && direction.durationS >= 3600 && unit(seed, SALT.tripKind, day, r, d, dep) < 0.15) kind = 1;
    s.kind[k] = (kind << KIND_SHIFT) | (last < direction.stops.length - 1 ? TRIP_SHORT_TURN : 0);

    // Delay: late from the previous trip when the layover cannot absorb it, then traffic drift by time of
    // day (rush hours slow, nights often early), and now and then an incident that costs minutes and is
    // partly recovered by the end of the trip.
    const T = s.arrS[k]! - dep;
    const u = (salt: number, n = 0) => unit(seed, salt, day, r, d, dep, n);
    let jitter = peak ? u(SALT.delayStart) * 120 : (u(SALT.delayStart) - 0.5) * 120;
    if (u(SALT.delayStart, 1) < 0.02) jitter = -120;
    let propagated = Number.NEGATIVE_INFINITY;
    const p = prevTrip[bus]!;
    if (p >= 0) {
      const prevEnd = stopOf(net, s.route[p]!, s.dir[p]!, s.lastStop[p]!);
      const slack = dep - (s.arrS[p]! + deadheadS(prevEnd, direction.stops[0]!)) - MIN_TURN_S;
      propagated = prevArrDelay[bus]! - slack;
    }
    const maxDelay = maxDelayOf(s, k);
    const d0 = clampDelay(Math.max(jitter, propagated), maxDelay);
    const h = ((hour % 24) + 24) % 24;
    const du = u(SALT.delayDrift);
    const driftShare = peak ? 0.02 + 0.1 * du : h >= 10 && h < 16 ? -0.02 + 0.07 * du : h >= 19 && h < 23 ? -0.03 + 0.05 * du : h >= 6 && h < 7 ? -0.02 + 0.05 * du : -0.04 + 0.05 * du;
    const drift = Math.round(T * driftShare);
    let incP = 0;
    let incW = 0;
    let incM = 0;
    let end = d0 + drift;
    if (u(SALT.incident) < (peak ? 0.1 : 0.05)) {
      incP = 0.1 + 0.65 * u(SALT.incidentShape, 1);
      incW = Math.min(0.1, 240 / Math.max(T, 1));
      incM = Math.round(180 + 540 * u(SALT.incidentShape, 2));
      const rest = (1 - incP - incW) * T;
      // Recovery never makes the bus run more than 1.5x its planned pace.
      const recovery = Math.min(0.3 + 0.5 * u(SALT.incidentShape, 3), (0.5 * rest + drift * (1 - incP - incW)) / incM);
      end = d0 + drift + incM * (1 - Math.max(0, recovery));
    }
    s.d0[k] = d0;
    s.drift[k] = drift;
    s.incP[k] = incP;
    s.incW[k] = incW;
    s.incM[k] = incM;
    s.dEnd[k] = clampDelay(end, maxDelay);
    prevArrDelay[bus] = s.dEnd[k]!;
    prevTrip[bus] = k;
    s.blockStart[bus + 1]!++;
  }
  for (let b = 1; b < s.blockStart.length; b++) s.blockStart[b]! += s.blockStart[b - 1]!;
  const fill = s.blockStart.slice();
  for (let k = 0; k < count; k++) s.blockTrips[fill[s.busId[k]!]!++] = k;
  return s;
}

/** Delay (seconds) at a share `p` of the planned trip time, piecewise linear through the profile's knots. */
export function delayAtShare(s: DaySchedule, k: number, p: number): number {
  const d0 = s.d0[k]!;
  const drift = s.drift[k]!;
  const incM = s.incM[k]!;
  if (incM === 0) return d0 + (s.dEnd[k]! - d0) * p;
  const p1 = s.incP[k]!;
  const p2 = p1 + s.incW[k]!;
  // Clamping keeps the slope above -1 (the bus never runs backwards in time) and the day's end respected.
  const max = maxDelayOf(s, k);
  if (p <= p1) return Math.min(max, d0 + drift * p);
  if (p <= p2) return Math.min(max, d0 + drift * p + (incM * (p - p1)) / (p2 - p1));
  const at2 = Math.min(max, d0 + drift * p2 + incM);
  return at2 + ((s.dEnd[k]! - at2) * (p - p2)) / (1 - p2);
}

export interface TripProgress {
  /** Planned seconds into the trip the bus has reached. */
  tau: number;
  /** Current delay, seconds. */
  delayS: number;
  /** d(delay)/d(tau): how much slower than planned the bus is moving right now. */
  slope: number;
}

/**
 * Where the bus is on trip k, `elapsedS` real seconds after its planned departure, when it is running
 * (null before it leaves or once it has arrived). Solves tau + delay(tau) = elapsed on the knots.
 */
export function tripProgress(s: DaySchedule, k: number, elapsedS: number): TripProgress | null {
  const T = s.arrS[k]! - s.depS[k]!;
  if (elapsedS < s.d0[k]! || elapsedS >= T + s.dEnd[k]!) return null;
  const knots = s.incM[k]! === 0 ? [0, 1] : [0, s.incP[k]!, s.incP[k]! + s.incW[k]!, 1];
  for (let j = 1; j < knots.length; j++) {
    const pa = knots[j - 1]!;
    const pb = knots[j]!;
    const da = delayAtShare(s, k, pa);
    const db = delayAtShare(s, k, pb);
    const ta = pa * T + da;
    const tb = pb * T + db;
    if (elapsedS < tb || j === knots.length - 1) {
      const f = tb > ta ? (elapsedS - ta) / (tb - ta) : 0;
      const p = pa + f * (pb - pa);
      const slope = T > 0 && pb > pa ? (db - da) / ((pb - pa) * T) : 0;
      return { tau: p * T, delayS: da + f * (db - da), slope };
    }
  }
  return null;
}

/** Stable per-trip hash for details that need no storage (dwell times, fix jitter). */
export function tripHash(seed: number, s: DaySchedule, k: number, salt: number, n: number): number {
  return hashInts(seed, salt, s.day, s.route[k]!, s.dir[k]!, s.depS[k]!, n);
}
