// Delay figures per route and for a whole set of trips. Pure functions: the board, its charts, its CSV and the
// wall all read the same numbers from here.
import { tripDelayClass, type DelayFigures, type DelayThresholds, type HistoryRegularity, type HistoryRouteFigures } from '@/lib/model';
import { delayFigures } from '@/lib/stats/delay-figures';
import { routeKey, routeLabel, type ActiveTrip } from './trips';

export type { DelayFigures } from '@/lib/model';

export interface RouteDelayRow extends DelayFigures {
  key: string;
  routeId: number | null;
  routeCode: string | null;
  routeName: string | null;
  /** Code, else name, else id: what the table shows in its first column. */
  label: string;
  /** Headway regularity over the period (history rows only). */
  regularity?: HistoryRegularity;
}

export function routeDelayRows(trips: readonly ActiveTrip[], thresholds: DelayThresholds): RouteDelayRow[] {
  const groups = new Map<string, ActiveTrip[]>();
  for (const t of trips) {
    const k = routeKey(t);
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const rows: RouteDelayRow[] = [];
  for (const [key, group] of groups) {
    // Trips of one route may disagree on the name while the feed refreshes; the first one carrying it wins.
    const first = group[0]!;
    const routeName = group.find((t) => t.routeName)?.routeName ?? null;
    const routeCode = group.find((t) => t.routeCode)?.routeCode ?? null;
    rows.push({
      key,
      routeId: first.routeId,
      routeCode,
      routeName,
      label: routeLabel({ routeId: first.routeId, routeCode, routeName }),
      ...delayFigures(group, thresholds),
    });
  }
  return sortRouteRows(rows, 'route', 'asc');
}

/** A past period's routes (lib/history's answer) as the same rows the live table shows. */
export function historyRouteRows(routes: readonly HistoryRouteFigures[]): RouteDelayRow[] {
  return routes.map((r) => ({ ...r, key: routeKey(r), label: routeLabel(r) }));
}

export interface TripFilter {
  /** Route keys (see routeKey); empty means every route. */
  routeKeys: readonly string[];
  /** Raw direction value; null means every direction. */
  direction: string | null;
}

export const NO_TRIP_FILTER: TripFilter = { routeKeys: [], direction: null };

/** The delay board's trips: those of the chosen routes (by routeKey) and direction. */
export function filterBoardTrips(trips: readonly ActiveTrip[], f: TripFilter): ActiveTrip[] {
  const routes = f.routeKeys.length ? new Set(f.routeKeys) : null;
  return trips.filter((t) => (!routes || routes.has(routeKey(t))) && (f.direction === null || t.direction === f.direction));
}

export const ROUTE_SORT_KEYS = [
  'route',
  'activeTrips',
  'early',
  'onTime',
  'late',
  'unknownDelay',
  'meanMin',
  'medianMin',
  'p90Min',
  'worstMin',
  'onTimeShare',
] as const;
export type RouteSortKey = (typeof ROUTE_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

const routeCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareRoutes(a: RouteDelayRow, b: RouteDelayRow): number {
  return routeCollator.compare(a.label, b.label) || routeCollator.compare(a.routeName ?? '', b.routeName ?? '') || a.key.localeCompare(b.key);
}

/** Stable order whatever the data: empty figures (null) always last, ties broken by route. */
export function sortRouteRows(rows: readonly RouteDelayRow[], key: RouteSortKey, dir: SortDirection): RouteDelayRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (key === 'route') return sign * compareRoutes(a, b);
    const va = a[key];
    const vb = b[key];
    if (va === null && vb === null) return compareRoutes(a, b);
    if (va === null) return 1;
    if (vb === null) return -1;
    return sign * (va - vb) || compareRoutes(a, b);
  });
}

export interface DelayBin {
  /** The bin holds delays in [minute, minute + 1); the edge bins also hold everything beyond them. */
  minute: number;
  label: string;
  early: number;
  onTime: number;
  late: number;
}

export interface HistogramRange {
  minMinute: number;
  maxMinute: number;
}

/** A wide enough window for bus delays; outliers land in the edge bins, labelled ≤ / ≥. */
export const DEFAULT_HISTOGRAM_RANGE: HistogramRange = { minMinute: -15, maxMinute: 45 };

/**
 * One-minute bins from the smallest to the largest known delay (clamped to `range`), each split by delay class,
 * so a chart can colour by the thresholds in force. Empty bins inside the span are kept: gaps are information.
 */
export function delayHistogram(
  trips: readonly ActiveTrip[],
  thresholds: DelayThresholds,
  range: HistogramRange = DEFAULT_HISTOGRAM_RANGE,
): DelayBin[] {
  const known = trips.filter((t) => tripDelayClass(t.delayMinutes, thresholds) !== 'unknown');
  if (!known.length) return [];
  const clamp = (m: number) => Math.min(range.maxMinute, Math.max(range.minMinute, m));
  const minutes = known.map((t) => clamp(Math.floor(t.delayMinutes!)));
  const lo = Math.min(...minutes);
  const hi = Math.max(...minutes);
  const bins: DelayBin[] = [];
  for (let m = lo; m <= hi; m++) {
    const edge = m === range.minMinute ? '≤ ' : m === range.maxMinute ? '≥ ' : '';
    bins.push({ minute: m, label: `${edge}${m}`, early: 0, onTime: 0, late: 0 });
  }
  known.forEach((t, i) => {
    const bin = bins[minutes[i]! - lo]!;
    const cls = tripDelayClass(t.delayMinutes, thresholds);
    if (cls === 'early') bin.early++;
    else if (cls === 'late') bin.late++;
    else bin.onTime++;
  });
  return bins;
}

/** The latest trips first; trips without a known delay never appear. */
export function mostDelayedTrips(trips: readonly ActiveTrip[], count: number): ActiveTrip[] {
  return trips
    .filter((t) => t.delayMinutes !== null && Number.isFinite(t.delayMinutes))
    .sort((a, b) => b.delayMinutes! - a.delayMinutes! || a.tripId - b.tripId)
    .slice(0, Math.max(0, count));
}

/** Distinct raw direction values, for a filter's options. */
export function tripDirections(trips: readonly ActiveTrip[]): string[] {
  return [...new Set(trips.map((t) => t.direction).filter((d): d is string => d !== null))].sort();
}
