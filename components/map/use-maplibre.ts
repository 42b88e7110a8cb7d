'use client';
// The MapLibre instance behind FleetMap: created in an effect (never at import time, never on the server),
// given its style, and given a new style when the theme or the style URLs change. The style is chosen in one
// place, styleFor.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GeoJSONSource, Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { networkQuery } from '@/lib/client/queries';
import type { LonLatBounds } from '@/lib/geo/lon-lat';
import { firstPaintStyle, type FirstPaintStyle } from '@/lib/map-style/first-paint';
import { NETWORK_SOURCE_ID } from '@/lib/map-style/offline-style';
import { prepareBasemap, resolveMapStyle } from '@/lib/map-style/resolve-style';
import type { Theme } from '@/lib/theme/theme';
import { FLEET_MAP_RENDER_OPTIONS } from './render-options';
import { BusDrawing } from './bus-drawing';
import { BusOverlay } from './bus-overlay';
import { loadMapLibre } from './load-maplibre';
import type { BusHandover } from './use-bus-drawing';
import { ClusterLayer } from './layers/bus-layer';
import { FIT_PADDING_PX, STREET_ZOOM, type MapView } from './use-map-camera';
import type { MapHandle } from './use-map-layers';

declare global {
  interface Window {
    /**
     * The live MapLibre instance, for tests and tools; who draws the buses (`drawing.drawn()` lists every bus
     * drawn, where, as what and by which renderer, at that instant), and the bus overlay's timing.
     */
    __fleetmap?: { map: MapLibreMap; drawing?: Pick<BusDrawing, 'drawn'>; buses?: Pick<BusOverlay, 'pick' | 'timing'> };
  }
}

/** The map's handle, with the two bus renderers the controller (handle.drawing) drives. */
export interface FleetMapHandle extends MapHandle {
  overlay: BusOverlay | null;
  clusters: ClusterLayer | null;
  /** MapLibre could not be loaded: how many tries failed (it keeps trying). null otherwise. */
  loadFailure: MapLoadFailure | null;
}

export interface MapLoadFailure {
  attempts: number;
}

/** Waits between tries to load MapLibre: 2 s, doubling, at most 30 s (a wall display retries for as long as it runs). */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

interface Buses {
  drawing: BusDrawing;
  overlay: BusOverlay;
  clusters: ClusterLayer;
}

/** The controller and its two renderers, made with the map. */
function busesFor(map: MapLibreMap): Buses {
  const drawing = new BusDrawing(map);
  const overlay = new BusOverlay(map, (zoom) => drawing.fleetAt(zoom) === 'overlay');
  const clusters = new ClusterLayer(map, (ready) => drawing.setClustersReady(ready));
  drawing.attach(overlay, clusters);
  return { drawing, overlay, clusters };
}

export interface MapStyleChoice {
  theme: Theme;
  styleUrl: string | null;
  styleUrlDark: string | null;
}

export interface MapLibreOptions extends MapStyleChoice {
  interactive: boolean;
  initialView: MapView | null;
  /** The instance once created (null when it goes away). */
  onMapReady?: (map: MapLibreMap | null) => void;
  /** Given the bus renderers as they are made, before the map's first frame (use-bus-drawing's useBusHandover). */
  onBusesMade?: BusHandover;
  /** Where the map opens without an initial view (the buses' bounds when the page came with them). */
  initialBounds?: LonLatBounds | null;
}

const WORLD_VIEW = { center: [0, 20] as [number, number], zoom: 1.5 };
const MAX_ZOOM = 19;

/**
 * The configured style URL for the theme, or the offline style that ships with the app, as the map first loads
 * it (lib/map-style/first-paint.ts: the land first, the rest once the map is idle).
 */
function styleFor({ theme, styleUrl, styleUrlDark }: MapStyleChoice): { style: string | StyleSpecification; later: FirstPaintStyle['later'] } {
  const style = resolveMapStyle({ theme, origin: window.location.origin, styleUrl, styleUrlDark });
  return typeof style === 'string' ? { style, later: [] } : firstPaintStyle(style);
}

function styleKey({ theme, styleUrl, styleUrlDark }: MapStyleChoice) {
  return `${theme}|${styleUrl ?? ''}|${styleUrlDark ?? ''}`;
}

export function useMapLibre(container: RefObject<HTMLDivElement | null>, options: MapLibreOptions): FleetMapHandle {
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [buses, setBuses] = useState<Buses | null>(null);
  // Which style finished loading last, and how many loads so far. Layers are added only while the loaded
  // style is the one the props ask for: during a theme switch the old style is going and the new one not
  // ready, and adding to it would throw.
  const [loaded, setLoaded] = useState<{ gen: number; key: string; later: FirstPaintStyle['later'] }>({ gen: 0, key: '', later: [] });
  const currentKey = styleKey(options);
  const styleGen = loaded.key === currentKey ? loaded.gen : 0;

  // The options as they are when the map is created (the map is created once per mount).
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const appliedStyle = useRef('');
  // The held sources of the style last given to the map (styleFor).
  const later = useRef<FirstPaintStyle['later']>([]);

  const [loadFailure, setLoadFailure] = useState<MapLoadFailure | null>(null);

  useEffect(() => {
    let cancelled = false;
    let created: MapLibreMap | null = null;
    let made: Buses | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    const load = () =>
      loadMapLibre().then(create, () => {
        // A failed fetch of the module (a deploy replacing it, a network that dropped) would leave the map blank for
        // the page's life: the page says so and tries again.
        if (cancelled) return;
        attempts++;
        const waitMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempts - 1));
        setLoadFailure({ attempts });
        retry = setTimeout(() => void load(), waitMs);
      });
    const create = async (maplibre: Awaited<ReturnType<typeof loadMapLibre>>) => {
      await prepareBasemap(maplibre, latest.current);
      const element = container.current;
      if (cancelled || !element) return;
      const o = latest.current;
      const view = o.initialView;
      const first = styleFor(o);
      later.current = first.later;
      // Opened where it will look: the URL's view, else the buses the page came with (the camera's first fit),
      // else the world. A map opened on the world tiles the world's land first, for nothing.
      const camera = view
        ? { center: [view.lng, view.lat] as [number, number], zoom: view.zoom }
        : o.initialBounds
          ? { bounds: o.initialBounds, fitBoundsOptions: { padding: FIT_PADDING_PX, maxZoom: STREET_ZOOM } }
          : WORLD_VIEW;
      created = new maplibre.Map({
        container: element,
        style: first.style,
        ...camera,
        interactive: o.interactive,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
        maxZoom: MAX_ZOOM,
        // The bus overlay draws on a flat, north-up map.
        maxPitch: 0,
        ...FLEET_MAP_RENDER_OPTIONS,
      });
      created.touchZoomRotate.disableRotation();
      created.keyboard.disableRotation();
      if (o.interactive) created.addControl(new maplibre.NavigationControl({ showCompass: false }), 'bottom-right');
      appliedStyle.current = styleKey(o);
      created.on('style.load', () => setLoaded((l) => ({ gen: l.gen + 1, key: appliedStyle.current, later: later.current })));
      made = busesFor(created);
      latest.current.onBusesMade?.(made.drawing, made.overlay);
      window.__fleetmap = { map: created, drawing: made.drawing, buses: made.overlay };
      setMap(created);
      setBuses(made);
      setLoadFailure(null);
      latest.current.onMapReady?.(created);
    };
    void load();
    return () => {
      cancelled = true;
      clearTimeout(retry);
      if (created) {
        if (window.__fleetmap?.map === created) delete window.__fleetmap;
        latest.current.onMapReady?.(null);
        made?.drawing.destroy();
        made?.clusters.destroy();
        made?.overlay.destroy();
        created.remove();
      }
    };
  }, [container]);

  // A new theme or style URL replaces the whole style; diff:false makes it a clean reload, after which
  // every layer re-adds itself (styleGen).
  const { theme, styleUrl, styleUrlDark } = options;
  useEffect(() => {
    if (!map || currentKey === appliedStyle.current) return;
    appliedStyle.current = currentKey;
    const next = styleFor({ theme, styleUrl, styleUrlDark });
    later.current = next.later;
    map.setStyle(next.style, { diff: false });
  }, [map, currentKey, theme, styleUrl, styleUrlDark]);

  const laterNow = styleGen === 0 ? undefined : loaded.later;
  return useMemo(
    () => ({ map, styleGen, later: laterNow, drawing: buses?.drawing ?? null, overlay: buses?.overlay ?? null, clusters: buses?.clusters ?? null, loadFailure }),
    [map, styleGen, buses, laterNow, loadFailure],
  );
}

/**
 * Gives the sources the style held back (lib/map-style/first-paint.ts) their data once the map is idle. Call it
 * after the hooks that add the page's own sources (the buses): their data then stands before these in the
 * worker's line, and the first idle comes once the buses are drawn.
 */
export function useLaterSources({ map, styleGen, later }: MapHandle) {
  useEffect(() => {
    if (!map || styleGen === 0 || !later || later.length === 0) return;
    const fill = () => {
      for (const { sourceId, data } of later) {
        const source = map.getSource<GeoJSONSource>(sourceId);
        if (source?.type === 'geojson') void source.setData(data).catch(() => undefined);
      }
    };
    map.once('idle', fill);
    return () => void map.off('idle', fill);
  }, [map, styleGen, later]);
}

/**
 * The offline style loads /api/network once; while the feed is still loading route stops the network grows,
 * so the same data networkQuery polls is pushed into the style's source. A hosted style has no such source.
 */
export function useNetworkRefresh({ map, styleGen }: MapHandle) {
  const { data } = useQuery(networkQuery());
  useEffect(() => {
    if (!map || styleGen === 0 || !data) return;
    const source = map.getSource<GeoJSONSource>(NETWORK_SOURCE_ID);
    if (source?.type === 'geojson') void source.setData(data as GeoJSON.FeatureCollection).catch(() => undefined);
  }, [map, styleGen, data]);
}
