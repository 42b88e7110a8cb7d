'use client';
import { useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_DELAY_THRESHOLDS, type DelayThresholds, type LiveSnapshot } from '@/lib/model';
import { AppHeader } from '@/components/app-header';
import { HealthBanners } from '@/components/status';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { agencyZoneOf, zoneCaption } from '@/lib/view/display-zone';
import { heldDataAgeS } from '@/lib/placement/ages';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import { delayTableCsv, formatShare } from '@/lib/view/delay-table';
import { delayFigures } from '@/lib/stats/delay-figures';
import {
  delayHistogram,
  filterBoardTrips,
  mostDelayedTrips,
  routeDelayRows,
  sortRouteRows,
  tripDirections,
  type RouteSortKey,
  type SortDirection,
} from '@/lib/view/delays';
import { dateAtOffset } from '@/lib/time/calendar';
import { formatAgo, formatClock } from '@/lib/view/format';
import { dataAgeS } from '@/lib/view/health';
import { activeTrips } from '@/lib/view/trips';
import { DelayHistogramChart, OnTimeShareChart } from './delay-charts';
import { downloadText } from './download';
import { MostDelayedList } from './most-delayed-list';
import { RouteDelayTable } from './route-delay-table';
import { PeriodControl, useBoardPeriod } from './period-control';
import { PeriodDelayBoard } from './period-delay-board';
import { ThresholdControls } from './threshold-controls';
import { Total } from './total';

const MOST_DELAYED_COUNT = 10;
const ALL = '';

const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900';
const buttonClass =
  'rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800';

/** The board: live (the trips running now) or a past period from the history, as the URL's period says. */
export function DelayBoard() {
  const live = useLiveFeed();
  const [period, setPeriod] = useBoardPeriod();
  const offset = live.snapshot?.health.timezone.offsetMinutes ?? null;
  const today = live.now && offset !== null ? dateAtOffset(live.now, offset) : null;
  const control = <PeriodControl period={period} onChange={setPeriod} today={today} />;
  if (period.kind === 'live') return <LiveDelayBoard periodControl={control} />;
  return <PeriodDelayBoard period={period} periodControl={control} today={today} configured={live.snapshot?.thresholds ?? null} agencyZone={agencyZoneOf(live.snapshot?.health)} />;
}

function LiveDelayBoard({ periodControl }: { periodControl: ReactNode }) {
  const live = useLiveFeed();
  const zone = useDisplayZone(agencyZoneOf(live.snapshot?.health));
  // A paused board keeps one snapshot so numbers can be read (or compared) without them moving.
  const [paused, setPaused] = useState<LiveSnapshot | null>(null);
  const snapshot = paused ?? live.snapshot ?? null;

  const configured: DelayThresholds = snapshot?.thresholds ?? DEFAULT_DELAY_THRESHOLDS;
  const [adjusted, setAdjusted] = useState<DelayThresholds | null>(null);
  const thresholds = adjusted ?? configured;

  // The chosen route keeps its label, so the filter still reads right while that route has no active trip.
  const [route, setRoute] = useState<{ key: string; label: string } | null>(null);
  const [direction, setDirection] = useState(ALL);
  const [sortKey, setSortKey] = useState<RouteSortKey>('worstMin');
  const [sortDir, setSortDir] = useState<SortDirection>('desc');

  const allTrips = useMemo(() => (snapshot ? activeTrips(snapshot) : []), [snapshot]);
  const routeOptions = useMemo(() => {
    const options = routeDelayRows(allTrips, thresholds).map((r) => ({ key: r.key, label: r.routeName && r.routeName !== r.label ? `${r.label} — ${r.routeName}` : r.label }));
    if (route && !options.some((o) => o.key === route.key)) options.push({ key: route.key, label: `${route.label} (no active trips)` });
    return options;
  }, [allTrips, thresholds, route]);
  const directions = useMemo(() => {
    const list = tripDirections(allTrips);
    return direction && !list.includes(direction) ? [...list, direction] : list;
  }, [allTrips, direction]);
  const filter = useMemo(() => ({ routeKeys: route ? [route.key] : [], direction: direction || null }), [route, direction]);
  const trips = useMemo(() => filterBoardTrips(allTrips, filter), [allTrips, filter]);
  const rows = useMemo(() => sortRouteRows(routeDelayRows(trips, thresholds), sortKey, sortDir), [trips, thresholds, sortKey, sortDir]);
  const totals = useMemo(() => delayFigures(trips, thresholds), [trips, thresholds]);
  const bins = useMemo(() => delayHistogram(trips, thresholds), [trips, thresholds]);
  const worstTrips = useMemo(() => mostDelayedTrips(trips, MOST_DELAYED_COUNT), [trips]);

  const liveAgeS = live.snapshot && live.now ? dataAgeS(live.snapshot.health, live.now) : null;
  const ageS = paused ? heldDataAgeS(liveAgeS, live.snapshot?.health.lastSuccessAt ?? null, paused.health.lastSuccessAt) : liveAgeS;
  const filterText = `route: ${route?.label ?? 'all'}; direction: ${direction || 'all'}`;

  const onSort = (key: RouteSortKey) => {
    if (key === sortKey) setSortDir(sortDir === 'asc' ? 'desc' : 'asc');
    else {
      setSortKey(key);
      // Routes read best A→Z; figures are looked at worst-first.
      setSortDir(key === 'route' ? 'asc' : 'desc');
    }
  };

  const exportCsv = () => {
    if (!snapshot) return;
    const exportedAt = Date.now();
    const csv = delayTableCsv(rows, { dataAt: snapshot.generatedAt, exportedAt, thresholds, filters: filterText, sortKey, sortDir });
    const stamp = new Date(snapshot.generatedAt).toISOString().replace(/[:]/g, '-').replace(/\..*$/, '');
    downloadText(`fleetmap-delays-${stamp}.csv`, csv);
  };

  return (
    <div className="flex min-h-full flex-col">
      <AppHeader
        title="Delay board"
        current="delays"
        agencyZone={agencyZoneOf(live.snapshot?.health)}
        status={
          <p aria-label="Data freshness" className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            {snapshot ? (
              <>
                Data <span aria-label="Data age">{formatAgo(ageS)}</span> · snapshot <span aria-label="Snapshot version">{snapshot.version}</span> of{' '}
                {formatClock(snapshot.generatedAt, true, zone.zone)} ({zoneCaption(zone)}){paused ? ' · paused' : ''}
              </>
            ) : (
              'No data yet'
            )}
          </p>
        }
        actions={
          <>
            <button type="button" className={buttonClass} aria-pressed={paused !== null} disabled={!snapshot} onClick={() => setPaused(paused ? null : snapshot)}>
              {paused ? 'Resume updates' : 'Pause updates'}
            </button>
            <button type="button" className={buttonClass} disabled={!snapshot} onClick={exportCsv}>
              Export CSV
            </button>
          </>
        }
      />
      <main className="mx-auto flex w-full max-w-7xl flex-col gap-4 p-4 text-slate-900 dark:text-slate-100">
        {/* The banners tell the feed's state now, paused or not. */}
        <HealthBanners health={live.snapshot?.health ?? null} full={live.snapshot?.fullHealth} link={live.link} now={live.now} />

        <section aria-label="Filters and thresholds" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          {periodControl}
          <label className="flex items-center gap-2">
            <span className="text-slate-600 dark:text-slate-300">Route</span>
            <select
              className={selectClass}
              value={route?.key ?? ALL}
              onChange={(e) => setRoute(routeOptions.find((o) => o.key === e.target.value) ?? null)}
            >
              <option value={ALL}>All routes</option>
              {routeOptions.map((o) => (
                <option key={o.key} value={o.key}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2">
            <span className="text-slate-600 dark:text-slate-300">Direction</span>
            <select className={selectClass} value={direction} onChange={(e) => setDirection(e.target.value)}>
              <option value={ALL}>All directions</option>
              {directions.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
          <ThresholdControls value={thresholds} configured={configured} onChange={(t) => setAdjusted(t)} />
        </section>

        <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Total label="Active trips" value={String(totals.activeTrips)} />
          <Total label="Early" value={String(totals.early)} color={DELAY_COLORS.light.early} />
          <Total label="On time" value={String(totals.onTime)} color={DELAY_COLORS.light['on-time']} />
          <Total label="Late" value={String(totals.late)} color={DELAY_COLORS.light.late} />
          <Total label="Unknown delay" value={String(totals.unknownDelay)} color={DELAY_COLORS.light.unknown} />
          <Total label="On-time share" value={formatShare(totals.onTimeShare)} />
        </section>

        <RouteDelayTable rows={rows} sortKey={sortKey} sortDir={sortDir} onSort={onSort} />

        <div className="grid gap-4 lg:grid-cols-2">
          <DelayHistogramChart bins={bins} unknown={totals.unknownDelay} />
          <OnTimeShareChart rows={rows} />
        </div>

        <MostDelayedList trips={worstTrips} />
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Percentiles interpolate linearly between the closest ranks (median = 50th). Shares count only trips whose delay is
          known; trips without a delay are listed as unknown.
        </p>
      </main>
    </div>
  );
}
