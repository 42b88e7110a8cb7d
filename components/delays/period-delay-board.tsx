'use client';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_DELAY_THRESHOLDS, type DelayThresholds } from '@/lib/model';
import { AppHeader } from '@/components/app-header';
import { historyRoutesQuery } from '@/lib/client/queries';
import { describePeriod, periodRange, type BoardPeriod } from '@/lib/view/board-period';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import { delayTableCsv, formatShare, type CsvContext } from '@/lib/view/delay-table';
import { historyRouteRows, sortRouteRows, type RouteDelayRow, type RouteSortKey, type SortDirection } from '@/lib/view/delays';
import { formatClock } from '@/lib/view/format';
import { describeDerivation, REGULARITY_COLUMNS } from '@/lib/view/regularity-table';
import { DelayTrendChart, ExcessWaitByDayChart, ExcessWaitByHourChart, HourProfileChart, OnTimeShareChart } from './delay-charts';
import { downloadText } from './download';
import { RouteDelayTable } from './route-delay-table';
import { ThresholdControls } from './threshold-controls';
import { Total } from './total';

const ALL = '';
const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900';
const buttonClass =
  'rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800';

interface Props {
  period: BoardPeriod;
  periodControl: ReactNode;
  /** Today on the agency's clock (from the live feed's timezone); null until known. */
  today: string | null;
  configured: DelayThresholds | null;
  /** The organization's zone (the feed's), for the header's time switch. */
  agencyZone: string | null;
}

function downloadPeriodCsv(rows: readonly RouteDelayRow[], range: { from: string; to: string }, ctx: Omit<CsvContext, 'exportedAt'>) {
  downloadText(`fleetmap-delays-${range.from}_${range.to}.csv`, delayTableCsv(rows, { ...ctx, exportedAt: Date.now(), extraColumns: REGULARITY_COLUMNS }));
}

/** The delay board over a past period: the same table, thresholds and CSV as live, read from the history. */
export function PeriodDelayBoard({ period, periodControl, today, configured, agencyZone }: Props) {
  const [adjusted, setAdjusted] = useState<DelayThresholds | null>(null);
  const thresholds = adjusted ?? configured ?? DEFAULT_DELAY_THRESHOLDS;
  const [routeId, setRouteId] = useState<number | null>(null);
  const [sortKey, setSortKey] = useState<RouteSortKey>('worstMin');
  const [sortDir, setSortDir] = useState<SortDirection>('desc');
  const range = today ? periodRange(period, today) : null;
  const all = useQuery({ ...historyRoutesQuery(range ?? { from: '', to: '' }, thresholds, !!range && !!today && range.to >= today), enabled: range !== null });
  const inView = useQuery({ ...historyRoutesQuery(range ?? { from: '', to: '' }, thresholds, !!range && !!today && range.to >= today, routeId), enabled: range !== null && routeId !== null });
  const data = routeId === null ? all.data : inView.data;
  const dataUpdatedAt = routeId === null ? all.dataUpdatedAt : inView.dataUpdatedAt;
  const routeOptions = useMemo(() => historyRouteRows(all.data?.routes ?? []).sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true })), [all.data]);
  const rows = useMemo(() => sortRouteRows(historyRouteRows(data?.routes ?? []), sortKey, sortDir), [data, sortKey, sortDir]);
  const totals = useMemo(() => {
    const sum = (k: 'activeTrips' | 'early' | 'onTime' | 'late' | 'unknownDelay' | 'knownDelay') => rows.reduce((s, r) => s + r[k], 0);
    const known = sum('knownDelay');
    return { trips: sum('activeTrips'), early: sum('early'), onTime: sum('onTime'), late: sum('late'), unknown: sum('unknownDelay'), share: known ? sum('onTime') / known : null };
  }, [rows]);
  const error = (routeId === null ? all.error : inView.error) as Error | null;
  const derivation = useMemo(() => describeDerivation(data?.days ?? []), [data]);
  const routeLabel = routeId === null ? 'all' : (routeOptions.find((r) => r.routeId === routeId)?.label ?? String(routeId));

  const onSort = (key: RouteSortKey) => {
    if (key === sortKey) setSortDir(sortDir === 'asc' ? 'desc' : 'asc');
    else {
      setSortKey(key);
      setSortDir(key === 'route' ? 'asc' : 'desc');
    }
  };
  const exportCsv = () => {
    if (!data || !range) return;
    downloadPeriodCsv(rows, range, { dataAt: dataUpdatedAt, thresholds, filters: `period: ${describePeriod(range)}; route: ${routeLabel}`, sortKey, sortDir });
  };

  return (
    <div className="flex min-h-full flex-col">
      <AppHeader
        title="Delay board"
        current="delays"
        agencyZone={agencyZone}
        status={
          <p aria-label="Period shown" className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            {range ? `Service days ${describePeriod(range)} (agency time)` : period.kind === 'custom' ? 'Choose the first and last day' : 'Waiting for the agency clock'}
            {data && range && today && range.to >= today ? ' · today so far' : ''}
          </p>
        }
        actions={
          <button type="button" className={buttonClass} disabled={!data} onClick={exportCsv}>
            Export CSV
          </button>
        }
      />
      <main className="mx-auto flex w-full max-w-7xl flex-col gap-4 p-4 text-slate-900 dark:text-slate-100">
        <section aria-label="Filters and thresholds" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          {periodControl}
          <label className="flex items-center gap-2">
            <span className="text-slate-600 dark:text-slate-300">Route</span>
            <select className={selectClass} value={routeId === null ? ALL : String(routeId)} onChange={(e) => setRouteId(e.target.value ? Number(e.target.value) : null)}>
              <option value={ALL}>All routes</option>
              {routeOptions.map((o) => (
                <option key={o.key} value={String(o.routeId)}>
                  {o.routeName && o.routeName !== o.label ? `${o.label} — ${o.routeName}` : o.label}
                </option>
              ))}
            </select>
          </label>
          <ThresholdControls value={thresholds} configured={configured ?? DEFAULT_DELAY_THRESHOLDS} onChange={(t) => setAdjusted(t)} />
        </section>
        {error && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
            The history cannot be read: {error.message}
          </p>
        )}
        {data && data.gaps.length > 0 && (
          <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            Not recorded:{' '}
            {data.gaps.map((g) => `${new Date(g.fromAt).toISOString().slice(0, 16).replace('T', ' ')}–${formatClock(g.toAt)} UTC (${g.reason}${g.droppedRows ? `, ${g.droppedRows} rows lost` : ''})`).join('; ')}
          </p>
        )}
        {data && range && totals.trips === 0 && (
          <p className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900">
            No trip was recorded on these service days{routeId === null ? '' : ' for this route'}. Fleetmap keeps what it hears while it runs: days before
            it first ran, or while it was stopped, have no figures.
          </p>
        )}
        <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Total label="Trips" value={data ? String(totals.trips) : '…'} />
          <Total label="Early" value={data ? String(totals.early) : '…'} color={DELAY_COLORS.light.early} />
          <Total label="On time" value={data ? String(totals.onTime) : '…'} color={DELAY_COLORS.light['on-time']} />
          <Total label="Late" value={data ? String(totals.late) : '…'} color={DELAY_COLORS.light.late} />
          <Total label="Unknown delay" value={data ? String(totals.unknown) : '…'} color={DELAY_COLORS.light.unknown} />
          <Total label="On-time share" value={data ? formatShare(totals.share) : '…'} />
        </section>
        {data && derivation && (
          <p role="status" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900">
            {derivation}
          </p>
        )}
        <RouteDelayTable rows={rows} sortKey={sortKey} sortDir={sortDir} onSort={onSort} extraColumns={REGULARITY_COLUMNS} />
        <div className="grid gap-4 lg:grid-cols-2">
          <DelayTrendChart days={data?.days ?? []} />
          <HourProfileChart hours={data?.hours ?? []} />
        </div>
        <section aria-label="Excess wait" className="grid gap-4 lg:grid-cols-2">
          <ExcessWaitByDayChart days={data?.days ?? []} />
          <ExcessWaitByHourChart hours={data?.regularityHours ?? []} />
        </section>
        <OnTimeShareChart rows={rows} />
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Each trip counts once, with its last recorded delay (the final one when the trip&apos;s end was looked up). Days are service dates as the
          upstream gives them; a day&apos;s figures are fixed when it closes and kept after the trips themselves are pruned. Headways are the
          times between consecutive buses passing each stop, from the recorded fixes; AWT, SWT and EWT are the average, scheduled and
          excess waits in minutes (docs/regularity.md).
        </p>
      </main>
    </div>
  );
}
