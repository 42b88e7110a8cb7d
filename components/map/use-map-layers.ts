'use client';
// The two effects every map layer file uses: one adds its source and layers (and removes them, layers
// first), the other only pushes new data. Both re-run when the style is replaced (styleGen), because
// setStyle drops everything that was added at run time.
import { useEffect, useRef } from 'react';
import type { LayerSpecification, SourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { BusOverlay } from './bus-overlay';

export interface MapHandle {
  map: MapLibreMap | null;
  /** The buses drawn over the map at street zoom, created and removed with it (null until then). */
  buses?: BusOverlay | null;
  /** Bumps on every `style.load`; 0 until the first style is ready. */
  styleGen: number;
  /** The loaded style's sources held back for the first paint, with their data (useLaterSources gives it). */
  later?: readonly { sourceId: string; data: string }[];
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

/**
 * Pushes data into a GeoJSON source with back-pressure: while the worker is still indexing the previous
 * data (re-clustering 10,000 buses takes a good part of a second on a slow machine), newer data waits and
 * only the latest is sent. Glides then run at the pace the worker sustains instead of piling up work.
 */
export function useGeoJsonData({ map, styleGen }: MapHandle, sourceId: string, data: GeoJSON.GeoJSON | null) {
  // The source being updated, so a source replaced by a style change is never left waiting on the old one.
  const inFlight = useRef<GeoJSONSource | null>(null);
  const pending = useRef<{ source: GeoJSONSource; data: GeoJSON.GeoJSON } | null>(null);
  useEffect(() => {
    if (!map || styleGen === 0 || !data) return;
    const source = map.getSource<GeoJSONSource>(sourceId);
    if (!source) return;
    const send = (s: GeoJSONSource, d: GeoJSON.GeoJSON) => {
      inFlight.current = s;
      // A rejected setData (the map removed mid-update) is not an error worth surfacing.
      void s
        .setData(d)
        .catch(() => undefined)
        .finally(() => {
          if (inFlight.current === s) inFlight.current = null;
          const next = pending.current;
          pending.current = null;
          if (next && map.getSource(sourceId) === next.source) send(next.source, next.data);
        });
    };
    if (inFlight.current === source) pending.current = { source, data };
    else send(source, data);
  }, [map, styleGen, sourceId, data]);
}
