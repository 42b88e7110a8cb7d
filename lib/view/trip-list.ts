// The dispatcher's list of active trips (the one projection, lib/view/trips.ts): search, filters, sort,
// per-class counts and what a selection points at. Pure, so the list and its tests share one implementation.
import type { DelayClass, EpochMs, HeadwayClass, RouteHeadways } from '@/lib/model';
import { isStaleAge, locationAgeS } from '@/lib/placement/ages';
import { formatDelay } from './format';
import type { ActiveTrip } from './trips';

export const SORT_KEYS = ['delay', 'route', 'age'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const DELAY_CLASSES: readonly DelayClass[] = ['late', 'on-time', 'early', 'unknown'];

export interface TripFilters {
  query: string;
  routeId: number | null;
  direction: string | null;
  /** Empty means every class. */
  delayClasses: DelayClass[];
  /** Only trips whose bus position is stale or missing. */
  staleOnly: boolean;
  /** Only bunched or gapped trips (live headways, lib/regularity); null: any spacing. */
  spacing: SpacingFilter | null;
}

export const SPACING_FILTERS = ['bunched', 'gapped'] as const;
export type SpacingFilter = (typeof SPACING_FILTERS)[number];

export const NO_FILTERS: TripFilters = { query: '', routeId: null, direction: null, delayClasses: [], staleOnly: false, spacing: null };

export interface RowContext {
  now: EpochMs;
  staleAfterS: number;
  /** Each trip's spacing class (spacingByTrip); needed only while the spacing filter is on. */
  spacing?: ReadonlyMap<number, HeadwayClass>;
}

/**
 * Each trip's spacing from live headways: a follower takes its gap's class, and both buses of a bunched pair are
 * bunched (the one ahead runs as close to the one behind as the one behind to it).
 */
export function spacingByTrip(routes: readonly RouteHeadways[]): Map<number, HeadwayClass> {
  const out = new Map<number, HeadwayClass>();
  for (const r of routes) {
    for (const d of r.directions) {
      for (const g of d.gaps) {
        if (out.get(g.followerTripId) !== 'bunched') out.set(g.followerTripId, g.cls);
        if (g.cls === 'bunched') out.set(g.leaderTripId, 'bunched');
      }
    }
  }
  return out;
}

/** Seconds since the fix of the trip's bus; null without a position. */
export function tripAgeS(row: ActiveTrip, now: EpochMs): number | null {
  return row.positioned ? locationAgeS(row.gpsAt, now) : null;
}

/** Case-insensitive match on plate, bus name, internal code, route code and name; trip id by prefix. */
export function matchesQuery(row: ActiveTrip, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const hay = [row.plateNumber, row.busName, row.internalCode, row.routeCode, row.routeName];
  if (hay.some((h) => h?.toLowerCase().includes(q))) return true;
  const idQuery = q.startsWith('#') ? q.slice(1) : q;
  return /^\d+$/.test(idQuery) && String(row.tripId).startsWith(idQuery);
}

function matchesAllButClass(row: ActiveTrip, f: TripFilters, ctx: RowContext): boolean {
  if (f.routeId !== null && row.routeId !== f.routeId) return false;
  if (f.direction !== null && row.direction !== f.direction) return false;
  if (f.staleOnly && !isStaleAge(tripAgeS(row, ctx.now), ctx.staleAfterS)) return false;
  if (f.spacing !== null && ctx.spacing?.get(row.tripId) !== f.spacing) return false;
  return matchesQuery(row, f.query);
}

export type ClassCounts = Record<DelayClass, number>;

/**
 * The rows to show and the count of each delay class among rows passing every other filter, so each class
 * button says how many trips it would add.
 */
export function filterTrips(rows: readonly ActiveTrip[], f: TripFilters, ctx: RowContext): { rows: ActiveTrip[]; counts: ClassCounts } {
  const counts: ClassCounts = { late: 0, 'on-time': 0, early: 0, unknown: 0 };
  const out: ActiveTrip[] = [];
  for (const row of rows) {
    if (!matchesAllButClass(row, f, ctx)) continue;
    counts[row.delayClass] += 1;
    if (f.delayClasses.length === 0 || f.delayClasses.includes(row.delayClass)) out.push(row);
  }
  return { rows: out, counts };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function byDelayDesc(a: ActiveTrip, b: ActiveTrip): number {
  // Unknown delays go last: a dispatcher sorts by delay to find the late ones.
  if (a.delayMinutes === null || b.delayMinutes === null) return a.delayMinutes === null ? (b.delayMinutes === null ? 0 : 1) : -1;
  return b.delayMinutes - a.delayMinutes;
}

function byRoute(a: ActiveTrip, b: ActiveTrip): number {
  const ka = a.routeCode ?? a.routeName;
  const kb = b.routeCode ?? b.routeName;
  if (ka === null || kb === null) return ka === null ? (kb === null ? 0 : 1) : -1;
  return collator.compare(ka, kb);
}

/** Oldest fix first; trips without a position before all positioned ones (they are the least known). */
function byAgeDesc(now: EpochMs) {
  return (a: ActiveTrip, b: ActiveTrip) => {
    const aa = tripAgeS(a, now);
    const ab = tripAgeS(b, now);
    if (aa === null || ab === null) return aa === null ? (ab === null ? 0 : -1) : 1;
    return ab - aa;
  };
}

/** Stable, total order: ties fall back to route, then trip id, so rows never shuffle between snapshots. */
export function sortTrips(rows: readonly ActiveTrip[], key: SortKey, now: EpochMs): ActiveTrip[] {
  const primary = key === 'delay' ? byDelayDesc : key === 'route' ? byRoute : byAgeDesc(now);
  const secondary = key === 'route' ? byDelayDesc : byRoute;
  return [...rows].sort((a, b) => primary(a, b) || secondary(a, b) || a.tripId - b.tripId);
}

export interface RouteOption {
  routeId: number;
  label: string;
}

export function routeOptions(rows: readonly ActiveTrip[]): RouteOption[] {
  const byId = new Map<number, RouteOption>();
  for (const r of rows) {
    if (r.routeId === null || byId.has(r.routeId)) continue;
    byId.set(r.routeId, { routeId: r.routeId, label: [r.routeCode, r.routeName].filter(Boolean).join(' · ') || `Route ${r.routeId}` });
  }
  return [...byId.values()].sort((a, b) => collator.compare(a.label, b.label));
}

export function directionOptions(rows: readonly ActiveTrip[]): string[] {
  return [...new Set(rows.flatMap((r) => (r.direction ? [r.direction] : [])))].sort(collator.compare);
}

export interface Selection {
  tripId: number | null;
  busId: number | null;
  row: ActiveTrip | null;
}

/**
 * What a (possibly deep-linked) selection points at now. A trip link follows the trip to whichever bus
 * runs it; a bus link shows that bus's current trip. A trip no longer active keeps its id (the panel says
 * it finished) and the bus named alongside it.
 */
export function resolveSelection(sel: { tripId: number | null; busId: number | null }, rows: readonly ActiveTrip[]): Selection {
  if (sel.tripId !== null) {
    const row = rows.find((r) => r.tripId === sel.tripId) ?? null;
    return { tripId: sel.tripId, busId: row?.busId ?? sel.busId, row };
  }
  if (sel.busId !== null) {
    const row = rows.find((r) => r.busId === sel.busId) ?? null;
    return { tripId: row?.tripId ?? null, busId: sel.busId, row };
  }
  return { tripId: null, busId: null, row: null };
}

/** What a screen reader hears when the selection changes. */
export function selectionAnnouncement(selection: Selection, busPlate: string | null): string {
  const { row } = selection;
  if (row) {
    const delay = row.delayMinutes === null ? 'delay unknown' : formatDelay(row.delayMinutes);
    return `Selected trip ${row.tripId}, route ${row.routeCode ?? row.routeName ?? 'unknown'}, bus ${row.plateNumber ?? row.busName ?? 'unknown'}, ${delay}.`;
  }
  if (selection.tripId !== null) return `Selected trip ${selection.tripId}.`;
  if (selection.busId !== null) return `Selected bus ${busPlate ?? selection.busId}.`;
  return 'No selection.';
}
