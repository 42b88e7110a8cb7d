// The compact form of /api/live (`?shape=compact`, docs/live-compact.md): the same snapshot and deltas as the JSON
// form (lib/model/live.ts), in columns, with what does not change apart from what does. The server encodes it;
// the browser decodes it to the very LiveSnapshot the components read. Pure functions, shared by both. Encoding
// and decoding stay in one file (past 400 lines): each column's coding and its inverse are read side by side.
//
// - What belongs to the bus and not to the moment (plate, name, internal code) is the roster's
//   (lib/model/live-roster.ts), served apart: a full answer names the roster's version and leaves those out.
// - Numbers carry the precision the map uses: latitude and longitude in whole 1e-5 degrees (about a metre),
//   heading, speed and accuracy whole, every time in whole seconds from the answer's base second `t0` (a trip's
//   planned departure from the trip's before it, its planned arrival from its planned departure, its actual times
//   from the planned ones, a fetch and a fix as their ages: a fetch's at t0, a fix's when it was fetched).
// - Route codes and names, directions and statuses are listed once per answer and referred to by index.
// - Latitude and longitude count from the answer's origin `o`, bus ids from the row before; trips are listed by
//   trip id (ids and planned departures count from the trip before, which operators number in timetable order),
//   each naming its bus's row.
// - A delta sends a bus whose trip and names did not change since the viewer's version as its position alone
//   (`m`, "moved"); the browser keeps the trip and names it holds. A bus new or changed goes whole, names included.
import { decodeStrings, encodeSameRests, encodeStrings, decodeCodes, type CompactSameRests, type CompactStrings } from './compact-strings';
import type { DelayClass, LiveChanges, LiveDelta, LiveSnapshot, UnpositionedTrip, Vehicle, VehicleTrip } from './live';
import { applyLiveDelta } from './live-delta';
import type { LiveHealth } from './live-health';
import type { BusNames, CompactRoster, LiveRoster } from './live-roster';
import type { Health } from './upstream-health';

/** The value of `shape` in every compact answer: a browser that meets another one asks for the JSON form's data again. */
export const LIVE_COMPACT_SHAPE = 'compact-3';

/** Trips' columns, one row per trip, sorted by trip id. */
export interface CompactTrips {
  /** Index of the trip's [routeId, routeCode, routeName] in the answer's `r`. */
  r: number[];
  /** Direction and raw status: index into the answer's `s`, or null. */
  d: (number | null)[];
  st: (number | null)[];
  dm: (number | null)[];
  /** Index into DELAY_CLASS_ORDER. */
  dc: number[];
  /**
   * Seconds: planned departure (from the last non-null planned departure of the rows before, the first from t0),
   * planned arrival (from the planned departure, else t0), actual departure (from the planned departure, else t0),
   * actual arrival (from the planned arrival, else t0).
   */
  pd: (number | null)[];
  pa: (number | null)[];
  ad: (number | null)[];
  aa: (number | null)[];
}

/** Buses' trips: one row per bus on a trip, sorted by trip id. */
export interface CompactBusTrips extends CompactTrips {
  /** tripId, as its difference from the row before (the first from 0). */
  id: number[];
  /** The row of the trip's bus in the buses' columns. */
  b: number[];
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
  /**
   * Ages, in seconds: `g` the fix's when it was fetched (gpsAt before fetchedAt, before t0 when fetchedAt is null),
   * `f` the fetch's at t0 (fetchedAt before t0).
   */
  g: (number | null)[];
  f: (number | null)[];
}

/** Buses with their trips: a full answer's (their names are the roster's). */
export interface CompactVehicles extends CompactPositions {
  trips: CompactBusTrips;
}

/** Buses new or changed in a delta: with their names. */
export interface CompactNamedVehicles extends CompactVehicles {
  p: CompactStrings;
  n: CompactStrings;
  c: CompactStrings | CompactSameRests;
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
  /** Unpositioned trips, new or changed. */
  u: CompactUnpositioned;
  health: LiveHealth;
  thresholds: { lateMin: number; earlyMin: number };
  fullHealth?: Health;
}

export interface CompactFull extends CompactCommon {
  kind: 'full';
  /** The version of the roster (lib/model/live-roster.ts) that holds every bus's names. */
  roster: string;
  /** Every bus, without its names. */
  v: CompactVehicles;
}

export interface CompactDelta extends CompactCommon {
  kind: 'delta';
  since: number;
  /** Buses new or changed, in full. */
  v: CompactNamedVehicles;
  /** Buses that only moved: their trip and names are the ones the viewer holds. */
  m: CompactPositions;
  removedBusIds: number[];
  removedTripIds: number[];
}

export type CompactAnswer = CompactFull | CompactDelta;

/** A full compact answer with the roster it names: what a page is rendered with (lib/server/first-paint.ts). */
export interface CompactLiveWithRoster {
  live: CompactFull;
  roster: CompactRoster;
}

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

/** Trips' rows, in the order given (by trip id): each planned departure counts from the last one before it. */
function encodeTrips<T extends CompactTrips>(out: T, trips: readonly VehicleTrip[], tables: Tables): T {
  let prevPd = tables.t0;
  for (const t of trips) {
    const pd = sec(t.plannedDepartureAt);
    const pa = sec(t.plannedArrivalAt);
    const ad = sec(t.actualDepartureAt);
    const aa = sec(t.actualArrivalAt);
    out.r.push(tables.route(t));
    out.d.push(tables.string(t.direction));
    out.st.push(tables.string(t.status));
    out.dm.push(t.delayMinutes);
    out.dc.push(Math.max(0, DELAY_CLASS_ORDER.indexOf(t.delayClass)));
    out.pd.push(pd === null ? null : pd - prevPd);
    out.pa.push(pa === null ? null : pa - (pd ?? tables.t0));
    out.ad.push(ad === null ? null : ad - (pd ?? tables.t0));
    out.aa.push(aa === null ? null : aa - (pa ?? tables.t0));
    if (pd !== null) prevPd = pd;
  }
  return out;
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
  out.g.push(g === null ? null : (f ?? t0) - g);
  out.f.push(f === null ? null : t0 - f);
}

function encodeVehicles(vehicles: readonly Vehicle[], tables: Tables): CompactVehicles {
  const out = emptyPositions();
  let prev = 0;
  const onTrips: number[] = [];
  vehicles.forEach((v, row) => {
    pushPosition(out, v, prev, tables);
    prev = v.busId;
    if (v.trip !== null) onTrips.push(row);
  });
  onTrips.sort((a, b) => vehicles[a]!.trip!.tripId - vehicles[b]!.trip!.tripId);
  const trips = encodeTrips({ ...emptyTrips(), id: [] as number[], b: onTrips }, onTrips.map((row) => vehicles[row]!.trip!), tables);
  let prevTrip = 0;
  for (const row of onTrips) {
    const id = vehicles[row]!.trip!.tripId;
    trips.id.push(id - prevTrip);
    prevTrip = id;
  }
  return { ...out, trips };
}

function encodeNamedVehicles(vehicles: readonly Vehicle[], tables: Tables): CompactNamedVehicles {
  const n = encodeStrings(vehicles.map((v) => v.busName));
  const c = encodeSameRests(encodeStrings(vehicles.map((v) => v.internalCode)), n);
  return { ...encodeVehicles(vehicles, tables), p: encodeStrings(vehicles.map((v) => v.plateNumber)), n, c };
}

function encodeUnpositioned(trips: readonly UnpositionedTrip[], tables: Tables): CompactUnpositioned {
  const out: CompactUnpositioned = { id: [], b: [], p: encodeStrings(trips.map((t) => t.plateNumber)), n: encodeStrings(trips.map((t) => t.busName)), trips: encodeTrips(emptyTrips(), trips, tables) };
  let prev = 0;
  for (const t of trips) {
    out.id.push(t.tripId - prev);
    prev = t.tripId;
    out.b.push(t.busId);
  }
  return out;
}

const baseSecond = (generatedAt: number) => Math.floor(generatedAt / 1000);

/**
 * A full answer in the compact form, its buses' names left to the roster of version `roster` (made from the same
 * snapshot: lib/model/live-roster.ts); `fullHealth` for an administrator's.
 */
export function encodeCompactFull(s: LiveSnapshot, roster: string, fullHealth: Health | null = null): CompactFull {
  const tables = new Tables(baseSecond(s.generatedAt), originOf(s.vehicles));
  const v = encodeVehicles(s.vehicles, tables);
  const u = encodeUnpositioned(s.unpositionedTrips, tables);
  const out: CompactFull = { kind: 'full', shape: LIVE_COMPACT_SHAPE, epoch: s.epoch, version: s.version, generatedAt: s.generatedAt, roster, t0: tables.t0, o: tables.o, r: tables.r, s: tables.s, v, u, health: s.health, thresholds: s.thresholds };
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
  const v = encodeNamedVehicles(whole, tables);
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
const ms = (s: number | null, base: number): number | null => (s === null ? null : (base + s) * 1000);
const before = (s: number | null, base: number): number | null => (s === null ? null : (base - s) * 1000);

/** Trips' rows, in order, with the ids given (`idOf(row)`). */
function decodeTrips(c: CompactTrips, a: CompactCommon, idOf: (i: number) => number): VehicleTrip[] {
  const t0 = a.t0;
  const out: VehicleTrip[] = new Array(c.r.length);
  let prevPd = t0;
  for (let i = 0; i < c.r.length; i++) {
    const pd = c.pd[i]!;
    const pa = c.pa[i]!;
    const pdS = pd === null ? null : prevPd + pd;
    if (pdS !== null) prevPd = pdS;
    const paS = pa === null ? null : (pdS ?? t0) + pa;
    const r = c.r[i]! * 3;
    const d = c.d[i]!;
    const st = c.st[i]!;
    out[i] = {
      tripId: idOf(i),
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
  return out;
}

/** Row `i` of positions, with the names and trip given. */
function decodePosition(c: CompactPositions, i: number, busId: number, a: CompactCommon, names: BusNames, trip: VehicleTrip | null): Vehicle {
  const t0 = a.t0;
  return {
    busId,
    plateNumber: names.plateNumber,
    busName: names.busName,
    internalCode: names.internalCode,
    lat: fromDeg(c.lat[i]!, a.o[0]),
    lon: fromDeg(c.lon[i]!, a.o[1]),
    heading: c.hd[i]!,
    speedKmh: c.sp[i]!,
    accuracy: c.ac[i]!,
    gpsAt: before(c.g[i]!, c.f[i] === null ? t0 : t0 - c.f[i]!),
    fetchedAt: before(c.f[i]!, t0),
    trip,
  };
}

/** Each bus row's trip (null: none). */
function tripsByRow(c: CompactVehicles, a: CompactCommon): (VehicleTrip | null)[] {
  const byRow: (VehicleTrip | null)[] = new Array<VehicleTrip | null>(c.id.length).fill(null);
  let tripId = 0;
  const trips = decodeTrips(c.trips, a, (i) => (tripId += c.trips.id[i]!));
  for (let k = 0; k < trips.length; k++) {
    const row = c.trips.b[k]!;
    if (!(row >= 0 && row < byRow.length) || byRow[row] !== null) throw new Error(`compact answer: trip row ${k} names bus row ${row}, which is not a bus without a trip`);
    byRow[row] = trips[k]!;
  }
  return byRow;
}

/** Buses, each with the names `namesOf(row, busId)` gives. */
function decodeVehicles(c: CompactVehicles, a: CompactCommon, namesOf: (row: number, busId: number) => BusNames): Vehicle[] {
  const out: Vehicle[] = new Array(c.id.length);
  const trips = tripsByRow(c, a);
  let busId = 0;
  for (let i = 0; i < c.id.length; i++) {
    busId += c.id[i]!;
    out[i] = decodePosition(c, i, busId, a, namesOf(i, busId), trips[i]!);
  }
  return out;
}

function decodeNamedVehicles(c: CompactNamedVehicles, a: CompactCommon): Vehicle[] {
  const plates = decodeStrings(c.p);
  const names = decodeStrings(c.n);
  const codes = decodeCodes(c.c, c.n);
  return decodeVehicles(c, a, (i) => ({ plateNumber: plates[i]!, busName: names[i]!, internalCode: codes[i]! }));
}

function decodeUnpositioned(a: CompactCommon): UnpositionedTrip[] {
  const c = a.u;
  const plates = decodeStrings(c.p);
  const names = decodeStrings(c.n);
  let tripId = 0;
  const trips = decodeTrips(c.trips, a, (i) => (tripId += c.id[i]!));
  return trips.map((t, i) => ({ ...t, busId: c.b[i]!, plateNumber: plates[i]!, busName: names[i]! }));
}

/**
 * A compact full answer as the snapshot it stands for, its buses' names from `roster`, which must be the version
 * the answer names (the caller fetches it when it holds another: lib/client/queries.ts).
 */
export function decodeCompactFull(a: CompactFull, roster: LiveRoster): LiveSnapshot {
  if (roster.version !== a.roster) throw new Error(`compact answer: it names roster ${a.roster}, not ${roster.version}`);
  // Both are sorted by busId: the roster's row of each bus is found walking forward.
  let r = 0;
  const namesOf = (_row: number, busId: number): BusNames => {
    while (r < roster.busIds.length && roster.busIds[r]! < busId) r++;
    if (roster.busIds[r] !== busId) throw new Error(`compact answer: bus ${busId} is not in roster ${roster.version}`);
    return roster.names[r]!;
  };
  const s: LiveSnapshot = {
    generatedAt: a.generatedAt,
    epoch: a.epoch,
    version: a.version,
    vehicles: decodeVehicles(a.v, a, namesOf),
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
  const vehicles = decodeNamedVehicles(a.v, a);
  const m = a.m;
  let busId = 0;
  for (let i = 0; i < m.id.length; i++) {
    busId += m.id[i]!;
    const held = findBus(base.vehicles, busId);
    if (held === undefined) return null;
    vehicles.push(decodePosition(m, i, busId, a, held, held.trip));
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
