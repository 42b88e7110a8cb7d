// The delay table's columns: one formatting function per column, used by the rendered table AND the CSV, so the
// file always says exactly what the screen says.
import type { DelayThresholds } from '@/lib/model';
import { toCsv } from '@/lib/csv/csv';
import type { RouteDelayRow, RouteSortKey, SortDirection } from './delays';

/** Shown for a figure that has no value (no known delay on that route), on screen and in the CSV alike. */
export const NO_VALUE = 'n/a';

/** Minutes with at most one decimal: delays are whole minutes, means and interpolated percentiles are not. */
export function formatMinutes(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return NO_VALUE;
  // Half away from zero, so -2.25 and 2.25 round to the same magnitude; and no "-0" for a mean of -0.04.
  const r = (Math.sign(v) * Math.round(Math.abs(v) * 10)) / 10;
  return (Object.is(r, -0) ? 0 : r).toFixed(Number.isInteger(r) ? 0 : 1);
}

export function formatShare(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return NO_VALUE;
  return `${(Math.round(v * 1000) / 10).toFixed(1)}%`;
}

export interface DelayColumn {
  key: RouteSortKey;
  label: string;
  /** A longer name for screen readers and tooltips. */
  description: string;
  numeric: boolean;
  cell: (row: RouteDelayRow) => string;
}

const count = (k: 'activeTrips' | 'early' | 'onTime' | 'late' | 'unknownDelay') => (r: RouteDelayRow) => String(r[k]);

export const DELAY_COLUMNS: readonly DelayColumn[] = [
  { key: 'route', label: 'Route', description: 'Route code', numeric: false, cell: (r) => r.label },
  { key: 'activeTrips', label: 'Trips', description: 'Active trips', numeric: true, cell: count('activeTrips') },
  { key: 'early', label: 'Early', description: 'Early trips', numeric: true, cell: count('early') },
  { key: 'onTime', label: 'On time', description: 'On-time trips', numeric: true, cell: count('onTime') },
  { key: 'late', label: 'Late', description: 'Late trips', numeric: true, cell: count('late') },
  { key: 'unknownDelay', label: 'Unknown', description: 'Trips without a known delay', numeric: true, cell: count('unknownDelay') },
  { key: 'meanMin', label: 'Mean', description: 'Mean delay, minutes', numeric: true, cell: (r) => formatMinutes(r.meanMin) },
  { key: 'medianMin', label: 'Median', description: 'Median delay, minutes', numeric: true, cell: (r) => formatMinutes(r.medianMin) },
  { key: 'p90Min', label: 'P90', description: '90th percentile delay, minutes', numeric: true, cell: (r) => formatMinutes(r.p90Min) },
  { key: 'worstMin', label: 'Worst', description: 'Worst delay, minutes', numeric: true, cell: (r) => formatMinutes(r.worstMin) },
  { key: 'onTimeShare', label: 'On-time share', description: 'Share of trips with a known delay that run on time', numeric: true, cell: (r) => formatShare(r.onTimeShare) },
];

export function describeThresholds(t: DelayThresholds): string {
  return `late at ${formatMinutes(t.lateMin)} min or more, early at ${formatMinutes(-t.earlyMin)} min or less`;
}

export function describeSort(key: RouteSortKey, dir: SortDirection): string {
  const col = DELAY_COLUMNS.find((c) => c.key === key)!;
  return `${col.label} ${dir === 'asc' ? 'ascending' : 'descending'}`;
}

export interface CsvContext {
  /** The data moment: the snapshot's generatedAt. */
  dataAt: number;
  /** When the file was made. */
  exportedAt: number;
  thresholds: DelayThresholds;
  /** People-readable filter description, e.g. `route: M15; direction: all`. */
  filters: string;
  sortKey: RouteSortKey;
  sortDir: SortDirection;
  /** Columns after the delay columns (the period board's regularity columns), same cells as on screen. */
  extraColumns?: readonly { label: string; cell: (row: RouteDelayRow) => string }[];
}

/**
 * The table as shown: header lines (prefixed `#`, one fact per line), the column labels, then one line per row
 * in the given (already sorted and filtered) order. The route name follows the route code as its own column.
 */
export function delayTableCsv(rows: readonly RouteDelayRow[], ctx: CsvContext): string {
  const extra = ctx.extraColumns ?? [];
  const lines = [
    ['# Fleetmap delay board'],
    ['# Data at', new Date(ctx.dataAt).toISOString()],
    ['# Exported at', new Date(ctx.exportedAt).toISOString()],
    ['# Late threshold (min)', `>= ${formatMinutes(ctx.thresholds.lateMin)}`],
    ['# Early threshold (min)', `<= ${formatMinutes(-ctx.thresholds.earlyMin)}`],
    ['# Filters', ctx.filters],
    ['# Sort', describeSort(ctx.sortKey, ctx.sortDir)],
    [DELAY_COLUMNS[0]!.label, 'Route name', ...DELAY_COLUMNS.slice(1).map((c) => c.label), ...extra.map((c) => c.label)],
    ...rows.map((r) => [DELAY_COLUMNS[0]!.cell(r), r.routeName ?? '', ...DELAY_COLUMNS.slice(1).map((c) => c.cell(r)), ...extra.map((c) => c.cell(r))]),
  ];
  return toCsv(lines);
}
