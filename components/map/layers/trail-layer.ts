'use client';
// A bus's recorded trail (a trip so far, a finished trip whole, or a bus's track in a replay window): the line
// through its fixes and a dot at each, under the buses.
import { useMemo } from 'react';
import type { CircleLayerSpecification, GeoJSONSourceSpecification, LayerSpecification, LineLayerSpecification } from 'maplibre-gl';
import type { HistoryFix } from '@/lib/model';
import type { Theme } from '@/lib/theme/theme';
import { useGeoJsonData, useSourceAndLayers, type MapHandle } from '../use-map-layers';
import { BUS_CLUSTER_LAYER_ID } from './bus-layer';
import { SELECTION_ACCENT } from './bus-style';

export const TRAIL_SOURCE_ID = 'fleet-trail';
export const TRAIL_LINE_LAYER_ID = 'fleet-trail-line';
export const TRAIL_POINT_LAYER_ID = 'fleet-trail-points';

const trailSource: GeoJSONSourceSpecification = { type: 'geojson', data: { type: 'FeatureCollection', features: [] } };

function trailLayers(theme: Theme): LayerSpecification[] {
  const line: LineLayerSpecification = {
    id: TRAIL_LINE_LAYER_ID,
    type: 'line',
    source: TRAIL_SOURCE_ID,
    filter: ['==', ['geometry-type'], 'LineString'],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': SELECTION_ACCENT[theme], 'line-width': 3, 'line-opacity': 0.75 },
  };
  const points: CircleLayerSpecification = {
    id: TRAIL_POINT_LAYER_ID,
    type: 'circle',
    source: TRAIL_SOURCE_ID,
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 2.5, 'circle-color': SELECTION_ACCENT[theme], 'circle-opacity': 0.9 },
  };
  return [line, points];
}

const TRAIL_LAYERS: Record<Theme, LayerSpecification[]> = { light: trailLayers('light'), dark: trailLayers('dark') };

/** The trail as GeoJSON: one line (two fixes or more) and a point per fix, oldest first. */
export function trailFeatures(fixes: readonly Pick<HistoryFix, 'lat' | 'lon' | 'fetchedAt'>[]): GeoJSON.FeatureCollection {
  const coords = fixes.map((f) => [f.lon, f.lat]);
  const features: GeoJSON.Feature[] = fixes.map((f, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: coords[i]! }, properties: { fetchedAt: f.fetchedAt } }));
  if (coords.length >= 2) features.unshift({ type: 'Feature', geometry: { type: 'LineString', coordinates: coords }, properties: {} });
  return { type: 'FeatureCollection', features };
}

export function useTrailLayer(handle: MapHandle, theme: Theme, fixes: readonly HistoryFix[] | null) {
  // Under the buses (the lowest bus layer, when it is there).
  useSourceAndLayers(handle, TRAIL_SOURCE_ID, trailSource, TRAIL_LAYERS[theme], { beforeId: BUS_CLUSTER_LAYER_ID });
  const data = useMemo(() => trailFeatures(fixes ?? []), [fixes]);
  useGeoJsonData(handle, TRAIL_SOURCE_ID, data);
}
