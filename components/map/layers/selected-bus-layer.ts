'use client';
// The selected bus, from its own unclustered source so it never disappears into a cluster, drawn above
// everything with a halo and its label at every zoom.
import { useMemo } from 'react';
import type { CircleLayerSpecification, ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification } from 'maplibre-gl';
import type { Theme } from '@/lib/view/theme';
import type { BusFeatureCollection } from '@/lib/view/bus-features';
import { useGeoJsonData, useSourceAndLayers, type MapHandle } from '../use-map-layers';
import { ensureHeadingIcon } from './bus-layer';
import { busCircleLayer, busHeadingLayer, busLabelLayer, sizeByZoom } from './bus-style';

export const SELECTED_BUS_SOURCE_ID = 'fleet-selected-bus';
export const SELECTED_BUS_HALO_LAYER_ID = 'fleet-selected-bus-halo';
export const SELECTED_BUS_HEADING_LAYER_ID = 'fleet-selected-bus-heading';
export const SELECTED_BUS_LAYER_ID = 'fleet-selected-bus-circle';
export const SELECTED_BUS_LABEL_LAYER_ID = 'fleet-selected-bus-label';

export const SELECTION_ACCENT: Record<Theme, string> = { light: '#1d4ed8', dark: '#93c5fd' };

export const selectedBusSource: GeoJSONSourceSpecification = { type: 'geojson', data: { type: 'FeatureCollection', features: [] } };

const ALL: ExpressionSpecification = ['has', 'busId'];

function haloLayer(theme: Theme, scale: number): CircleLayerSpecification {
  return {
    id: SELECTED_BUS_HALO_LAYER_ID,
    type: 'circle',
    source: SELECTED_BUS_SOURCE_ID,
    paint: {
      'circle-radius': sizeByZoom([[9, 10.5], [13, 12.5], [16, 14.5]], scale),
      'circle-color': SELECTION_ACCENT[theme],
      'circle-opacity': 0.18,
      'circle-stroke-color': SELECTION_ACCENT[theme],
      'circle-stroke-width': 2.5 * scale,
    },
  };
}

export function selectedLayersFor(theme: Theme, scale = 1): LayerSpecification[] {
  return [
    haloLayer(theme, scale),
    busHeadingLayer(SELECTED_BUS_HEADING_LAYER_ID, SELECTED_BUS_SOURCE_ID, theme, ALL, 0, scale),
    busCircleLayer(SELECTED_BUS_LAYER_ID, SELECTED_BUS_SOURCE_ID, theme, undefined, scale),
    busLabelLayer(SELECTED_BUS_LABEL_LAYER_ID, SELECTED_BUS_SOURCE_ID, theme, ALL, 0, scale),
  ];
}

export const SELECTED_BUS_LAYERS: Record<Theme, LayerSpecification[]> = { light: selectedLayersFor('light'), dark: selectedLayersFor('dark') };

/** `scale` as for the bus layer, so the selected bus is drawn the same size as the others. */
export function useSelectedBusLayer(handle: MapHandle, theme: Theme, data: BusFeatureCollection, scale = 1) {
  const layers = useMemo(() => (scale === 1 ? SELECTED_BUS_LAYERS[theme] : selectedLayersFor(theme, scale)), [theme, scale]);
  useSourceAndLayers(handle, SELECTED_BUS_SOURCE_ID, selectedBusSource, layers, { prepare: ensureHeadingIcon });
  useGeoJsonData(handle, SELECTED_BUS_SOURCE_ID, data);
}
