'use client';
// All buses except the selected one below street zoom: ONE clustered GeoJSON source (feature id = bus id),
// clusters with a count, and per bus a circle coloured by delay class (arrows come at street zoom). From
// BUS_LAYER_MAX_ZOOM on, the bus overlay (../bus-overlay.ts) draws every bus moving along its route, and these
// layers step aside: their source is then not fed at all, so new data costs the map no tiles and no frame.
import { useEffect, useMemo } from 'react';
import type { CircleLayerSpecification, ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import type { BusFeatureCollection } from '@/lib/view/bus-features';
import { LABEL_FONT } from '@/lib/map-style/offline-style';
import { useGeoJsonData, useSourceAndLayers, type MapHandle } from '../use-map-layers';
import { busCircleLayer } from './bus-style';

export const BUS_SOURCE_ID = 'fleet-buses';
export const BUS_CLUSTER_LAYER_ID = 'fleet-bus-clusters';
export const BUS_CLUSTER_COUNT_LAYER_ID = 'fleet-bus-cluster-count';
export const BUS_LAYER_ID = 'fleet-bus-circles';

/**
 * Above this zoom every bus is drawn on its own. Clusters are tiled per whole zoom, so 11 means a
 * dispatcher sees single buses from zoom 12 on: a whole borough's worth of streets.
 */
export const BUS_CLUSTER_MAX_ZOOM = 11;
/** From this zoom on the bus overlay draws every bus; these layers draw below it. */
export const BUS_LAYER_MAX_ZOOM = BUS_CLUSTER_MAX_ZOOM + 1;
/** Labels only where a bus's neighbours are far enough apart to read them (drawn by the bus overlay). */
export const BUS_LABEL_MIN_ZOOM = 14;
/**
 * Heading arrows likewise: below it an arrow's tip is two or three pixels, and drawing it would nearly triple the
 * pixels each bus costs the overlay in software GL (its point must reach the tip).
 */
export const BUS_ARROW_MIN_ZOOM = 14;

/** `scale` widens the clustering radius with the circles, so bigger clusters do not overlap each other. */
function busSourceFor(scale: number): GeoJSONSourceSpecification {
  return {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    cluster: true,
    clusterMaxZoom: BUS_CLUSTER_MAX_ZOOM,
    clusterRadius: Math.round(36 * scale),
    // A cluster hiding late buses says so with its ring.
    clusterProperties: { late: ['+', ['case', ['==', ['get', 'cls'], 'late'], 1, 0]] },
  };
}

export const busSource = busSourceFor(1);

const CLUSTERED: ExpressionSpecification = ['has', 'point_count'];
const SINGLE: ExpressionSpecification = ['!', ['has', 'point_count']];

function clusterLayers(theme: Theme, scale: number): [CircleLayerSpecification, SymbolLayerSpecification] {
  const dark = theme === 'dark';
  const px = (n: number) => n * scale;
  return [
    {
      id: BUS_CLUSTER_LAYER_ID,
      type: 'circle',
      source: BUS_SOURCE_ID,
      maxzoom: BUS_LAYER_MAX_ZOOM,
      filter: CLUSTERED,
      paint: {
        'circle-color': dark ? '#cbd5e1' : '#334155',
        'circle-opacity': 0.92,
        'circle-radius': ['step', ['get', 'point_count'], px(12), 10, px(15), 50, px(19), 200, px(23)],
        'circle-stroke-color': ['case', ['>', ['get', 'late'], 0], DELAY_COLORS[theme].late, dark ? '#0b1220' : '#ffffff'],
        'circle-stroke-width': ['case', ['>', ['get', 'late'], 0], px(3), px(1.5)],
      },
    },
    {
      id: BUS_CLUSTER_COUNT_LAYER_ID,
      type: 'symbol',
      source: BUS_SOURCE_ID,
      maxzoom: BUS_LAYER_MAX_ZOOM,
      filter: CLUSTERED,
      layout: {
        'text-field': ['get', 'point_count_abbreviated'],
        'text-font': [LABEL_FONT],
        'text-size': px(12),
        'text-allow-overlap': true,
      },
      paint: { 'text-color': dark ? '#0f172a' : '#ffffff' },
    },
  ];
}

export function busLayersFor(theme: Theme, scale = 1): LayerSpecification[] {
  return [
    ...clusterLayers(theme, scale),
    busCircleLayer(BUS_LAYER_ID, BUS_SOURCE_ID, theme, SINGLE, scale, BUS_LAYER_MAX_ZOOM),
  ];
}

// Built once per theme so the layer effect sees a stable identity between renders.
export const BUS_LAYERS: Record<Theme, LayerSpecification[]> = { light: busLayersFor('light'), dark: busLayersFor('dark') };

/**
 * `scale` sizes circles and clusters (1: the dispatcher's desk size). `data` null leaves the source as it
 * is (above BUS_LAYER_MAX_ZOOM, where nothing of it is drawn).
 */
export function useBusLayer(handle: MapHandle, theme: Theme, data: BusFeatureCollection | null, scale = 1) {
  // The effect that adds the layers re-runs on a new identity: specs change only with the theme or the scale.
  const source = useMemo(() => (scale === 1 ? busSource : busSourceFor(scale)), [scale]);
  const layers = useMemo(() => (scale === 1 ? BUS_LAYERS[theme] : busLayersFor(theme, scale)), [theme, scale]);
  useSourceAndLayers(handle, BUS_SOURCE_ID, source, layers);
  useGeoJsonData(handle, BUS_SOURCE_ID, data);
  useClusterHandOver(handle, data !== null && data.features.length > 0);
}

/**
 * Tells the bus overlay when these layers have drawn the fleet: the first frame after buses were given to the
 * source and its tiles for the view are loaded. Until then, and again after a new style (its source starts
 * empty), the overlay draws every bus below street zoom itself.
 */
function useClusterHandOver({ map, styleGen, buses }: MapHandle, fed: boolean) {
  useEffect(() => {
    buses?.showClusters(false);
  }, [buses, styleGen]);
  useEffect(() => {
    if (!map || !buses || styleGen === 0 || !fed) return;
    // In a 'render' event the frame is painted: tiles loaded by then are in it (a tile's load is a task of its own).
    const onRender = () => {
      if (!map.getSource(BUS_SOURCE_ID) || !map.isSourceLoaded(BUS_SOURCE_ID)) return;
      map.off('render', onRender);
      buses.showClusters(true);
    };
    map.on('render', onRender);
    map.triggerRepaint();
    return () => void map.off('render', onRender);
  }, [map, buses, styleGen, fed]);
}
