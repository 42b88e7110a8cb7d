'use client';
// The two effects every map layer file uses: one adds its source and layers (and removes them, layers
// first), the other only pushes new data. Both re-run when the style is replaced (styleGen), because
// setStyle drops everything that was added at run time.
import { useEffect, useMemo } from 'react';
import type { LayerSpecification, SourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { BusDrawing } from './bus-drawing';

export interface MapHandle {
  map: MapLibreMap | null;
  /** Who draws the buses (./bus-drawing), created and removed with the map (null until then). */
  drawing?: BusDrawing | null;
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
export class GeoJsonFeed {
  // The source being updated, so a source replaced by a style change is never left waiting on the old one.
  private inFlight: GeoJSONSource | null = null;
  private pending: { source: GeoJSONSource; data: GeoJSON.GeoJSON } | null = null;

  constructor(
    private readonly map: MapLibreMap,
    private readonly sourceId: string,
  ) {}

  /** Sends `data` to the source as it is now; false when the map has no such source (yet, or any more). */
  send(data: GeoJSON.GeoJSON): boolean {
    const source = this.map.getSource<GeoJSONSource>(this.sourceId);
    if (!source) return false;
    if (this.inFlight === source) this.pending = { source, data };
    else this.push(source, data);
    return true;
  }

  private push(s: GeoJSONSource, d: GeoJSON.GeoJSON) {
    this.inFlight = s;
    // A rejected setData (the map removed mid-update) is not an error worth surfacing.
    void s
      .setData(d)
      .catch(() => undefined)
      .finally(() => {
        if (this.inFlight === s) this.inFlight = null;
        const next = this.pending;
        this.pending = null;
        if (next && this.map.getSource(this.sourceId) === next.source) this.push(next.source, next.data);
      });
  }
}

/** Feeds a GeoJSON source through a GeoJsonFeed; `data` null leaves the source as it is. */
export function useGeoJsonData({ map, styleGen }: MapHandle, sourceId: string, data: GeoJSON.GeoJSON | null) {
  const feed = useMemo(() => (map ? new GeoJsonFeed(map, sourceId) : null), [map, sourceId]);
  useEffect(() => {
    if (!feed || styleGen === 0 || !data) return;
    feed.send(data);
  }, [feed, styleGen, data]);
}
