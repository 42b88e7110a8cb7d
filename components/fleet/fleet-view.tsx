'use client';
import { agencyZoneOf } from '@/lib/view/display-zone';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { AppHeader } from '@/components/app-header';
import { downloadText } from '@/components/delays/download';
import { HealthBanners } from '@/components/status';
import { busesQuery, lastTripsQuery, routesQuery } from '@/lib/client/queries';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useHeldNow } from '@/lib/client/use-held-now';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { useNow } from '@/lib/client/use-now';
import { useUrlState } from '@/lib/client/use-url-state';
import { zoneCaption } from '@/lib/view/display-zone';
import {
  filterFleet,
  fleetCounts,
  fleetCsv,
  fleetRows,
  GPS_HEALTH_LABELS,
  GPS_HEALTHS,
  parseFleetUrl,
  serializeFleetUrl,
  sortFleet,
  statusValues,
  type FleetSortKey,
  type GpsHealth,
  type LastTripsState,
} from '@/lib/view/fleet-table';
import { formatAgo } from '@/lib/view/format';
import { FleetTable } from './fleet-table';

const control =
  'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';
const button = `${control} font-medium hover:bg-slate-100 disabled:opacity-50 dark:hover:bg-slate-800`;
const ALL = '';
/**
 * The rows are built, filtered, sorted and counted with each new answer and at most this often in between (at
 * 10,000 buses that work is tens of milliseconds: once a second it was most of the page's script time). The age and
 * GPS health in each drawn row follow the one-second clock; the counts and the GPS filter lag them by this much at most.
 */
const ROWS_EVERY_MS = 5_000;

/** The fleet table: every bus, searched, filtered and sorted from the URL, exported as shown. */
export function FleetView({ staleAfterS }: { staleAfterS: number }) {
  const [url, update] = useUrlState(parseFleetUrl, serializeFleetUrl);
  const live = useLiveFeed();
  const buses = useQuery(busesQuery());
  const routes = useQuery(routesQuery());
  const history = useQuery(lastTripsQuery());
  const health = live.snapshot?.health ?? null;
  const zone = useDisplayZone(agencyZoneOf(health));
  const clientNow = useNow();
  // Before the first snapshot the server's clock is not known: the browser's stands in (no position is held yet).
  const now = live.now || clientNow;

  const lastTrips: LastTripsState = history.data ?? (history.isError ? 'unavailable' : 'loading');
  const rowsNow = useHeldNow(now, ROWS_EVERY_MS, [buses.data, live.snapshot, routes.data, lastTrips, staleAfterS]);
  const all = useMemo(
    () => (buses.data ? fleetRows(buses.data.buses, live.snapshot ?? null, routes.data?.routes ?? [], lastTrips, { now: rowsNow, staleAfterS }) : []),
    [buses.data, live.snapshot, routes.data, lastTrips, rowsNow, staleAfterS],
  );
  const counts = useMemo(() => fleetCounts(all), [all]);
  const statuses = useMemo(() => {
    const values = statusValues(all);
    return url.filters.status !== null && !values.includes(url.filters.status) ? [...values, url.filters.status] : values;
  }, [all, url.filters.status]);
  const rows = useMemo(() => sortFleet(filterFleet(all, url.filters), url.sort, url.dir), [all, url.filters, url.sort, url.dir]);
  const cellContext = useMemo(() => ({ zone: zone.zone, now, staleAfterS }), [zone.zone, now, staleAfterS]);

  const onSort = (key: FleetSortKey) => update((s) => (s.sort === key ? { dir: s.dir === 'asc' ? 'desc' : 'asc' } : { sort: key, dir: 'asc' }));
  const toggleGps = (g: GpsHealth) =>
    update((s) => ({ filters: { ...s.filters, gps: s.filters.gps.includes(g) ? s.filters.gps.filter((x) => x !== g) : [...s.filters.gps, g] } }));
  const exportCsv = () => {
    const dataAt = live.snapshot?.generatedAt ?? now;
    const csv = fleetCsv(rows, { ...cellContext, dataAt, exportedAt: Date.now(), zoneName: zoneCaption(zone), state: url });
    downloadText(`fleetmap-fleet-${new Date(dataAt).toISOString().replace(/[:]/g, '-').replace(/\..*$/, '')}.csv`, csv);
  };

  const listAge = buses.data?.fetchedAt && now ? Math.max(0, (now - buses.data.fetchedAt) / 1000) : null;

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <AppHeader
        title="Fleet"
        current="fleet"
        agencyZone={agencyZoneOf(health)}
        status={
          <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            Bus list {buses.data?.fetchedAt ? `listed ${formatAgo(listAge)}` : 'not listed yet'} · times in {zoneCaption(zone)}
          </p>
        }
        actions={
          <button type="button" className={button} disabled={!buses.data} onClick={exportCsv}>
            Export CSV
          </button>
        }
      />
      <main className="flex min-h-0 flex-1 flex-col gap-3 p-3">
        <HealthBanners health={health} link={live.link} now={now} className="empty:hidden" />
        {buses.isError && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/70 dark:text-red-100">
            The bus list cannot be shown: {buses.error.message}
          </p>
        )}

        <div role="group" aria-label="Fleet counts">
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Count label="Buses" value={counts.buses} />
          <Count label="On a trip" value={counts.onTrip} />
          {GPS_HEALTHS.map((g) => (
            <Count key={g} label={`GPS ${GPS_HEALTH_LABELS[g].toLowerCase()}`} value={counts.gps[g]} />
          ))}
          <Count label="Shown" value={rows.length} />
        </dl>
        </div>

        <section aria-label="Search and filters" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <input
            type="search"
            aria-label="Search buses"
            placeholder="Plate, name, code, model, route, id"
            className={`${control} w-72`}
            value={url.filters.query}
            onChange={(e) => update((s) => ({ filters: { ...s.filters, query: e.target.value } }))}
          />
          <div role="group" aria-label="GPS health" className="flex items-center gap-1">
            {GPS_HEALTHS.map((g) => (
              <button key={g} type="button" aria-pressed={url.filters.gps.includes(g)} className={`${button} aria-pressed:bg-slate-800 aria-pressed:text-white dark:aria-pressed:bg-slate-200 dark:aria-pressed:text-slate-900`} onClick={() => toggleGps(g)}>
                {GPS_HEALTH_LABELS[g]} ({counts.gps[g]})
              </button>
            ))}
          </div>
          <label className="flex items-center gap-2">
            <span className="text-slate-700 dark:text-slate-300">Status</span>
            <select className={control} value={url.filters.status ?? ALL} onChange={(e) => update((s) => ({ filters: { ...s.filters, status: e.target.value || null } }))}>
              <option value={ALL}>All</option>
              {statuses.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2">
            <span className="text-slate-700 dark:text-slate-300">Trip</span>
            <select
              className={control}
              value={url.filters.onTrip ?? ALL}
              onChange={(e) => update((s) => ({ filters: { ...s.filters, onTrip: e.target.value === 'on' || e.target.value === 'off' ? e.target.value : null } }))}
            >
              <option value={ALL}>All</option>
              <option value="on">On a trip</option>
              <option value="off">Not on a trip</option>
            </select>
          </label>
        </section>

        {buses.isLoading ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">Loading the bus list…</p>
        ) : (
          <FleetTable rows={rows} cellContext={cellContext} sort={url.sort} dir={url.dir} onSort={onSort} />
        )}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          GPS, from the newest GPS time known (the bus list&apos;s or the last fix): fresh at most {staleAfterS} s old; stale when older;
          no fix when its location was answered without a position; never reported when it has no GPS time at all. Last on a trip comes from the recorder&apos;s history
          {lastTrips !== 'loading' && lastTrips !== 'unavailable' && !lastTrips.recorded ? ', which this server does not keep (not recorded)' : ''}.
        </p>
      </main>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="font-semibold tabular-nums" data-count={label}>
        {value}
      </dd>
    </div>
  );
}
