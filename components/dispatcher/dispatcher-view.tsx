'use client';
// The dispatcher's screen: the live map, the list of active trips, the panel of the selected trip, and an
// honest account of how old and how healthy the data is. All view state sits in the URL.
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { FleetMap, type MapView } from '@/components/map/fleet-map';
import { HealthBanners, StatusBar } from '@/components/status';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { useTheme } from '@/lib/client/use-theme';
import { lacksLocations, noLocationsReason } from '@/lib/view/health';
import { formatDelay } from '@/lib/view/format';
import { hasPosition } from '@/lib/view/bus-features';
import { directionOptions, filterTrips, resolveSelection, routeOptions, sortTrips, type SortKey, type TripFilters as Filters } from '@/lib/view/trip-list';
import { activeTrips, type ActiveTrip } from '@/lib/view/trips';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { TripFilters } from './trip-filters';
import { TripList } from './trip-list';
import { TripPanel } from './trip-panel';
import { useDispatcherKeys } from '@/lib/client/use-dispatcher-keys';
import { useDispatcherUrl } from '@/lib/client/use-dispatcher-url';

export interface DispatcherViewProps {
  staleAfterS: number;
  styleUrl: string | null;
  styleUrlDark: string | null;
}

const VIEW_WRITE_DEBOUNCE_MS = 400;
const PANEL_WIDTH_PX = 340;

export function DispatcherView({ staleAfterS, styleUrl, styleUrlDark }: DispatcherViewProps) {
  const [url, updateUrl] = useDispatcherUrl();
  const [theme] = useTheme();
  const [follow, setFollow] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(true);
  const searchRef = useRef<HTMLInputElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);

  // The URL names the bus for deep links; selections made here always write both trip and bus.
  const feed = useLiveFeed(url.busId);
  const { snapshot, now, link } = feed;

  const rows = useMemo(() => (snapshot ? activeTrips(snapshot) : []), [snapshot]);
  const { rows: filtered, counts } = useMemo(() => filterTrips(rows, url.filters, { now, staleAfterS }), [rows, url.filters, now, staleAfterS]);
  const sorted = useMemo(() => sortTrips(filtered, url.sort, now), [filtered, url.sort, now]);
  const routes = useMemo(() => routeOptions(rows), [rows]);
  const directions = useMemo(() => directionOptions(rows), [rows]);

  const selection = resolveSelection(url, rows);
  const vehicle = useMemo(() => (snapshot && selection.busId !== null ? (snapshot.vehicles.find((v) => v.busId === selection.busId) ?? null) : null), [snapshot, selection.busId]);
  const hasSelection = selection.tripId !== null || selection.busId !== null;

  const health = snapshot?.health ?? null;
  const listOnly = health !== null && lacksLocations(health);

  const selectRow = useCallback(
    (row: ActiveTrip) => {
      setFollow(false);
      // On a phone the sheet makes way for the map and the panel (the sheet state does not apply on wider screens).
      setSheetOpen(false);
      updateUrl({ tripId: row.tripId, busId: row.busId });
    },
    [updateUrl],
  );
  const selectBus = useCallback(
    (busId: number | null) => {
      setFollow(false);
      const v = busId !== null ? snapshot?.vehicles.find((x) => x.busId === busId) : undefined;
      updateUrl({ busId, tripId: v?.trip?.tripId ?? null });
    },
    [snapshot, updateUrl],
  );
  const clearSelection = useCallback(() => {
    setFollow(false);
    updateUrl({ tripId: null, busId: null });
  }, [updateUrl]);

  const viewTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onViewChange = useCallback(
    (view: MapView) => {
      if (viewTimer.current) clearTimeout(viewTimer.current);
      viewTimer.current = setTimeout(() => updateUrl({ view }), VIEW_WRITE_DEBOUNCE_MS);
    },
    [updateUrl],
  );
  // The URL's view is read once, for the map's first camera; later map moves write it, never read it.
  const [initialView] = useState(url.view);

  const recentre = useCallback(() => {
    if (!map || !vehicle || !hasPosition(vehicle)) return;
    map.easeTo({ center: [vehicle.lon, vehicle.lat], zoom: Math.max(map.getZoom(), 15) });
  }, [map, vehicle]);

  // On wide screens the panel floats over the map's right side: centre (follow, fits) in the part left visible.
  useEffect(() => {
    if (!map) return;
    const wide = window.matchMedia('(min-width: 768px)').matches;
    map.setPadding({ top: 0, bottom: 0, left: 0, right: hasSelection && wide ? PANEL_WIDTH_PX + 16 : 0 });
  }, [map, hasSelection]);

  useDispatcherKeys({
    focusSearch: () => searchRef.current?.focus(),
    escape: () => {
      if (hasSelection) clearSelection();
      else if (url.filters.query) updateUrl({ filters: { ...url.filters, query: '' } });
      searchRef.current?.blur();
    },
    move: (delta) => {
      if (sorted.length === 0) return;
      const i = selection.tripId === null ? -1 : sorted.findIndex((r) => r.tripId === selection.tripId);
      const next = i < 0 ? (delta === 1 ? 0 : sorted.length - 1) : Math.min(sorted.length - 1, Math.max(0, i + delta));
      selectRow(sorted[next]!);
    },
    toggleFollow: () => {
      if (vehicle && hasPosition(vehicle) && !listOnly) setFollow((f) => !f);
    },
  });

  const onFiltersChange = useCallback((patch: { filters?: Filters; sort?: SortKey }) => updateUrl(patch), [updateUrl]);

  const row = selection.row;
  const announcement = hasSelection
    ? row
      ? `Selected trip ${row.tripId}, route ${row.routeCode ?? row.routeName ?? 'unknown'}, bus ${row.plateNumber ?? row.busName ?? 'unknown'}, ${row.delayMinutes === null ? 'delay unknown' : formatDelay(row.delayMinutes)}.`
      : `Selected ${selection.tripId !== null ? `trip ${selection.tripId}` : `bus ${vehicle?.plateNumber ?? selection.busId}`}.`
    : 'No selection.';

  const panel = hasSelection ? (
    <TripPanel
      tripId={selection.tripId}
      row={row}
      vehicle={vehicle}
      now={now}
      staleAfterS={staleAfterS}
      theme={theme}
      follow={follow}
      onFollowChange={setFollow}
      onRecentre={recentre}
      routeOverlayId={url.routeId}
      onToggleRoute={(routeId) => updateUrl({ routeId })}
      onClose={clearSelection}
      hasMap={!listOnly}
    />
  ) : null;

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <header className="flex flex-wrap items-center gap-x-5 gap-y-1 border-b border-slate-200 bg-white px-3 py-1.5 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center gap-3">
          <h1 className="text-base font-semibold tracking-tight">Fleetmap</h1>
          <nav aria-label="Views" className="flex gap-3 text-sm text-slate-600 dark:text-slate-300">
            <span aria-current="page" className="font-medium text-slate-900 dark:text-white">
              Dispatch
            </span>
            <Link href="/delays" className="hover:underline">
              Delays
            </Link>
            <Link href="/wall" className="hover:underline">
              Wall
            </Link>
          </nav>
        </div>
        {/* Phones: the status gets its own row under the title; wider screens: one line. */}
        <ThemeToggle className="ml-auto md:order-last" />
        {health && <StatusBar health={health} vehicles={snapshot?.vehicles ?? []} now={now} staleAfterS={staleAfterS} className="order-last w-full md:order-none md:w-auto md:min-w-0 md:flex-1" />}
      </header>

      <HealthBanners health={health} link={link} now={now} className="px-3 pt-2 empty:hidden" />
      {listOnly && health && (
        <div role="note" className="mx-3 mt-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
          <span className="font-semibold">List only: no bus locations with this key.</span> {noLocationsReason(health)}
        </div>
      )}

      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>

      <main className="relative flex min-h-0 flex-1">
        <aside
          aria-label="Active trips"
          className={
            listOnly
              ? 'flex min-w-0 flex-1 flex-col bg-white dark:bg-slate-900'
              : `fixed inset-x-0 bottom-0 z-30 flex flex-col rounded-t-xl border-t border-slate-200 bg-white shadow-[0_-4px_16px_rgba(0,0,0,0.12)] md:static md:z-auto md:h-auto md:w-[380px] md:shrink-0 md:rounded-none md:border-t-0 md:border-r md:shadow-none dark:border-slate-800 dark:bg-slate-900 ${
                  sheetOpen ? 'h-[50dvh]' : 'h-12'
                }`
          }
        >
          {!listOnly && (
            <button
              type="button"
              className="flex h-12 shrink-0 items-center justify-center gap-2 text-sm font-medium md:hidden"
              aria-expanded={sheetOpen}
              onClick={() => setSheetOpen((o) => !o)}
            >
              <span className="h-1 w-10 rounded-full bg-slate-300 dark:bg-slate-600" aria-hidden />
              {sheetOpen ? 'Hide trips' : `Show trips (${sorted.length})`}
            </button>
          )}
          <div className={`min-h-0 flex-1 flex-col ${sheetOpen || listOnly ? 'flex' : 'hidden md:flex'}`}>
            <TripFilters
              filters={url.filters}
              sort={url.sort}
              counts={counts}
              routes={routes}
              directions={directions}
              shown={sorted.length}
              total={rows.length}
              theme={theme}
              searchRef={searchRef}
              onChange={onFiltersChange}
            />
            {snapshot ? (
              <TripList rows={sorted} selectedTripId={selection.tripId} onSelect={selectRow} now={now} staleAfterS={staleAfterS} theme={theme} />
            ) : (
              <p className="p-4 text-sm text-slate-500 dark:text-slate-400">{link.fetchFailed ? 'No data yet: the server cannot be reached.' : 'Loading live data…'}</p>
            )}
          </div>
        </aside>

        {listOnly ? (
          panel && <div className="w-[380px] shrink-0 border-l border-slate-200 p-3 dark:border-slate-800">{panel}</div>
        ) : (
          <section aria-label="Map" className="relative min-w-0 flex-1">
            {snapshot ? (
              <FleetMap
                className="absolute inset-0"
                vehicles={snapshot.vehicles}
                generatedAt={snapshot.generatedAt}
                staleAfterS={staleAfterS}
                selectedBusId={selection.busId}
                onSelectBus={selectBus}
                routeOverlay={url.routeId !== null ? { routeId: url.routeId } : null}
                theme={theme}
                styleUrl={styleUrl}
                styleUrlDark={styleUrlDark}
                follow={follow}
                onFollowChange={setFollow}
                initialView={initialView}
                onViewChange={onViewChange}
                onMapReady={setMap}
              />
            ) : (
              <div className="flex h-full items-center justify-center text-sm text-slate-500 dark:text-slate-400">{link.fetchFailed ? 'The live data is unavailable.' : 'Loading the map…'}</div>
            )}
            {panel && <div className="absolute inset-x-2 top-2 z-20 flex max-h-[45%] flex-col md:inset-x-auto md:top-3 md:right-3 md:bottom-3 md:max-h-none md:w-[340px]">{panel}</div>}
          </section>
        )}
      </main>
    </div>
  );
}
