// The fleet table (/fleet): every bus of the organization, on a trip or not, with what a depot supervisor checks
// at 5 a.m.: which buses are out, and which have a GPS that stopped reporting. Pure: rows, GPS health, search,
// filters, sort, counts, the URL and the CSV all live here, so the table, its export and its tests share them.
// Each column formats its cell once, for the screen and the file alike.
import type { Bus, BusLastTrip, EpochMs, LastTripsResponse, LiveSnapshot, Route, VehicleTrip } from '@/lib/model';
import { locationAgeS } from '@/lib/placement/ages';
import { hasPosition } from '@/lib/placement/bus';
import { toCsv } from '@/lib/csv/csv';
import { formatAgo, formatDateTime, type DisplayZone } from './format';

/**
 * Read from the newest GPS time known (the bus list's last_gps_at or the last fix) and from the location answer:
 * fresh: at most STALE_AFTER_S old; stale: older, or a position of unknown age; no fix: the upstream answered the
 * bus's location without a readable position although the bus has reported GPS; never: no GPS time at all. A bus
 * whose location the feed has not asked yet is judged by the list's GPS time alone: not asking is the budget's
 * choice, not the bus's fault.
 */
export type GpsHealth = 'fresh' | 'stale' | 'no-fix' | 'never';
export const GPS_HEALTHS: readonly GpsHealth[] = ['fresh', 'stale', 'no-fix', 'never'];
export const GPS_HEALTH_LABELS: Record<GpsHealth, string> = { fresh: 'Fresh', stale: 'Stale', 'no-fix': 'No fix', never: 'Never reported' };

/** When the bus was last on a trip: now (the live snapshot), from history, or why it is not known. */
export type LastTripCell =
  | { kind: 'now'; tripId: number; routeCode: string | null }
  | { kind: 'recorded'; trip: BusLastTrip }
  | { kind: 'none-recorded' }
  | { kind: 'not-recorded' }
  | { kind: 'unavailable' };

export interface FleetRow {
  busId: number;
  plateNumber: string | null;
  busName: string | null;
  internalCode: string | null;
  brand: string | null;
  model: string | null;
  year: number | null;
  status: string | null;
  currentStatus: string | null;
  routeId: number | null;
  routeCode: string | null;
  /** The active trip the bus runs now, from the snapshot. */
  trip: Pick<VehicleTrip, 'tripId' | 'routeCode' | 'status'> | null;
  /** Newest GPS time known: the bus list's last_gps_at or the last fix, whichever is later. */
  lastGpsAt: EpochMs | null;
  /** As of the time the rows were built (FleetContext.now); the cells read it at theirs (gpsHealthAt). */
  gpsHealth: GpsHealth;
  lastTrip: LastTripCell;
}

/** History's answer as the table holds it: not asked yet / failed, or the response. */
export type LastTripsState = LastTripsResponse | 'unavailable' | 'loading';

export interface FleetContext {
  now: EpochMs;
  staleAfterS: number;
}

export function fleetRows(
  buses: readonly Bus[],
  snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'> | null,
  routes: readonly Route[],
  lastTrips: LastTripsState,
  ctx: FleetContext,
): FleetRow[] {
  const vehicles = new Map((snapshot?.vehicles ?? []).map((v) => [v.busId, v]));
  const unpositioned = new Map<number, VehicleTrip>();
  for (const t of snapshot?.unpositionedTrips ?? []) if (t.busId !== null && !unpositioned.has(t.busId)) unpositioned.set(t.busId, t);
  const routeCodes = new Map(routes.map((r) => [r.id, r.code ?? r.name]));
  return buses.map((bus) => {
    const v = vehicles.get(bus.id);
    const trip = v?.trip ?? unpositioned.get(bus.id) ?? null;
    const lastGpsAt = newest(bus.lastGpsAt, v?.gpsAt ?? null);
    const gpsAgeS = locationAgeS(lastGpsAt, ctx.now);
    const positioned = v !== undefined && hasPosition(v);
    const answeredWithoutPosition = v !== undefined && v.fetchedAt !== null && !positioned;
    const routeId = trip?.routeId ?? bus.currentRouteId;
    return {
      busId: bus.id,
      plateNumber: bus.plateNumber,
      busName: bus.busName,
      internalCode: bus.internalCode,
      brand: bus.brand,
      model: bus.model,
      year: bus.year,
      status: bus.status,
      currentStatus: bus.currentStatus,
      routeId,
      routeCode: trip?.routeCode ?? (routeId !== null ? (routeCodes.get(routeId) ?? null) : null),
      trip: trip ? { tripId: trip.tripId, routeCode: trip.routeCode, status: trip.status } : null,
      lastGpsAt,
      gpsHealth: gpsHealthOf({ positioned, answeredWithoutPosition }, gpsAgeS, lastGpsAt, ctx.staleAfterS),
      lastTrip: lastTripCell(bus.id, trip, lastTrips),
    };
  });
}

/**
 * A row's GPS health at a later time than it was built at: only a fresh GPS time ages into stale; the other
 * healths change with new data alone, and new data builds the rows again.
 */
export function gpsHealthAt(row: Pick<FleetRow, 'gpsHealth' | 'lastGpsAt'>, now: EpochMs, staleAfterS: number): GpsHealth {
  return row.gpsHealth === 'fresh' ? freshOrStale(locationAgeS(row.lastGpsAt, now), staleAfterS) : row.gpsHealth;
}

/** The one rule between fresh and stale: at most staleAfterS old; a GPS time of unknown age is stale. */
function freshOrStale(ageS: number | null, staleAfterS: number): 'fresh' | 'stale' {
  return ageS !== null && ageS <= staleAfterS ? 'fresh' : 'stale';
}

function newest(a: EpochMs | null, b: EpochMs | null): EpochMs | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

export function gpsHealthOf(
  fix: { positioned: boolean; answeredWithoutPosition: boolean },
  ageS: number | null,
  lastGpsAt: EpochMs | null,
  staleAfterS: number,
): GpsHealth {
  if (lastGpsAt === null) return fix.positioned ? 'stale' : 'never';
  if (fix.answeredWithoutPosition) return 'no-fix';
  return freshOrStale(ageS, staleAfterS);
}

function lastTripCell(busId: number, trip: VehicleTrip | null, lastTrips: LastTripsState): LastTripCell {
  if (trip) return { kind: 'now', tripId: trip.tripId, routeCode: trip.routeCode };
  if (lastTrips === 'loading' || lastTrips === 'unavailable') return { kind: 'unavailable' };
  if (!lastTrips.recorded) return { kind: 'not-recorded' };
  const recorded = lastTrips.byBus[String(busId)];
  return recorded ? { kind: 'recorded', trip: recorded } : { kind: 'none-recorded' };
}

// ---- columns: one formatter per column for the screen and the CSV ----

export const FLEET_SORT_KEYS = ['plate', 'name', 'code', 'model', 'year', 'status', 'currentStatus', 'route', 'trip', 'gpsAt', 'gpsHealth', 'lastTrip'] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

/**
 * What a cell is read at. The page builds, filters and sorts its rows with the data and at most every few seconds
 * (components/fleet/fleet-view.tsx); the age and the GPS health in a cell follow `now`, the one-second clock.
 */
export interface CellContext {
  zone: DisplayZone;
  now: EpochMs;
  staleAfterS: number;
}

export interface FleetColumn {
  key: FleetSortKey;
  label: string;
  cell: (row: FleetRow, ctx: CellContext) => string;
  /** Sort value; null sorts last whatever the direction. */
  sortValue: (row: FleetRow) => string | number | null;
  numeric?: boolean;
}

const DASH = '—';
const text = (v: string | null) => v ?? DASH;

export function modelLabel(row: Pick<FleetRow, 'brand' | 'model'>): string | null {
  const parts = [row.brand, row.model].filter((p): p is string => !!p);
  return parts.length ? parts.join(' ') : null;
}

export function lastTripLabel(c: LastTripCell, zone: DisplayZone): string {
  switch (c.kind) {
    case 'now':
      return 'on a trip now';
    case 'recorded':
      return `${formatDateTime(c.trip.lastSeenAt, zone)}${c.trip.routeCode ? ` · ${c.trip.routeCode}` : ''}`;
    case 'none-recorded':
      return 'none recorded';
    case 'not-recorded':
      return 'not recorded';
    case 'unavailable':
      return 'unavailable';
  }
}

function lastTripSortValue(c: LastTripCell): number | null {
  if (c.kind === 'now') return Number.MAX_SAFE_INTEGER;
  return c.kind === 'recorded' ? c.trip.lastSeenAt : null;
}

const GPS_HEALTH_ORDER: Record<GpsHealth, number> = { fresh: 0, stale: 1, 'no-fix': 2, never: 3 };

export const FLEET_COLUMNS: readonly FleetColumn[] = [
  { key: 'plate', label: 'Plate', cell: (r) => text(r.plateNumber), sortValue: (r) => r.plateNumber },
  { key: 'name', label: 'Name', cell: (r) => text(r.busName), sortValue: (r) => r.busName },
  { key: 'code', label: 'Internal code', cell: (r) => text(r.internalCode), sortValue: (r) => r.internalCode },
  { key: 'model', label: 'Model', cell: (r) => text(modelLabel(r)), sortValue: (r) => modelLabel(r) },
  { key: 'year', label: 'Year', cell: (r) => (r.year === null ? DASH : String(r.year)), sortValue: (r) => r.year, numeric: true },
  { key: 'status', label: 'Status', cell: (r) => text(r.status), sortValue: (r) => r.status },
  { key: 'currentStatus', label: 'Current status', cell: (r) => text(r.currentStatus), sortValue: (r) => r.currentStatus },
  { key: 'route', label: 'Route', cell: (r) => text(r.routeCode), sortValue: (r) => r.routeCode },
  { key: 'trip', label: 'Trip', cell: (r) => (r.trip ? String(r.trip.tripId) : DASH), sortValue: (r) => r.trip?.tripId ?? null, numeric: true },
  { key: 'gpsAt', label: 'Last GPS', cell: (r, c) => formatDateTime(r.lastGpsAt, c.zone), sortValue: (r) => r.lastGpsAt, numeric: true },
  // The age sorts with the GPS time (a later time is a smaller age); it has no sort of its own.
  { key: 'gpsHealth', label: 'GPS', cell: (r, c) => GPS_HEALTH_LABELS[gpsHealthAt(r, c.now, c.staleAfterS)], sortValue: (r) => GPS_HEALTH_ORDER[r.gpsHealth] },
  { key: 'lastTrip', label: 'Last on a trip', cell: (r, c) => lastTripLabel(r.lastTrip, c.zone), sortValue: (r) => lastTripSortValue(r.lastTrip) },
];

/** The GPS age column sits after the GPS time; it is not a sort key (the time sorts it). */
export const GPS_AGE_LABEL = 'GPS age';
export function gpsAgeCell(row: FleetRow, ctx: Pick<CellContext, 'now'>): string {
  return row.lastGpsAt === null ? DASH : formatAgo(locationAgeS(row.lastGpsAt, ctx.now));
}

/** Column labels in the order the table and the CSV show them. */
export function fleetHeader(): string[] {
  const out: string[] = [];
  for (const c of FLEET_COLUMNS) {
    out.push(c.label);
    if (c.key === 'gpsAt') out.push(GPS_AGE_LABEL);
  }
  return out;
}

/** One row's cells in header order. */
export function fleetCells(row: FleetRow, ctx: CellContext): string[] {
  const out: string[] = [];
  for (const c of FLEET_COLUMNS) {
    out.push(c.cell(row, ctx));
    if (c.key === 'gpsAt') out.push(gpsAgeCell(row, ctx));
  }
  return out;
}

// ---- filters, search, sort ----

export type TripFilter = 'on' | 'off' | null;

export interface FleetFilters {
  query: string;
  /** Empty: every GPS health. */
  gps: GpsHealth[];
  /** Raw `status` value; null: any. */
  status: string | null;
  /** On a trip now, not on one, or either. */
  onTrip: TripFilter;
}

export const NO_FLEET_FILTERS: FleetFilters = { query: '', gps: [], status: null, onTrip: null };

/** Case-insensitive match on plate, name, internal code, model, route code; the bus id or trip id by prefix. */
export function matchesFleetQuery(row: FleetRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const hay = [row.plateNumber, row.busName, row.internalCode, modelLabel(row), row.routeCode];
  if (hay.some((h) => h?.toLowerCase().includes(q))) return true;
  const id = q.startsWith('#') ? q.slice(1) : q;
  return /^\d+$/.test(id) && (String(row.busId).startsWith(id) || (row.trip !== null && String(row.trip.tripId).startsWith(id)));
}

export function filterFleet(rows: readonly FleetRow[], f: FleetFilters): FleetRow[] {
  return rows.filter(
    (r) =>
      (f.gps.length === 0 || f.gps.includes(r.gpsHealth)) &&
      (f.status === null || r.status === f.status) &&
      (f.onTrip === null || (f.onTrip === 'on') === (r.trip !== null)) &&
      matchesFleetQuery(r, f.query),
  );
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * A text's natural-order key, made once per row: lower-cased runs of letters and runs of digits as numbers
 * (`BA12` before `BA101`). A collator compare per pair costs some 300 ms for 10,000 buses; keys compare in a
 * tenth of that.
 */
function naturalKey(s: string): Array<string | number> {
  return (s.toLowerCase().match(/\d+|\D+/g) ?? []).map((part) => (/^\d/.test(part) ? Number(part) : part));
}

function compareKeys(a: Array<string | number>, b: Array<string | number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    // A number before text at the same place, as the collator orders digits before letters.
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Stable: ties keep the bus id order. Missing values sort last in either direction. */
export function sortFleet(rows: readonly FleetRow[], key: FleetSortKey, dir: SortDir): FleetRow[] {
  const col = FLEET_COLUMNS.find((c) => c.key === key)!;
  const sign = dir === 'asc' ? 1 : -1;
  const keyed = rows.map((r) => {
    const v = col.sortValue(r);
    return { r, v: typeof v === 'string' ? naturalKey(v) : v };
  });
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v === b.v) return a.r.busId - b.r.busId;
      return a.v === null ? 1 : -1;
    }
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : compareKeys(a.v as Array<string | number>, b.v as Array<string | number>);
    return c !== 0 ? sign * c : a.r.busId - b.r.busId;
  });
  return keyed.map((k) => k.r);
}

export interface FleetCounts {
  buses: number;
  onTrip: number;
  gps: Record<GpsHealth, number>;
}

export function fleetCounts(rows: readonly FleetRow[]): FleetCounts {
  const gps: Record<GpsHealth, number> = { fresh: 0, stale: 0, 'no-fix': 0, never: 0 };
  let onTrip = 0;
  for (const r of rows) {
    gps[r.gpsHealth]++;
    if (r.trip) onTrip++;
  }
  return { buses: rows.length, onTrip, gps };
}

/** The raw status values present, for the status filter's choices. */
export function statusValues(rows: readonly FleetRow[]): string[] {
  return [...new Set(rows.map((r) => r.status).filter((s): s is string => s !== null))].sort(collator.compare);
}

// ---- the URL ----

export interface FleetUrlState {
  filters: FleetFilters;
  sort: FleetSortKey;
  dir: SortDir;
}

export const DEFAULT_FLEET_SORT: FleetSortKey = 'plate';

type Params = Pick<URLSearchParams, 'get'>;

export function parseFleetUrl(params: Params): FleetUrlState {
  const sort = params.get('sort');
  const gps = (params.get('gps') ?? '').split(',').filter((g): g is GpsHealth => (GPS_HEALTHS as readonly string[]).includes(g));
  const trip = params.get('trip');
  return {
    filters: {
      query: (params.get('q') ?? '').slice(0, 100),
      gps: GPS_HEALTHS.filter((g) => gps.includes(g)),
      status: params.get('status')?.slice(0, 100) || null,
      onTrip: trip === 'on' || trip === 'off' ? trip : null,
    },
    sort: sort !== null && (FLEET_SORT_KEYS as readonly string[]).includes(sort) ? (sort as FleetSortKey) : DEFAULT_FLEET_SORT,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** The query string without `?`, keys in a fixed order, defaults left out. */
export function serializeFleetUrl(s: FleetUrlState): string {
  const p = new URLSearchParams();
  if (s.filters.query) p.set('q', s.filters.query);
  if (s.filters.gps.length) p.set('gps', GPS_HEALTHS.filter((g) => s.filters.gps.includes(g)).join(','));
  if (s.filters.status !== null) p.set('status', s.filters.status);
  if (s.filters.onTrip !== null) p.set('trip', s.filters.onTrip);
  if (s.sort !== DEFAULT_FLEET_SORT) p.set('sort', s.sort);
  if (s.dir !== 'asc') p.set('dir', s.dir);
  return p.toString();
}

// ---- the CSV ----

export interface FleetCsvContext extends CellContext {
  dataAt: EpochMs;
  exportedAt: EpochMs;
  /** The zone's name as the page shows it. */
  zoneName: string;
  state: FleetUrlState;
}

export function describeFleetFilters(f: FleetFilters): string {
  return [
    `search: ${f.query || 'none'}`,
    `GPS: ${f.gps.length ? f.gps.map((g) => GPS_HEALTH_LABELS[g]).join(', ') : 'all'}`,
    `status: ${f.status ?? 'all'}`,
    `trip: ${f.onTrip === 'on' ? 'on a trip' : f.onTrip === 'off' ? 'not on a trip' : 'all'}`,
  ].join('; ');
}

/** The table as shown, in its order: `#` lines with the context, the header, one line per row. */
export function fleetCsv(rows: readonly FleetRow[], ctx: FleetCsvContext): string {
  const col = FLEET_COLUMNS.find((c) => c.key === ctx.state.sort)!;
  return toCsv([
    ['# Fleetmap fleet'],
    ['# Data at', new Date(ctx.dataAt).toISOString()],
    ['# Exported at', new Date(ctx.exportedAt).toISOString()],
    ['# Times in', ctx.zoneName],
    ['# Filters', describeFleetFilters(ctx.state.filters)],
    ['# Sort', `${col.label} ${ctx.state.dir === 'asc' ? 'ascending' : 'descending'}`],
    fleetHeader(),
    ...rows.map((r) => fleetCells(r, ctx)),
  ]);
}
