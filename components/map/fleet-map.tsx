'use client';
// The live map of the fleet, shared by the dispatcher view and the wall display, composed from its hooks:
// the MapLibre instance and its style (use-maplibre), the buses (use-bus-drawing hands them to the controller,
// ./bus-drawing, which gives them to the overlay at street zoom and the clustered layer below it), the route
// overlay and the trail (./layers), the pointer (use-map-pointer) and the camera (use-map-camera). Where each bus
// is drawn comes from its placement (lib/placement/bus-placement), made by the page.
import 'maplibre-gl/dist/maplibre-gl.css';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { estimateAt } from '@/lib/estimate';
import { featurePositions, lonLatBounds, type LngLat } from '@/lib/geo/lon-lat';
import { networkQuery } from '@/lib/client/queries';
import type { HistoryFix, Vehicle } from '@/lib/model';
import type { BusPlacement } from '@/lib/placement/bus-placement';
import type { Theme } from '@/lib/theme/theme';
import { MapTooltip } from './bus-tooltip';
import { useBusLayer } from './layers/bus-layer';
import { useRouteOverlayLayer } from './layers/route-overlay-layer';
import { useTrailLayer } from './layers/trail-layer';
import { useBusDrawing, useBusHandover } from './use-bus-drawing';
import { useMapCamera, type MapView } from './use-map-camera';
import { useLaterSources, useMapLibre, useNetworkRefresh } from './use-maplibre';
import { useMapPointer } from './use-map-pointer';

export type { MapView };

export interface FleetMapProps {
  /** The snapshot's vehicles (for the tooltip). */
  vehicles: Vehicle[];
  /** Where each bus is drawn (useBusPlacements), and the instant they were placed for. */
  placements: BusPlacement[];
  placedAt: number;
  /** Server time now (ticking). */
  now: number;
  staleAfterS: number;
  selectedBusId?: number | null;
  onSelectBus?: (busId: number | null) => void;
  /** A stop of the route overlay was clicked: "next arrivals here". */
  onSelectStop?: (stopId: number) => void;
  routeOverlay?: { routeId: number } | null;
  theme: Theme;
  styleUrl: string | null;
  styleUrlDark: string | null;
  interactive?: boolean;
  /** Keep the selected bus centred. */
  follow?: boolean;
  onFollowChange?: (follow: boolean) => void;
  /** Fit to the buses on the first data and every few minutes after (wall displays). */
  fitToVehicles?: boolean;
  /** With no bus to fit to (a replay's moment before the recording began), frame the network's stops and routes. */
  frameNetworkWhenEmpty?: boolean;
  initialView?: MapView | null;
  onViewChange?: (view: MapView) => void;
  /** The MapLibre instance once created (null when it goes away), for one-off camera moves. */
  onMapReady?: (map: MapLibreMap | null) => void;
  /**
   * How much bigger than on a desk the buses are drawn (circles, arrows, labels, clusters): a wall read from
   * across a room needs about 1.8. Default 1.
   */
  busScale?: number;
  /** A recorded trail to draw under the buses (the selected trip's, or a bus's track in a replay). */
  trail?: readonly HistoryFix[] | null;
  /** Positions and sizes the map (e.g. `absolute inset-0`); defaults to `relative h-full w-full`. */
  className?: string;
}

export function FleetMap(props: FleetMapProps) {
  const {
    vehicles,
    placements,
    placedAt,
    now,
    staleAfterS,
    selectedBusId = null,
    routeOverlay = null,
    theme,
    styleUrl,
    styleUrlDark,
    interactive = true,
    follow = false,
    fitToVehicles = false,
    frameNetworkWhenEmpty = false,
    initialView = null,
    busScale = 1,
    className,
  } = props;
  if (!(Number.isFinite(busScale) && busScale > 0)) throw new RangeError(`FleetMap busScale must be a positive number, got ${busScale}`);
  const containerRef = useRef<HTMLDivElement>(null);
  const busBounds = useMemo(() => lonLatBounds(placements.map((p) => [p.estimate.lon, p.estimate.lat] as const)), [placements]);
  const busFrame = { placements, selectedBusId, placedAt, now };
  const onBusesMade = useBusHandover(busFrame, theme, busScale);
  const handle = useMapLibre(containerRef, { theme, styleUrl, styleUrlDark, interactive, initialView, initialBounds: busBounds, onMapReady: props.onMapReady, onBusesMade });
  const { map } = handle;

  const vehicleById = useMemo(() => new Map(vehicles.map((v) => [v.busId, v])), [vehicles]);
  const placementById = useMemo(() => new Map(placements.map((p) => [p.busId, p])), [placements]);

  const [overlayRestoredWithView] = useState(() => (initialView ? (routeOverlay?.routeId ?? null) : null));
  useRouteOverlayLayer(handle, theme, routeOverlay?.routeId ?? null, { fit: interactive, keepViewForRouteId: overlayRestoredWithView });
  useBusLayer(handle, handle.clusters, theme, busScale);
  const overlay = handle.overlay;
  useBusDrawing(handle.drawing ?? null, overlay, busFrame, theme, busScale);
  useTrailLayer(handle, theme, props.trail ?? null);
  useNetworkRefresh(handle);
  // Last: the basemap's held sources queue behind the buses' and the network's data.
  useLaterSources(handle);

  const hover = useMapPointer(map, interactive, overlay, { onSelectBus: props.onSelectBus, onSelectStop: props.onSelectStop, follow, onFollowChange: props.onFollowChange, onViewChange: props.onViewChange });
  const selected = selectedBusId !== null ? placementById.get(selectedBusId) : undefined;
  // Follow mode re-centres on the estimate as the clock ticks (once a second), not every animation frame.
  const followedAt = selected ? estimateAt(selected.estimate, now) : null;
  const followed: LngLat | null = followedAt ? [followedAt.lon, followedAt.lat] : null;
  // The data the network layer shows (the same query, one request).
  const network = useQuery({ ...networkQuery(), enabled: frameNetworkWhenEmpty }).data;
  const networkBounds = useMemo(() => (frameNetworkWhenEmpty && network ? lonLatBounds(featurePositions(network.features)) : null), [frameNetworkWhenEmpty, network]);
  const bounds = busBounds ?? networkBounds;
  useMapCamera(map, { initialView, bounds, fitToVehicles, follow, followed });

  const showFollowButton = interactive && props.onFollowChange && selectedBusId !== null && followed !== null && !follow;

  return (
    <div className={`overflow-hidden ${className ?? 'relative h-full w-full'}`}>
      {/* Inline position: MapLibre's own `.maplibregl-map { position: relative }` would beat a utility class. */}
      <div ref={containerRef} style={{ position: 'absolute', inset: 0 }} aria-label="Live map of the fleet" role="region" />
      {handle.loadFailure && (
        <p
          role="status"
          data-map-load-failure={handle.loadFailure.attempts}
          className="absolute left-1/2 top-1/2 z-10 max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 shadow-md dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
        >
          The map could not be loaded ({handle.loadFailure.attempts === 1 ? '1 try' : `${handle.loadFailure.attempts} tries`} so far); it tries again by itself. The data keeps updating.
        </p>
      )}
      {hover && (
        <MapTooltip
          hover={hover}
          vehicle={hover.kind === 'bus' ? vehicleById.get(hover.busId) : undefined}
          placement={hover.kind === 'bus' ? placementById.get(hover.busId) : undefined}
          now={now}
          staleAfterS={staleAfterS}
        />
      )}
      {showFollowButton && (
        <button
          type="button"
          onClick={() => props.onFollowChange?.(true)}
          className="absolute bottom-3 left-1/2 z-10 -translate-x-1/2 rounded-full border border-slate-300 bg-white/95 px-3 py-1.5 text-xs font-medium text-slate-800 shadow-md hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:bg-slate-900/95 dark:text-slate-100 dark:hover:bg-slate-800"
        >
          Re-centre on selected bus
        </button>
      )}
    </div>
  );
}
