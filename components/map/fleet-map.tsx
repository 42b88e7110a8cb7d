'use client';
// The live map of the fleet, shared by the dispatcher view and the wall display. MapLibre is loaded in an
// effect (never at import time, never on the server); layers live in ./layers, one file each.
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GeoJSONSource, Map as MapLibreMap, MapGeoJSONFeature, MapMouseEvent } from 'maplibre-gl';
import type { Vehicle } from '@/lib/model';
import { lonLatBounds, type LngLat } from '@/lib/geo/lon-lat';
import { busCollections, busPoints } from '@/lib/view/bus-features';
import type { Theme } from '@/lib/view/theme';
import { networkQuery } from '@/lib/client/queries';
import { useServerNow } from '@/lib/client/use-server-now';
import { NETWORK_SOURCE_ID, resolveMapStyle } from '@/lib/map-style/offline-style';
import { MapTooltip, type MapHover } from './bus-tooltip';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID, BUS_SOURCE_ID, useBusLayer } from './layers/bus-layer';
import { ROUTE_OVERLAY_STOP_LAYER_IDS, useRouteOverlayLayer } from './layers/route-overlay-layer';
import { SELECTED_BUS_LAYER_ID, useSelectedBusLayer } from './layers/selected-bus-layer';
import { useGlide } from '@/lib/client/use-glide';
import type { MapHandle } from './use-map-layers';
import { FLEET_MAP_RENDER_OPTIONS } from './render-options';

export interface MapView {
  lng: number;
  lat: number;
  zoom: number;
}

export interface FleetMapProps {
  vehicles: Vehicle[];
  /** The snapshot's generatedAt: ages are measured against it plus the time elapsed locally. */
  generatedAt: number;
  staleAfterS: number;
  selectedBusId?: number | null;
  onSelectBus?: (busId: number | null) => void;
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
  initialView?: MapView | null;
  onViewChange?: (view: MapView) => void;
  /** The MapLibre instance once created (null when it goes away), for one-off camera moves. */
  onMapReady?: (map: MapLibreMap | null) => void;
  /**
   * How much bigger than on a desk the buses are drawn (circles, arrows, labels, clusters): a wall read from
   * across a room needs about 1.8. Default 1.
   */
  busScale?: number;
  /** Positions and sizes the map (e.g. `absolute inset-0`); defaults to `relative h-full w-full`. */
  className?: string;
}

declare global {
  interface Window {
    /** The live MapLibre instance, for tests and tools. */
    __fleetmap?: { map: MapLibreMap };
  }
}

const WORKER_URL = '/maplibre-gl-worker.mjs';
const REFIT_MS = 5 * 60_000;
// Stale flags are re-evaluated on this beat, rounding time up so a bus turns stale early, never late.
const STALE_BEAT_MS = 5_000;

function styleKey(theme: Theme, styleUrl: string | null, styleUrlDark: string | null) {
  return `${theme}|${styleUrl ?? ''}|${styleUrlDark ?? ''}`;
}

export function FleetMap(props: FleetMapProps) {
  const {
    vehicles,
    generatedAt,
    staleAfterS,
    selectedBusId = null,
    routeOverlay = null,
    theme,
    styleUrl,
    styleUrlDark,
    interactive = true,
    follow = false,
    fitToVehicles = false,
    busScale = 1,
    className,
  } = props;
  if (!(Number.isFinite(busScale) && busScale > 0)) throw new RangeError(`FleetMap busScale must be a positive number, got ${busScale}`);
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  // Which style finished loading last, and how many loads so far. Layers are added only while the loaded
  // style is the one the props ask for: during a theme switch the old style is going and the new one not
  // ready, and adding to it would throw.
  const [loaded, setLoaded] = useState({ gen: 0, key: '' });
  const [hover, setHover] = useState<MapHover | null>(null);
  const currentKey = styleKey(theme, styleUrl, styleUrlDark);
  const styleGen = loaded.key === currentKey ? loaded.gen : 0;
  const handle: MapHandle = useMemo(() => ({ map, styleGen }), [map, styleGen]);

  // Latest props for event handlers registered once per map.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const appliedStyle = useRef('');

  useEffect(() => {
    let cancelled = false;
    let created: MapLibreMap | null = null;
    void import('maplibre-gl').then((maplibre) => {
      const container = containerRef.current;
      if (cancelled || !container) return;
      const p = latest.current;
      maplibre.setWorkerUrl(WORKER_URL);
      const view = p.initialView;
      created = new maplibre.Map({
        container,
        style: resolveMapStyle({ theme: p.theme, origin: window.location.origin, styleUrl: p.styleUrl, styleUrlDark: p.styleUrlDark }),
        center: view ? [view.lng, view.lat] : [0, 20],
        zoom: view ? view.zoom : 1.5,
        interactive: p.interactive ?? true,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
        maxZoom: 19,
        ...FLEET_MAP_RENDER_OPTIONS,
      });
      created.touchZoomRotate.disableRotation();
      if (p.interactive ?? true) created.addControl(new maplibre.NavigationControl({ showCompass: false }), 'bottom-right');
      appliedStyle.current = styleKey(p.theme, p.styleUrl, p.styleUrlDark);
      created.on('style.load', () => setLoaded((l) => ({ gen: l.gen + 1, key: appliedStyle.current })));
      window.__fleetmap = { map: created };
      setMap(created);
      latest.current.onMapReady?.(created);
    });
    return () => {
      cancelled = true;
      if (created) {
        if (window.__fleetmap?.map === created) delete window.__fleetmap;
        latest.current.onMapReady?.(null);
        created.remove();
      }
    };
  }, []);

  // A new theme or style URL replaces the whole style; diff:false makes it a clean reload, after which
  // every layer re-adds itself (styleGen).
  useEffect(() => {
    if (!map || currentKey === appliedStyle.current) return;
    appliedStyle.current = currentKey;
    map.setStyle(resolveMapStyle({ theme, origin: window.location.origin, styleUrl, styleUrlDark }), { diff: false });
  }, [map, currentKey, theme, styleUrl, styleUrlDark]);

  const { now } = useServerNow(generatedAt);
  const staleBeat = Math.ceil(now / STALE_BEAT_MS) * STALE_BEAT_MS;
  const points = useMemo(() => busPoints(vehicles, staleBeat, staleAfterS), [vehicles, staleBeat, staleAfterS]);
  const targets = useMemo(() => new Map<number, LngLat>(points.map((p) => [p.busId, p.position])), [points]);
  const drawn = useGlide(targets);
  const collections = useMemo(() => busCollections(points, drawn, selectedBusId), [points, drawn, selectedBusId]);
  const vehicleById = useMemo(() => new Map(vehicles.map((v) => [v.busId, v])), [vehicles]);

  const [overlayRestoredWithView] = useState(() => (props.initialView ? (routeOverlay?.routeId ?? null) : null));
  useRouteOverlayLayer(handle, theme, routeOverlay?.routeId ?? null, { fit: interactive, keepViewForRouteId: overlayRestoredWithView });
  useBusLayer(handle, theme, collections.clustered, busScale);
  useSelectedBusLayer(handle, theme, collections.selected, busScale);
  useNetworkRefresh(handle);

  // Pointer: hover shows a tooltip, a click selects a bus or zooms into a cluster.
  useEffect(() => {
    if (!map || !interactive) return;
    const pick = (e: MapMouseEvent): MapGeoJSONFeature | undefined => {
      const layers = [SELECTED_BUS_LAYER_ID, BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID, ...ROUTE_OVERLAY_STOP_LAYER_IDS].filter((id) => map.getLayer(id));
      return layers.length ? map.queryRenderedFeatures(e.point, { layers })[0] : undefined;
    };
    const onMove = (e: MapMouseEvent) => {
      const f = pick(e);
      map.getCanvas().style.cursor = f ? 'pointer' : '';
      const lid = f?.layer.id;
      if (f && (lid === BUS_LAYER_ID || lid === SELECTED_BUS_LAYER_ID)) setHover({ kind: 'bus', busId: Number(f.properties.busId), x: e.point.x, y: e.point.y });
      else if (f && lid && ROUTE_OVERLAY_STOP_LAYER_IDS.includes(lid)) setHover({ kind: 'stop', name: String(f.properties.name), role: String(f.properties.role), x: e.point.x, y: e.point.y });
      else setHover(null);
    };
    const onLeave = () => setHover(null);
    const onClick = (e: MapMouseEvent) => {
      const f = pick(e);
      if (!f) return;
      if (f.layer.id === BUS_CLUSTER_LAYER_ID) {
        const source = map.getSource<GeoJSONSource>(BUS_SOURCE_ID);
        const center = (f.geometry as GeoJSON.Point).coordinates as [number, number];
        void source
          ?.getClusterExpansionZoom(Number(f.properties.cluster_id))
          .then((zoom) => map.easeTo({ center, zoom: zoom + 0.25 }))
          .catch(() => undefined);
        return;
      }
      if (f.layer.id === BUS_LAYER_ID || f.layer.id === SELECTED_BUS_LAYER_ID) latest.current.onSelectBus?.(Number(f.properties.busId));
    };
    // Only a person dragging ends follow mode; our own jumpTo calls carry no originalEvent.
    const onDragStart = (e: { originalEvent?: Event }) => {
      if (e.originalEvent && latest.current.follow) latest.current.onFollowChange?.(false);
    };
    const onMoveEnd = () => {
      const c = map.getCenter();
      latest.current.onViewChange?.({ lng: round(c.lng, 5), lat: round(c.lat, 5), zoom: round(map.getZoom(), 2) });
    };
    map.on('mousemove', onMove);
    map.on('mouseout', onLeave);
    map.on('click', onClick);
    map.on('dragstart', onDragStart);
    map.on('moveend', onMoveEnd);
    return () => {
      map.off('mousemove', onMove);
      map.off('mouseout', onLeave);
      map.off('click', onClick);
      map.off('dragstart', onDragStart);
      map.off('moveend', onMoveEnd);
    };
  }, [map, interactive]);

  // Follow: keep the selected bus centred, frame by frame while it glides.
  const followed = selectedBusId !== null ? (drawn.get(selectedBusId) ?? null) : null;
  const followLng = followed?.[0];
  const followLat = followed?.[1];
  const wasFollowing = useRef(false);
  useEffect(() => {
    if (!map || !follow || followLng === undefined || followLat === undefined) {
      wasFollowing.current = false;
      return;
    }
    if (!wasFollowing.current) map.easeTo({ center: [followLng, followLat], zoom: Math.max(map.getZoom(), 15), duration: 500 });
    else if (!map.isMoving()) map.jumpTo({ center: [followLng, followLat] });
    wasFollowing.current = true;
  }, [map, follow, followLng, followLat]);

  // First view: the URL's view if given, else fit to the buses once they arrive (and, for wall displays,
  // again every few minutes as the fleet moves around).
  const lastFit = useRef<number | null>(null);
  const bounds = useMemo(() => lonLatBounds(points.map((p) => p.position)), [points]);
  useEffect(() => {
    if (!map || !bounds) return;
    const t = Date.now();
    const first = lastFit.current === null;
    if (first && latest.current.initialView) {
      lastFit.current = t;
      return;
    }
    if (!first && !(fitToVehicles && t - (lastFit.current ?? 0) > REFIT_MS)) return;
    if (latest.current.follow) return;
    lastFit.current = t;
    map.fitBounds(bounds, { padding: 48, maxZoom: 15, duration: first ? 0 : 1500 });
  }, [map, bounds, fitToVehicles]);

  const showFollowButton = interactive && props.onFollowChange && selectedBusId !== null && followed !== null && !follow;

  return (
    <div className={`overflow-hidden ${className ?? 'relative h-full w-full'}`}>
      {/* Inline position: MapLibre's own `.maplibregl-map { position: relative }` would beat a utility class. */}
      <div ref={containerRef} style={{ position: 'absolute', inset: 0 }} aria-label="Live map of the fleet" role="region" />
      {hover && <MapTooltip hover={hover} vehicle={hover.kind === 'bus' ? vehicleById.get(hover.busId) : undefined} now={now} staleAfterS={staleAfterS} />}
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

function round(n: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * The offline style loads /api/network once; while the feed is still loading route stops the network grows,
 * so the same data networkQuery polls is pushed into the style's source. A hosted style has no such source.
 */
function useNetworkRefresh({ map, styleGen }: MapHandle) {
  const { data } = useQuery(networkQuery());
  useEffect(() => {
    if (!map || styleGen === 0 || !data) return;
    const source = map.getSource<GeoJSONSource>(NETWORK_SOURCE_ID);
    if (source?.type === 'geojson') void source.setData(data as GeoJSON.FeatureCollection).catch(() => undefined);
  }, [map, styleGen, data]);
}
