'use client';
// The dispatcher's screen: the live map, the list of active trips, the panel of the selected trip, and an
// honest account of how old and how healthy the data is. All view state sits in the URL.
import { agencyZoneOf } from '@/lib/view/display-zone';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { AppHeader } from '@/components/app-header';
import { ExceptionsPanel } from '@/components/exceptions/exceptions-panel';
import { FleetMap } from '@/components/map/fleet-map';
import '@/components/map/preload';
import { centreOnBus } from '@/components/map/use-map-camera';
import { useMapRightPadding } from '@/components/map/use-map-padding';
import { HealthBanners, StatusBar } from '@/components/status';
import { estimateAt } from '@/lib/estimate';
import type { LiveException, Vehicle } from '@/lib/model';
import { useBusPlacements } from '@/lib/client/use-bus-placements';
import { headwaysQuery, historyTripQuery } from '@/lib/client/queries';
import { ghostTrips } from '@/lib/regularity/ghosts';
import { useDispatcherKeys } from '@/lib/client/use-dispatcher-keys';
import { useDispatcherSelection } from '@/lib/client/use-dispatcher-selection';
import { useDispatcherUrl, useMapViewUrl } from '@/lib/client/use-dispatcher-url';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { useTheme } from '@/lib/client/use-theme';
import { useHasRole } from '@/lib/client/use-viewer';
import { useTripList } from '@/lib/client/use-trip-list';
import { lacksLocations, noLocationsReason } from '@/lib/view/health';
import { selectionAnnouncement, spacingByTrip, type SortKey, type TripFilters as Filters } from '@/lib/view/trip-list';
import type { ActiveTrip } from '@/lib/view/trips';
import { LAYOUT_VARS, TRIP_PANEL_COVER_PX, WIDE_SCREEN_QUERY } from './layout';
import { PositionControl } from './position-control';
import { TripFilters } from './trip-filters';
import { TripList } from './trip-list';
import { StopArrivals } from './stop-arrivals';
import { TripPanel } from './trip-panel';

export interface DispatcherViewProps {
  staleAfterS: number;
  /** GHOST_AFTER_S: the trip list marks ghost trips by the one rule (lib/regularity/ghosts.ts). */
  ghostAfterS: number;
  styleUrl: string | null;
  styleUrlDark: string | null;
}

const NO_VEHICLES: Vehicle[] = [];

export function DispatcherView({ staleAfterS, ghostAfterS, styleUrl, styleUrlDark }: DispatcherViewProps) {
  const [url, updateUrl] = useDispatcherUrl();
  const [theme] = useTheme();
  const [sheetOpen, setSheetOpen] = useState(true);
  const searchRef = useRef<HTMLInputElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);

  // The URL names the bus for deep links; the server polls that bus first (a dispatcher's right: it spends budget).
  const canDispatch = useHasRole('dispatcher');
  const { snapshot, now, link } = useLiveFeed(canDispatch ? url.busId : null);
  // Live headways are asked for only while the list is filtered by spacing (every route's, from /api/headways).
  const headways = useQuery({ ...headwaysQuery(null), enabled: url.filters.spacing !== null });
  const spacing = useMemo(() => (headways.data ? spacingByTrip(headways.data.routes) : undefined), [headways.data]);
  const list = useTripList(snapshot, url.filters, url.sort, { now, staleAfterS, spacing });
  const ghosts = useMemo(() => new Map(snapshot ? ghostTrips(snapshot, now, ghostAfterS).map((g) => [g.tripId, g.reason]) : []), [snapshot, now, ghostAfterS]);
  const { selection, vehicle, hasSelection, follow, setFollow, selectTrip, selectBus, clearSelection } = useDispatcherSelection(url, updateUrl, list.trips, snapshot);
  const { initialView, onViewChange } = useMapViewUrl(url.view, updateUrl);

  const health = snapshot?.health ?? null;
  const zone = useDisplayZone(agencyZoneOf(health));
  // Without GPS (a Standard-plan key) every bus on the map is placed by its schedule: there are no fixes to show.
  const noGps = health !== null && lacksLocations(health);
  const positions = noGps ? 'estimates' : url.positions;
  const { placements, placedAt, now: mapNow } = useBusPlacements(snapshot?.vehicles ?? NO_VEHICLES, snapshot?.generatedAt ?? 0, staleAfterS, positions);
  const placement = useMemo(() => (selection.busId !== null ? (placements.find((p) => p.busId === selection.busId) ?? null) : null), [placements, selection.busId]);
  const located = placement !== null;

  const selectRow = useCallback(
    (trip: ActiveTrip) => {
      // On a phone the sheet makes way for the map and the panel (the sheet state does not apply on wider screens).
      setSheetOpen(false);
      selectTrip(trip);
    },
    [selectTrip],
  );
  // An exception selects its trip when the list has it, else its bus.
  const selectException = useCallback(
    (e: LiveException) => {
      const row = e.subject.tripId !== null ? list.trips.find((t) => t.tripId === e.subject.tripId) : undefined;
      if (row) selectRow(row);
      else if (e.subject.busId !== null) selectBus(e.subject.busId);
    },
    [list.trips, selectRow, selectBus],
  );
  const recentre = useCallback(() => {
    if (!map || !placement) return;
    const at = estimateAt(placement.estimate, mapNow);
    centreOnBus(map, [at.lon, at.lat]);
  }, [map, placement, mapNow]);

  // On wide screens the panel floats over the map's right side: centre (follow, fits) in the part left visible.
  useMapRightPadding(map, hasSelection ? TRIP_PANEL_COVER_PX : 0, WIDE_SCREEN_QUERY);

  useDispatcherKeys({
    focusSearch: () => searchRef.current?.focus(),
    escape: () => {
      if (hasSelection) clearSelection();
      // The query as the URL holds it now, not as the last render saw it: on a busy machine Esc can come before React
      // has rendered the last keystroke, and the blur below then keeps the browser from clearing the box itself.
      else updateUrl((now) => (now.filters.query ? { filters: { ...now.filters, query: '' } } : {}));
      searchRef.current?.blur();
    },
    move: (delta) => {
      const shown = list.shown;
      if (shown.length === 0) return;
      const i = selection.tripId === null ? -1 : shown.findIndex((r) => r.tripId === selection.tripId);
      const next = i < 0 ? (delta === 1 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, i + delta));
      selectRow(shown[next]!);
    },
    toggleFollow: () => {
      if (located) setFollow((f) => !f);
    },
  });

  const onFiltersChange = useCallback((patch: { filters?: Filters; sort?: SortKey }) => updateUrl(patch), [updateUrl]);

  // The trip's recorded delay changes and trail (the whole of it for a trip that has ended).
  const history = useQuery({ ...historyTripQuery(selection.tripId ?? 0, selection.row !== null), enabled: selection.tripId !== null && canDispatch });
  const trail = selection.tripId !== null ? (history.data?.trail ?? null) : null;

  // "Next arrivals here": a stop clicked on the route overlay; it gives way to a selected trip.
  const [stopId, setStopId] = useState<number | null>(null);
  const panel = hasSelection ? (
    <TripPanel
      tripId={selection.tripId}
      row={selection.row}
      vehicle={vehicle}
      placement={placement}
      now={now}
      staleAfterS={staleAfterS}
      theme={theme}
      follow={follow}
      onFollowChange={setFollow}
      onRecentre={recentre}
      routeOverlayId={url.routeId}
      onToggleRoute={(routeId) => updateUrl({ routeId })}
      onClose={clearSelection}
      hasMap
      zone={zone}
      history={selection.tripId !== null ? history.data : undefined}
      ghost={selection.tripId !== null ? (ghosts.get(selection.tripId) ?? null) : null}
    />
  ) : stopId !== null ? (
    <StopArrivals stopId={stopId} now={now} zone={zone} onClose={() => setStopId(null)} />
  ) : null;

  return (
    <div className="flex h-dvh flex-col overflow-hidden" style={LAYOUT_VARS}>
      <AppHeader
        title="Fleetmap"
        current="dispatch"
        agencyZone={agencyZoneOf(health)}
        status={health && <StatusBar health={health} vehicles={snapshot?.vehicles ?? []} placements={placements} now={now} staleAfterS={staleAfterS} zone={zone.zone} />}
      />

      <HealthBanners health={health} full={snapshot?.fullHealth} link={link} now={now} className="px-3 pt-2 empty:hidden" />
      {noGps && health && (
        <div role="note" className="mx-3 mt-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
          <span className="font-semibold">Map from the schedule: no bus locations with this key.</span> {noLocationsReason(health)}
        </div>
      )}

      <div aria-live="polite" className="sr-only">
        {selectionAnnouncement(selection, vehicle?.plateNumber ?? null)}
      </div>

      <main className="relative flex min-h-0 flex-1">
        <aside
          aria-label="Active trips"
          className={`fixed inset-x-0 bottom-0 z-30 flex flex-col rounded-t-xl border-t border-slate-200 bg-white shadow-[0_-4px_16px_rgba(0,0,0,0.12)] md:static md:z-auto md:h-auto md:w-(--side-column-width) md:shrink-0 md:rounded-none md:border-t-0 md:border-r md:shadow-none dark:border-slate-800 dark:bg-slate-900 ${
            sheetOpen ? 'h-[50dvh]' : 'h-12'
          }`}
        >
          <button
            type="button"
            className="flex h-12 shrink-0 items-center justify-center gap-2 text-sm font-medium md:hidden"
            aria-expanded={sheetOpen}
            onClick={() => setSheetOpen((o) => !o)}
          >
            <span className="h-1 w-10 rounded-full bg-slate-300 dark:bg-slate-600" aria-hidden />
            {sheetOpen ? 'Hide trips' : `Show trips (${list.shown.length})`}
          </button>
          <div className={`min-h-0 flex-1 flex-col ${sheetOpen ? 'flex' : 'hidden md:flex'}`}>
            <ExceptionsPanel now={now} onSelect={selectException} />
            <TripFilters
              filters={url.filters}
              sort={url.sort}
              counts={list.counts}
              routes={list.routes}
              directions={list.directions}
              shown={list.shown.length}
              total={list.trips.length}
              theme={theme}
              searchRef={searchRef}
              onChange={onFiltersChange}
            />
            {snapshot ? (
              <TripList rows={list.shown} selectedTripId={selection.tripId} onSelect={selectRow} now={now} staleAfterS={staleAfterS} theme={theme} ghosts={ghosts} />
            ) : (
              <p className="p-4 text-sm text-slate-500 dark:text-slate-400">{link.fetchFailed ? 'No data yet: the server cannot be reached.' : 'Loading live data…'}</p>
            )}
          </div>
        </aside>

        {/* Not just "Map": MapLibre names its canvas region that, and landmarks need names of their own. */}
        <section aria-label="Map and selected trip" className="relative min-w-0 flex-1">
          {snapshot ? (
            <FleetMap
              className="absolute inset-0"
              vehicles={snapshot.vehicles}
              placements={placements}
              placedAt={placedAt}
              now={mapNow}
              staleAfterS={staleAfterS}
              selectedBusId={selection.busId}
              onSelectBus={(id) => {
                setStopId(null);
                selectBus(id);
              }}
              onSelectStop={(id) => {
                clearSelection();
                setStopId(id);
              }}
              routeOverlay={url.routeId !== null ? { routeId: url.routeId } : null}
              theme={theme}
              styleUrl={styleUrl}
              styleUrlDark={styleUrlDark}
              follow={follow}
              onFollowChange={setFollow}
              initialView={initialView}
              onViewChange={onViewChange}
              onMapReady={setMap}
              trail={trail}
            />
          ) : (
            <div className="flex h-full items-center justify-center text-sm text-slate-500 dark:text-slate-400">{link.fetchFailed ? 'The live data is unavailable.' : 'Loading the map…'}</div>
          )}
          {snapshot && (
            <div className="absolute top-2 left-2 z-10">
              <PositionControl mode={positions} noFixes={noGps} onChange={(mode) => updateUrl({ positions: mode })} />
            </div>
          )}
          {panel && <div className="absolute inset-x-2 top-2 z-20 flex max-h-[45%] flex-col md:inset-x-auto md:top-3 md:right-3 md:bottom-3 md:max-h-none md:w-(--trip-panel-width)">{panel}</div>}
        </section>
      </main>
    </div>
  );
}
