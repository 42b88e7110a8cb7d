'use client';
// The route ladder page: the routes in the URL (?route=M15,M101) side by side, live from /api/headways, with the
// selected trip (?trip=) shown on the map by one click. Buses move between answers along their motion.
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { AppHeader } from '@/components/app-header';
import { HealthBanners } from '@/components/status';
import { headwaysQuery, routesQuery } from '@/lib/client/queries';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useServerNow } from '@/lib/client/use-server-now';
import { useTheme } from '@/lib/client/use-theme';
import { useUrlState } from '@/lib/client/use-url-state';
import type { HeadwaysResponse } from '@/lib/model';
import { tripMapHref } from '@/lib/view/dispatcher-url';
import { agencyZoneOf } from '@/lib/view/display-zone';
import { etaWords } from '@/lib/view/eta';
import { formatClock, formatDelay } from '@/lib/view/format';
import { parseLadderUrl, parseRouteTokens, serializeLadderUrl } from '@/lib/page-url/ladder-url';
import { ForwardOnly } from '@/lib/view/ladder';
import { busAge, BusGlyph, GAP_COLORS, RouteLadder } from './route-ladder';

const control =
  'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

/** What the selected trip is in the answer: a bus on the line or at a terminal, or a ghost. */
function findTrip(data: HeadwaysResponse | undefined, tripId: number | null) {
  if (!data || tripId === null) return null;
  for (const r of data.routes) {
    for (const d of r.directions) {
      const bus = [...d.buses, ...d.layover, ...d.offLine].find((b) => b.tripId === tripId);
      if (bus) return { kind: 'bus' as const, route: r, bus };
      const ghost = d.ghosts.find((g) => g.tripId === tripId);
      if (ghost) return { kind: 'ghost' as const, route: r, ghost };
    }
  }
  return null;
}

export function LadderView() {
  const [url, update] = useUrlState(parseLadderUrl, serializeLadderUrl);
  const [theme] = useTheme();
  const live = useLiveFeed();
  const asked = url.routes.length > 0;
  const headways = useQuery({ ...headwaysQuery(url.routes), enabled: asked });
  const routes = useQuery(routesQuery());
  const { now } = useServerNow(headways.data?.at);
  const [hold] = useState(() => new ForwardOnly());
  const select = useCallback((tripId: number) => update({ tripId }), [update]);
  const selected = useMemo(() => findTrip(headways.data, url.tripId), [headways.data, url.tripId]);
  const zone = useDisplayZone(agencyZoneOf(live.snapshot?.health ?? null));
  const inputId = useId();
  const listId = useId();

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = new FormData(e.currentTarget).get('routes');
    update({ routes: parseRouteTokens(typeof value === 'string' ? value : ''), tripId: null });
  };
  const scheduleOnly = headways.data?.routes.some((r) => r.directions.some((d) => d.buses.length > 0 && d.buses.every((b) => b.basis === 'schedule-estimate')));

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <AppHeader title="Fleetmap" current="ladder" agencyZone={agencyZoneOf(live.snapshot?.health ?? null)} />
      <HealthBanners health={live.snapshot?.health ?? null} link={live.link} now={live.now} className="px-3 pt-2" />
      <main className="flex flex-1 flex-col gap-3 p-3">
        <div className="flex flex-wrap items-end gap-3">
          <form onSubmit={submit} className="flex items-end gap-2" key={url.routes.join(',')}>
            <div className="flex flex-col">
              <label htmlFor={inputId} className="text-xs text-slate-600 dark:text-slate-400">
                Routes, separated by commas
              </label>
              <input id={inputId} name="routes" list={listId} defaultValue={url.routes.join(', ')} placeholder="M15, M101" className={`${control} w-56`} autoComplete="off" spellCheck={false} />
              <datalist id={listId}>
                {(routes.data?.routes ?? []).map((r) => (r.code ? <option key={r.id} value={r.code} /> : null))}
              </datalist>
            </div>
            <button type="submit" className={`${control} font-medium hover:bg-slate-100 dark:hover:bg-slate-800`}>
              Show
            </button>
          </form>
          <Legend theme={theme} />
        </div>
        {scheduleOnly && (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
            No GPS with this key: every bus is placed by its schedule (dashed rings).
          </p>
        )}
        {selected && (
          <div role="region" aria-label="Selected trip" className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900">
            {selected.kind === 'bus' ? (
              <span>
                <strong>{selected.bus.label}</strong> · {selected.route.routeCode} trip {selected.bus.tripId} · {selected.bus.delayMinutes === null ? 'delay unknown' : formatDelay(selected.bus.delayMinutes)} · {selected.bus.gpsAt === null ? 'no fix' : `fix ${busAge(selected.bus, now)} old`}
                {selected.bus.layover ? ' · at the terminal' : ''}
                {selected.bus.next && (
                  <span data-next-stop="">
                    {' · '}next stop {selected.bus.next.stopName}, {etaWords(selected.bus.next.earliestAt, selected.bus.next.latestAt, now)} ({formatClock(selected.bus.next.arrivalAt, false, zone.zone)})
                  </span>
                )}
              </span>
            ) : (
              <span>
                <strong>Ghost</strong> · {selected.route.routeCode} trip {selected.ghost.tripId} · {selected.ghost.reason === 'no-bus' ? 'no bus on this trip' : `bus ${selected.ghost.busName ?? selected.ghost.plateNumber ?? selected.ghost.busId} not located`}
              </span>
            )}
            <Link href={tripMapHref(url.tripId!)} prefetch={false} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
              Show on the map
            </Link>
          </div>
        )}
        {!asked ? (
          <RoutePicker codes={(routes.data?.routes ?? []).flatMap((r) => (r.code ? [r.code] : []))} onPick={(code) => update({ routes: [code], tripId: null })} />
        ) : headways.isError && !headways.data ? (
          <p role="alert">The ladder could not be loaded: {headways.error.message}</p>
        ) : !headways.data ? (
          <p role="status">Loading the ladder…</p>
        ) : (
          <>
            {headways.data.unknownRoutes.length > 0 && <p role="status">No route named {headways.data.unknownRoutes.join(', ')}.</p>}
            <div className="flex flex-wrap gap-8 overflow-x-auto">
              {headways.data.routes.map((r) => (
                <RouteLadder key={r.routeId} route={r} now={now} theme={theme} selectedTripId={url.tripId} onSelect={select} hold={hold} />
              ))}
            </div>
          </>
        )}
      </main>
    </div>
  );
}

function RoutePicker({ codes, onPick }: { codes: string[]; onPick: (code: string) => void }) {
  if (codes.length === 0) return <p role="status">Loading the routes…</p>;
  return (
    <nav aria-label="Routes">
      <p className="mb-2 text-sm">Pick a route, or type several above.</p>
      <ul className="flex flex-wrap gap-1.5">
        {[...codes].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((c) => (
          <li key={c}>
            <button type="button" onClick={() => onPick(c)} className={`${control} font-medium hover:bg-slate-100 dark:hover:bg-slate-800`}>
              {c}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Legend({ theme }: { theme: 'light' | 'dark' }) {
  const grey = theme === 'dark' ? '#9AA1AC' : '#7B8290';
  const item = (glyph: React.ReactNode, text: string) => (
    <span className="inline-flex items-center gap-1">
      <svg width={16} height={16} aria-hidden>
        <g transform="translate(8 8)">{glyph}</g>
      </svg>
      {text}
    </span>
  );
  return (
    <div className="flex flex-wrap items-center gap-3 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
      {item(<BusGlyph basis="fix" color={grey} theme={theme} stale={false} />, 'fix')}
      {item(<BusGlyph basis="gps-estimate" color={grey} theme={theme} stale={false} />, 'estimated from a fix')}
      {item(<BusGlyph basis="schedule-estimate" color={grey} theme={theme} stale={false} />, 'from the schedule')}
      {item(<BusGlyph basis="fix" color={grey} theme={theme} stale />, 'stale')}
      <span style={{ color: GAP_COLORS[theme].bunched }} className="font-bold">
        bunched
      </span>
      <span style={{ color: GAP_COLORS[theme].gapped }} className="font-bold">
        gapped
      </span>
      <span>- - late bus to its scheduled place</span>
    </div>
  );
}
