// The compact form of /api/live (`?shape=compact`, docs/live-compact.md): the same snapshot and deltas as the JSON
// form (lib/model/live.ts), in columns, with what does not change apart from what does. The server encodes it;
// the browser decodes it to the very LiveSnapshot the components read. Pure functions, shared by both.
//
// - Numbers carry the precision the map uses: latitude and longitude in whole 1e-5 degrees (about a metre),
//   heading, speed and accuracy whole, every time in whole seconds from the answer's base second `t0` (a trip's
//   planned arrival from its planned departure, its actual times from the planned ones, a fix's time from when it
//   was fetched).
// - Route codes and names, directions and statuses are listed once per answer and referred to by index; a string
//   column (plates, names) says its common prefix once, a rest that is a whole number goes as a number, and one
//   that is one more than a number a few rows before goes as a reference back to it (fleets number their buses in
//   series). Internal codes whose rests are the bus names' say so instead of repeating them.
// - Latitude and longitude count from the answer's origin `o`, trip ids from the row before.
// - A delta sends a bus whose trip and names did not change since the viewer's version as its position alone
//   (`m`, "moved"); the browser keeps the trip and names it holds.
import type { DelayClass, LiveChanges, LiveDelta, LiveSnapshot, UnpositionedTrip, Vehicle, VehicleTrip } from './live';
import { applyLiveDelta } from './live-delta';
import type { LiveHealth } from './live-health';
import type { Health } from './upstream-health';

/** The value of `shape` in every compact answer: a browser that meets another one asks for the JSON form's data again. */
export const LIVE_COMPACT_SHAPE = 'compact-2';

/** Trips' columns, one row per trip of the rows they go with (in the owners' order). */
export interface CompactTrips {
  /** Index of the trip's [routeId, routeCode, routeName] in the answer's `r`. */
  r: number[];
  /** Direction and raw status: index into the answer's `s`, or null. */
  d: (number | null)[];
  st: (number | null)[];
  dm: (number | null)[];
  /** Index into DELAY_CLASS_ORDER. */
  dc: number[];
  /** Planned departure (from t0), planned arrival (from the planned departure, else t0), actual departure (from the planned departure, else t0), actual arrival (from the planned arrival, else t0): seconds. */
  pd: (number | null)[];
  pa: (number | null)[];
  ad: (number | null)[];
  aa: (number | null)[];
}

/**
 * A column of strings: each value is `x` followed by its rest in `v`, or null. A whole number ≥ 0 stands for its
 * decimal digits; a negative one, -k, for one more than the number the row k rows before stands for.
 */
export interface CompactStrings {
  x: string;
  v: (string | number | null)[];
}

/** A column of strings whose rests are those of the column named by `restsOf`, each after this column's own `x`. */
export interface CompactSameRests {
  x: string;
  restsOf: 'n';
}

/** Buses' positions: one row per bus, sorted by busId. */
export interface CompactPositions {
  /** busId, as its difference from the row before (the first from 0). */
  id: number[];
  /** Latitude and longitude in 1e-5 degrees, from the answer's origin `o`. */
  lat: (number | null)[];
  lon: (number | null)[];
  hd: (number | null)[];
  sp: (number | null)[];
  ac: (number | null)[];
  /** gpsAt in seconds from fetchedAt (from t0 when fetchedAt is null); fetchedAt in seconds from t0. */
  g: (number | null)[];
  f: (number | null)[];
}

/** Buses in full: position, names and trip. */
export interface CompactVehicles extends CompactPositions {
  p: CompactStrings;
  n: CompactStrings;
  c: CompactStrings | CompactSameRests;
  /**
   * tripId as its difference from the last non-null one before it (the first from 0), null for a bus with no trip;
   * the trips' columns hold one row per non-null tripId, in order.
   */
  t: (number | null)[];
  trips: CompactTrips;
}

export interface CompactUnpositioned {
  /** tripId, as its difference from the row before (the first from 0): rows are sorted by tripId. */
  id: number[];
  b: (number | null)[];
  p: CompactStrings;
  n: CompactStrings;
  trips: CompactTrips;
}

interface CompactCommon {
  shape: typeof LIVE_COMPACT_SHAPE;
  epoch: string;
  version: number;
  generatedAt: number;
  /** The base second every time counts from. */
  t0: number;
  /** The origin latitudes and longitudes count from, in 1e-5 degrees. */
  o: [number, number];
  /** Routes, flat: routeId, routeCode, routeName, then the next route's. */
  r: (number | string | null)[];
  /** Directions and statuses. */
  s: string[];
  /** Buses new or changed, in full. */
  v: CompactVehicles;
  /** Unpositioned trips, new or changed. */
  u: CompactUnpositioned;
  health: LiveHealth;
  thresholds: { lateMin: number; earlyMin: number };
  fullHealth?: Health;
}

export interface CompactFull extends CompactCommon {
  kind: 'full';
}

export interface CompactDelta extends CompactCommon {
  kind: 'delta';
  since: number;
  /** Buses that only moved: their trip and names are the ones the viewer holds. */
  m: CompactPositions;
  removedBusIds: number[];
  removedTripIds: number[];
}

export type CompactAnswer = CompactFull | CompactDelta;

const DELAY_CLASS_ORDER: readonly DelayClass[] = ['early', 'on-time', 'late', 'unknown'];

// --- encoding --------------------------------------------------------------------------------------------------

const round = (x: number | null): number | null => (x === null ? null : Math.round(x));
const deg = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e5));
const sec = (ms: number | null): number | null => (ms === null ? null : Math.round(ms / 1000));

/** The tables one answer's rows refer to, and the bases its numbers count from. */
class Tables {
  readonly r: (number | string | null)[] = [];
  readonly s: string[] = [];
  private readonly routes = new Map<string, number>();
  private readonly strings = new Map<string, number>();
  constructor(
    readonly t0: number,
    readonly o: [number, number],
  ) {}

  route(t: VehicleTrip): number {
    const key = `${t.routeId}\u0000${t.routeCode}\u0000${t.routeName}`;
    let i = this.routes.get(key);
    if (i === undefined) {
      i = this.r.length / 3;
      this.r.push(t.routeId, t.routeCode, t.routeName);
      this.routes.set(key, i);
    }
    return i;
  }

  string(x: string | null): number | null {
    if (x === null) return null;
    let i = this.strings.get(x);
    if (i === undefined) {
      i = this.s.length;
      this.s.push(x);
      this.strings.set(x, i);
    }
    return i;
  }
}

const emptyTrips = (): CompactTrips => ({ r: [], d: [], st: [], dm: [], dc: [], pd: [], pa: [], ad: [], aa: [] });

function pushTrip(out: CompactTrips, t: VehicleTrip, tables: Tables): void {
  const t0 = tables.t0;
  const pd = sec(t.plannedDepartureAt);
  const pa = sec(t.plannedArrivalAt);
  const ad = sec(t.actualDepartureAt);
  const aa = sec(t.actualArrivalAt);
  out.r.push(tables.route(t));
  out.d.push(tables.string(t.direction));
  out.st.push(tables.string(t.status));
  out.dm.push(t.delayMinutes);
  out.dc.push(Math.max(0, DELAY_CLASS_ORDER.indexOf(t.delayClass)));
  out.pd.push(pd === null ? null : pd - t0);
  out.pa.push(pa === null ? null : pa - (pd ?? t0));
  out.ad.push(ad === null ? null : ad - (pd ?? t0));
  out.aa.push(aa === null ? null : aa - (pa ?? t0));
}

const emptyPositions = (): CompactPositions => ({ id: [], lat: [], lon: [], hd: [], sp: [], ac: [], g: [], f: [] });

/** The smallest latitude and longitude of `vehicles` (0 when none has one), in 1e-5 degrees. */
function originOf(vehicles: readonly Vehicle[]): [number, number] {
  let lat = Number.POSITIVE_INFINITY;
  let lon = Number.POSITIVE_INFINITY;
  for (const v of vehicles) {
    if (v.lat !== null) lat = Math.min(lat, deg(v.lat)!);
    if (v.lon !== null) lon = Math.min(lon, deg(v.lon)!);
  }
  return [Number.isFinite(lat) ? lat : 0, Number.isFinite(lon) ? lon : 0];
}

const WHOLE = /^(0|[1-9][0-9]{0,14})$/;

function encodeStrings(values: readonly (string | null)[]): CompactStrings {
  let x: string | null = null;
  for (const s of values) {
    if (s === null) continue;
    if (x === null) x = s;
    else {
      let i = 0;
      while (i < x.length && i < s.length && x[i] === s[i]) i++;
      x = x.slice(0, i);
    }
    if (x === '') break;
  }
  // A rest of digits alone goes as a number: the prefix then stops before the digits (so "#7100" and "#7200" are
  // "#" with 7100 and 7200, not "#7" with "100" and "200").
  x = (x ?? '').replace(/[0-9]+$/, '');
  const n = x.length;
  // The row each whole number was last seen at, so that its successor can refer back to it.
  const lastRow = new Map<number, number>();
  const v = values.map((s, row): string | number | null => {
    if (s === null) return null;
    const rest = s.slice(n);
    if (!WHOLE.test(rest)) return rest;
    const num = Number(rest);
    const before = lastRow.get(num - 1);
    lastRow.set(num, row);
    return before !== undefined && row - before < num ? before - row : num;
  });
  return { x, v };
}

/** `c` as the rests of `n` (each after its own prefix) when they are those rests, row for row. */
function encodeSameRests(c: CompactStrings, n: CompactStrings): CompactStrings | CompactSameRests {
  const same = c.v.length === n.v.length && c.v.every((r, i) => r === n.v[i]);
  return same ? { x: c.x, restsOf: 'n' } : c;
}

function pushPosition(out: CompactPositions, v: Vehicle, prevId: number, tables: Tables): void {
  const t0 = tables.t0;
  const g = sec(v.gpsAt);
  const f = sec(v.fetchedAt);
  out.id.push(v.busId - prevId);
  out.lat.push(v.lat === null ? null : deg(v.lat)! - tables.o[0]);
  out.lon.push(v.lon === null ? null : deg(v.lon)! - tables.o[1]);
  out.hd.push(round(v.heading));
  out.sp.push(round(v.speedKmh));
  out.ac.push(round(v.accuracy));
  out.g.push(g === null ? null : g - (f ?? t0));
  out.f.push(f === null ? null : f - t0);
}

function encodeVehicles(vehicles: readonly Vehicle[], tables: Tables): CompactVehicles {
  const n = encodeStrings(vehicles.map((v) => v.busName));
  const c = encodeSameRests(encodeStrings(vehicles.map((v) => v.internalCode)), n);
  const out: CompactVehicles = { ...emptyPositions(), p: encodeStrings(vehicles.map((v) => v.plateNumber)), n, c, t: [], trips: emptyTrips() };
  let prev = 0;
  let prevTrip = 0;
  for (const v of vehicles) {
    pushPosition(out, v, prev, tables);
    prev = v.busId;
    if (v.trip === null) out.t.push(null);
    else {
      out.t.push(v.trip.tripId - prevTrip);
      prevTrip = v.trip.tripId;
      pushTrip(out.trips, v.trip, tables);
    }
  }
  return out;
}

function encodeUnpositioned(trips: readonly UnpositionedTrip[], tables: Tables): CompactUnpositioned {
  const out: CompactUnpositioned = { id: [], b: [], p: encodeStrings(trips.map((t) => t.plateNumber)), n: encodeStrings(trips.map((t) => t.busName)), trips: emptyTrips() };
  let prev = 0;
  for (const t of trips) {
    out.id.push(t.tripId - prev);
    prev = t.tripId;
    out.b.push(t.busId);
    pushTrip(out.trips, t, tables);
  }
  return out;
}

const baseSecond = (generatedAt: number) => Math.floor(generatedAt / 1000);

/** A full answer in the compact form (`fullHealth` for an administrator's). */
export function encodeCompactFull(s: LiveSnapshot, fullHealth: Health | null = null): CompactFull {
  const tables = new Tables(baseSecond(s.generatedAt), originOf(s.vehicles));
  const v = encodeVehicles(s.vehicles, tables);
  const u = encodeUnpositioned(s.unpositionedTrips, tables);
  const out: CompactFull = { kind: 'full', shape: LIVE_COMPACT_SHAPE, epoch: s.epoch, version: s.version, generatedAt: s.generatedAt, t0: tables.t0, o: tables.o, r: tables.r, s: tables.s, v, u, health: s.health, thresholds: s.thresholds };
  if (fullHealth) out.fullHealth = fullHealth;
  return out;
}

/**
 * The change from version `since` to `s` in the compact form. `movedOnly(busId)` says that bus's trip and names
 * are the same as at `since` (the viewer's version), so that its position alone is sent.
 */
export function encodeCompactDelta(s: LiveSnapshot, since: number, changes: LiveChanges, movedOnly: (busId: number) => boolean = () => false, fullHealth: Health | null = null): CompactDelta {
  const tables = new Tables(baseSecond(s.generatedAt), originOf(changes.vehicles));
  const whole: Vehicle[] = [];
  const m = emptyPositions();
  let prev = 0;
  for (const v of changes.vehicles) {
    if (!movedOnly(v.busId)) whole.push(v);
    else {
      pushPosition(m, v, prev, tables);
      prev = v.busId;
    }
  }
  const v = encodeVehicles(whole, tables);
  const u = encodeUnpositioned(changes.unpositionedTrips, tables);
  const out: CompactDelta = {
    kind: 'delta',
    shape: LIVE_COMPACT_SHAPE,
    epoch: s.epoch,
    since,
    version: s.version,
    generatedAt: s.generatedAt,
    t0: tables.t0,
    o: tables.o,
    r: tables.r,
    s: tables.s,
    v,
    m,
    u,
    removedBusIds: changes.removedBusIds,
    removedTripIds: changes.removedTripIds,
    health: s.health,
    thresholds: s.thresholds,
  };
  if (fullHealth) out.fullHealth = fullHealth;
  return out;
}

/** A vehicle's trip and names, as one string: what a delta leaves out when it did not change. */
export function vehicleSlowPart(v: Vehicle): string {
  return JSON.stringify([v.plateNumber, v.busName, v.internalCode, v.trip]);
}

// --- decoding --------------------------------------------------------------------------------------------------

const fromDeg = (x: number | null, origin: number): number | null => (x === null ? null : (x + origin) / 1e5);

/** A string column's values, its references back resolved. */
function decodeStrings(c: CompactStrings): (string | null)[] {
  const nums: number[] = new Array(c.v.length);
  return c.v.map((v, row) => {
    if (v === null) return null;
    if (typeof v === 'string') return c.x + v;
    const num = v >= 0 ? v : nums[row + v]! + 1;
    if (!Number.isInteger(num)) throw new Error(`compact string column: row ${row} refers to a row without a number`);
    nums[row] = num;
    return c.x + String(num);
  });
}

/** The internal codes' column: its own, or the names' rests after its own prefix. */
function decodeCodes(c: CompactStrings | CompactSameRests, n: CompactStrings): (string | null)[] {
  return 'restsOf' in c ? decodeStrings({ x: c.x, v: n.v }) : decodeStrings(c);
}
const ms = (s: number | null, base: number): number | null => (s === null ? null : (base + s) * 1000);

function decodeTrip(c: CompactTrips, i: number, a: CompactCommon, tripId: number): VehicleTrip {
  const t0 = a.t0;
  const pd = c.pd[i]!;
  const pa = c.pa[i]!;
  const pdS = pd === null ? null : t0 + pd;
  const paS = pa === null ? null : (pdS ?? t0) + pa;
  const r = c.r[i]! * 3;
  const d = c.d[i]!;
  const st = c.st[i]!;
  return {
    tripId,
    routeId: a.r[r] as number | null,
    routeCode: a.r[r + 1] as string | null,
    routeName: a.r[r + 2] as string | null,
    direction: d === null ? null : a.s[d]!,
    status: st === null ? null : a.s[st]!,
    delayMinutes: c.dm[i]!,
    delayClass: DELAY_CLASS_ORDER[c.dc[i]!] ?? 'unknown',
    plannedDepartureAt: pdS === null ? null : pdS * 1000,
    plannedArrivalAt: paS === null ? null : paS * 1000,
    actualDepartureAt: ms(c.ad[i]!, pdS ?? t0),
    actualArrivalAt: ms(c.aa[i]!, paS ?? t0),
  };
}

/** Row `i` of positions, with the names and trip given. */
function decodePosition(c: CompactPositions, i: number, busId: number, a: CompactCommon, rest: Pick<Vehicle, 'plateNumber' | 'busName' | 'internalCode' | 'trip'>): Vehicle {
  const t0 = a.t0;
  return {
    busId,
    plateNumber: rest.plateNumber,
    busName: rest.busName,
    internalCode: rest.internalCode,
    lat: fromDeg(c.lat[i]!, a.o[0]),
    lon: fromDeg(c.lon[i]!, a.o[1]),
    heading: c.hd[i]!,
    speedKmh: c.sp[i]!,
    accuracy: c.ac[i]!,
    gpsAt: ms(c.g[i]!, c.f[i] === null ? t0 : t0 + c.f[i]!),
    fetchedAt: ms(c.f[i]!, t0),
    trip: rest.trip,
  };
}

function decodeVehicles(a: CompactCommon): Vehicle[] {
  const c = a.v;
  const out: Vehicle[] = new Array(c.id.length);
  let busId = 0;
  let tripId = 0;
  let k = 0;
  const plates = decodeStrings(c.p);
  const names = decodeStrings(c.n);
  const codes = decodeCodes(c.c, c.n);
  for (let i = 0; i < c.id.length; i++) {
    busId += c.id[i]!;
    const dt = c.t[i]!;
    if (dt !== null) tripId += dt;
    const trip = dt === null ? null : decodeTrip(c.trips, k++, a, tripId);
    out[i] = decodePosition(c, i, busId, a, { plateNumber: plates[i]!, busName: names[i]!, internalCode: codes[i]!, trip });
  }
  return out;
}

function decodeUnpositioned(a: CompactCommon): UnpositionedTrip[] {
  const c = a.u;
  const out: UnpositionedTrip[] = new Array(c.id.length);
  let tripId = 0;
  const plates = decodeStrings(c.p);
  const names = decodeStrings(c.n);
  for (let i = 0; i < c.id.length; i++) {
    tripId += c.id[i]!;
    out[i] = { ...decodeTrip(c.trips, i, a, tripId), busId: c.b[i]!, plateNumber: plates[i]!, busName: names[i]! };
  }
  return out;
}

/** A compact full answer as the snapshot it stands for. */
export function decodeCompactFull(a: CompactFull): LiveSnapshot {
  const s: LiveSnapshot = {
    generatedAt: a.generatedAt,
    epoch: a.epoch,
    version: a.version,
    vehicles: decodeVehicles(a),
    unpositionedTrips: decodeUnpositioned(a),
    health: a.health,
    thresholds: a.thresholds,
  };
  if (a.fullHealth) s.fullHealth = a.fullHealth;
  return s;
}

/** The vehicle of `busId` in `sorted` (sorted by busId), by bisection. */
function findBus(sorted: readonly Vehicle[], busId: number): Vehicle | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = sorted[mid]!.busId;
    if (id === busId) return sorted[mid];
    if (id < busId) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * `base` moved on by a compact delta; null when the delta does not follow `base` (another version, or a bus it
 * says only moved that `base` lacks): the caller then asks for a full answer.
 */
export function applyCompactDelta(base: LiveSnapshot, a: CompactDelta): LiveSnapshot | null {
  if (a.epoch !== base.epoch || a.since !== base.version) return null;
  const vehicles = decodeVehicles(a);
  const m = a.m;
  let busId = 0;
  for (let i = 0; i < m.id.length; i++) {
    busId += m.id[i]!;
    const held = findBus(base.vehicles, busId);
    if (held === undefined) return null;
    vehicles.push(decodePosition(m, i, busId, a, held));
  }
  const delta: LiveDelta = {
    kind: 'delta',
    epoch: a.epoch,
    since: a.since,
    version: a.version,
    generatedAt: a.generatedAt,
    vehicles,
    removedBusIds: a.removedBusIds,
    unpositionedTrips: decodeUnpositioned(a),
    removedTripIds: a.removedTripIds,
    health: a.health,
    thresholds: a.thresholds,
  };
  if (a.fullHealth) delta.fullHealth = a.fullHealth;
  return applyLiveDelta(base, delta);
}
