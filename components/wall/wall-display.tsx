'use client';
import { agencyZoneOf } from '@/lib/view/display-zone';
import { useQuery } from '@tanstack/react-query';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useMemo, useState } from 'react';
import { WallLadder } from '@/components/ladder/wall-ladder';
import { FleetMap } from '@/components/map/fleet-map';
import '@/components/map/preload';
import { useWallFraming } from '@/components/map/use-wall-framing';
import { liveQuery } from '@/lib/client/queries';
import { useBusPlacements } from '@/lib/client/use-bus-placements';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { useNow } from '@/lib/client/use-now';
import { useRedeployReload } from '@/lib/client/use-redeploy-reload';
import { useDocumentTheme } from '@/lib/client/use-theme';
import { dataAgeS, healthBanners } from '@/lib/view/health';
import type { WallOptions } from '@/lib/page-url/wall-options';
import { wallView } from '@/lib/view/wall-view';
import { PanelBoundary } from './panel-boundary';
import { WallBanner } from './wall-banner';
import { WallExceptions } from './wall-exceptions';
import { WallClock, WallFigures, WallTitle } from './wall-panels';

export interface WallDisplayProps {
  options: WallOptions;
  staleAfterS: number;
  styleUrl: string | null;
  styleUrlDark: string | null;
  /** How long a crashed panel rests before it is tried again. */
  panelRetryMs?: number;
}

/**
 * The wall: no controls, everything from the URL; each panel survives on its own, and the whole survives a
 * snapshot it cannot read (a quiet placeholder, then a fresh start).
 */
export function WallDisplay(props: WallDisplayProps) {
  // Keep polling while the content is down: a crashed subtree observes nothing, and without this a bad
  // snapshot would stay in the cache for good. Nothing is read from the result, so this never re-renders.
  useQuery(liveQuery());
  return (
    <PanelBoundary name="The wall" retryAfterMs={props.panelRetryMs ?? DEFAULT_RETRY_MS} className="fixed inset-0 bg-slate-950 text-2xl">
      <WallContent {...props} />
    </PanelBoundary>
  );
}

const DEFAULT_RETRY_MS = 15_000;
// Buses at the dispatcher's size are specks from 3 m away; 1.8 times makes a dot and its arrow readable
// across a room while a busy corridor still shows separate buses.
const WALL_BUS_SCALE = 1.8;

function WallContent({ options, staleAfterS, styleUrl, styleUrlDark, panelRetryMs = DEFAULT_RETRY_MS }: WallDisplayProps) {
  const feed = useLiveFeed();
  const snapshot = feed.snapshot ?? null;
  // The browser's clock for the clock on screen and the rotation; the server's (feed.now) for data ages.
  const now = useNow();
  const { routes, rotateS, theme } = options;

  // The selection changes with a new snapshot or a new rotation slot, not with every clock tick: the map
  // is only handed new buses when there is something new to draw.
  const slot = rotateS !== null ? Math.floor(now / (rotateS * 1000)) : 0;
  const view = useMemo(
    () => (snapshot ? wallView(snapshot, { routes, rotateS }, rotateS !== null ? slot * rotateS * 1000 : 0) : null),
    [snapshot, routes, rotateS, slot],
  );

  const ageS = snapshot && feed.now ? dataAgeS(snapshot.health, feed.now) : null;
  const agencyZone = agencyZoneOf(snapshot?.health);
  const banners = healthBanners(snapshot?.health ?? null, feed.link, feed.now, agencyZone ?? undefined);
  useRedeployReload(() => banners.length === 0);
  useDocumentTheme(theme);

  const currentRouteId = view?.current?.routeId ?? null;
  const overlay = useMemo(() => (currentRouteId !== null ? { routeId: currentRouteId } : null), [currentRouteId]);
  const vehicles = useMemo(() => view?.vehicles ?? [], [view]);
  // The wall draws estimates: a room watching the network sees buses move along their routes, each marked as such.
  const { placements, placedAt, now: mapNow } = useBusPlacements(vehicles, snapshot?.generatedAt ?? 0, staleAfterS, 'estimates');
  const [map, setMap] = useState<MapLibreMap | null>(null);
  useWallFraming(map, view?.current?.key ?? 'all', vehicles);

  return (
    <div data-theme={theme} className="fixed inset-0 grid grid-cols-[1fr_30rem] bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-50">
      {/* The network view is the page's main content; the figures beside it are complementary. */}
      <main aria-label="Network" className="relative min-w-0">
        {options.ladder.length > 0 ? (
          <PanelBoundary name="Ladder" retryAfterMs={panelRetryMs} className="absolute inset-0">
            <WallLadder routes={options.ladder} theme={theme} />
          </PanelBoundary>
        ) : (
        <PanelBoundary name="Map" retryAfterMs={panelRetryMs} className="absolute inset-0">
          <FleetMap
            vehicles={vehicles}
            placements={placements}
            placedAt={placedAt}
            now={mapNow}
            staleAfterS={staleAfterS}
            theme={theme}
            styleUrl={styleUrl}
            styleUrlDark={styleUrlDark}
            interactive={false}
            fitToVehicles
            busScale={WALL_BUS_SCALE}
            routeOverlay={overlay}
            onMapReady={setMap}
            className="absolute inset-0"
          />
        </PanelBoundary>
        )}
        <div className="pointer-events-none absolute inset-x-6 top-6 flex flex-col items-start gap-4">
          <PanelBoundary name="Title" retryAfterMs={panelRetryMs}>
            <WallTitle view={view} requested={routes} />
          </PanelBoundary>
          <WallBanner banners={banners} ageS={ageS} />
        </div>
        {options.problems.length > 0 && (
          <ul aria-label="Ignored options" className="absolute bottom-4 left-6 rounded bg-white/80 px-3 py-2 text-lg text-slate-600 dark:bg-slate-900/80 dark:text-slate-300">
            {options.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
      </main>
      <aside aria-label="Key figures" className="flex flex-col gap-4 overflow-hidden border-l border-slate-200 p-6 dark:border-slate-800">
        <PanelBoundary name="Clock" retryAfterMs={panelRetryMs}>
          <WallClock now={now} ageS={ageS} agencyZone={agencyZone} />
        </PanelBoundary>
        <PanelBoundary name="Exceptions" retryAfterMs={panelRetryMs}>
          <WallExceptions />
        </PanelBoundary>
        <PanelBoundary name="Figures" retryAfterMs={panelRetryMs} className="flex-1">
          {view ? <WallFigures figures={view.figures} worst={view.worst} theme={theme} /> : <p className="text-2xl text-slate-600 dark:text-slate-400">Waiting for live data…</p>}
        </PanelBoundary>
      </aside>
    </div>
  );
}
