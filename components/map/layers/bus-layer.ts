'use client';
// The clustered bus renderer: all buses except the selected one below OVERLAY_MIN_ZOOM, in ONE clustered GeoJSON
// source (feature id = bus id), clusters with a count, and per bus a circle coloured by delay class. From
// OVERLAY_MIN_ZOOM on the bus overlay (../bus-overlay.ts) draws every bus moving along its route, and these
// layers step aside. Which of the two draws, and when this one is fed, is the controller's rule (../bus-drawing).
import { useEffect, useMemo } from 'react';
import type { CircleLayerSpecification, ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification, Map as MapLibreMap, SymbolLayerSpecification } from 'maplibre-gl';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import { busCollections, busPoints, type BusFeatureCollection } from '@/lib/view/bus-features';
import { LABEL_FONT } from '@/lib/map-style/offline-style';
import { BUS_CLUSTER_MAX_ZOOM, OVERLAY_MIN_ZOOM, type BusFrame, type BusRenderer, type DrawnBus } from '../bus-drawing';
import { GeoJsonFeed, useSourceAndLayers, type MapHandle } from '../use-map-layers';
import { busCircleLayer } from './bus-style';

export const BUS_SOURCE_ID = 'fleet-buses';
export const BUS_CLUSTER_LAYER_ID = 'fleet-bus-clusters';
export const BUS_CLUSTER_COUNT_LAYER_ID = 'fleet-bus-cluster-count';
export const BUS_LAYER_ID = 'fleet-bus-circles';

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
      maxzoom: OVERLAY_MIN_ZOOM,
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
      maxzoom: OVERLAY_MIN_ZOOM,
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
    busCircleLayer(BUS_LAYER_ID, BUS_SOURCE_ID, theme, SINGLE, scale, OVERLAY_MIN_ZOOM),
  ];
}

// Built once per theme so the layer effect sees a stable identity between renders.
export const BUS_LAYERS: Record<Theme, LayerSpecification[]> = { light: busLayersFor('light'), dark: busLayersFor('dark') };

/**
 * The clustered layer as a renderer: it keeps what it was last given (the controller feeds it only below
 * OVERLAY_MIN_ZOOM), sends it to the source with back-pressure, and tells the controller when it has drawn the
 * fleet: the first frame after buses were given to the source and its tiles for the view are loaded. Until then,
 * and again after a new style (its source starts empty), the overlay draws every bus below street zoom itself.
 */
export class ClusterLayer implements BusRenderer {
  private data: BusFeatureCollection | null = null;
  private readonly feed: GeoJsonFeed;
  private watching = false;
  private ready = false;

  constructor(
    private readonly map: MapLibreMap,
    private readonly onReady: (ready: boolean) => void,
  ) {
    this.feed = new GeoJsonFeed(map, BUS_SOURCE_ID);
  }

  update({ placements, selectedBusId, placedAt }: BusFrame) {
    this.data = busCollections(busPoints(placements, placedAt), selectedBusId).clustered;
    this.send();
  }

  /** The source was (re)added, empty: a new style, or new specs. It gets the data again and must draw it again. */
  sourceAdded() {
    this.ready = false;
    this.onReady(false);
    this.send();
  }

  redraw() {
    this.map.triggerRepaint();
  }

  private send() {
    if (!this.data || !this.feed.send(this.data)) return;
    if (!this.ready && this.data.features.length > 0) this.watchForDrawn();
  }

  private watchForDrawn() {
    if (this.watching) return;
    this.watching = true;
    this.map.on('render', this.onRender);
    this.map.triggerRepaint();
  }

  // In a 'render' event the frame is painted: tiles loaded by then are in it (a tile's load is a task of its own).
  // Only a frame below OVERLAY_MIN_ZOOM counts: above it these layers draw nothing.
  private onRender = () => {
    if (this.map.getZoom() >= OVERLAY_MIN_ZOOM || !this.map.getSource(BUS_SOURCE_ID) || !this.map.isSourceLoaded(BUS_SOURCE_ID)) return;
    this.map.off('render', this.onRender);
    this.watching = false;
    this.ready = true;
    this.onReady(true);
  };

  /** The buses it was last given, where they were placed (on screen, some are inside clusters). */
  drawn(): DrawnBus[] {
    return (this.data?.features ?? []).map((f) => {
      const p = f.properties;
      const [lon, lat] = f.geometry.coordinates as [number, number];
      return { busId: p.busId, lon, lat, basis: p.basis, stale: p.stale, label: p.label, selected: false, fix: null, by: 'clusters' };
    });
  }

  destroy() {
    this.map.off('render', this.onRender);
  }
}

/**
 * Adds the clustered layer's source and layers to the map's style; `scale` sizes circles and clusters (1: the
 * dispatcher's desk size). Its data comes from the controller (handle.drawing), not from here.
 */
export function useBusLayer(handle: MapHandle, clusters: ClusterLayer | null, theme: Theme, scale = 1) {
  // The effect that adds the layers re-runs on a new identity: specs change only with the theme or the scale.
  const source = useMemo(() => (scale === 1 ? busSource : busSourceFor(scale)), [scale]);
  const layers = useMemo(() => (scale === 1 ? BUS_LAYERS[theme] : busLayersFor(theme, scale)), [theme, scale]);
  useSourceAndLayers(handle, BUS_SOURCE_ID, source, layers);
  // After the effect above (effects run in order): the source exists again, empty.
  const { map, styleGen } = handle;
  useEffect(() => {
    if (!map || !clusters || styleGen === 0) return;
    clusters.sourceAdded();
  }, [map, clusters, styleGen, source, layers]);
}
