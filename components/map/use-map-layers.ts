'use client';
// The two effects every map layer file uses: one adds its source and layers (and removes them, layers
// first), the other only pushes new data. Both re-run when the style is replaced (styleGen), because
// setStyle drops everything that was added at run time.
import { useEffect } from 'react';
import type { LayerSpecification, SourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';

export interface MapHandle {
  map: MapLibreMap | null;
  /** Bumps on every `style.load`; 0 until the first style is ready. */
  styleGen: number;
}

export function addSourceAndLayers(map: MapLibreMap, sourceId: string, source: SourceSpecification, layers: readonly LayerSpecification[], beforeId?: string) {
  if (!map.getSource(sourceId)) map.addSource(sourceId, source);
  const before = beforeId && map.getLayer(beforeId) ? beforeId : undefined;
  for (const layer of layers) if (!map.getLayer(layer.id)) map.addLayer(layer, before);
}

/** Safe to run twice, and after the map or its style is gone (getLayer/getSource then find nothing). */
export function removeSourceAndLayers(map: MapLibreMap, sourceId: string, layers: readonly LayerSpecification[]) {
  for (const layer of [...layers].reverse()) if (map.getLayer(layer.id)) map.removeLayer(layer.id);
  if (map.getSource(sourceId)) map.removeSource(sourceId);
}

export function useSourceAndLayers(
  { map, styleGen }: MapHandle,
  sourceId: string,
  source: SourceSpecification,
  layers: readonly LayerSpecification[],
  opts: { beforeId?: string; prepare?: (map: MapLibreMap) => void } = {},
) {
  const { beforeId, prepare } = opts;
  useEffect(() => {
    if (!map || styleGen === 0) return;
    prepare?.(map);
    addSourceAndLayers(map, sourceId, source, layers, beforeId);
    return () => removeSourceAndLayers(map, sourceId, layers);
  }, [map, styleGen, sourceId, source, layers, beforeId, prepare]);
}

export function useGeoJsonData({ map, styleGen }: MapHandle, sourceId: string, data: GeoJSON.GeoJSON | null) {
  useEffect(() => {
    if (!map || styleGen === 0 || !data) return;
    const source = map.getSource<GeoJSONSource>(sourceId);
    // A rejected setData (the map removed mid-update) is not an error worth surfacing.
    void source?.setData(data).catch(() => undefined);
  }, [map, styleGen, sourceId, data]);
}
