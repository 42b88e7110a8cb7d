'use client';
// The selected route: its line through the stops in stop_order, the start and end stops marked apart from
// the stops on the way, drawn under the buses. The map fits to it once per route.
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CircleLayerSpecification, GeoJSONSourceSpecification, LayerSpecification, LineLayerSpecification } from 'maplibre-gl';
import type { Theme } from '@/lib/theme/theme';
import { routeStopsQuery } from '@/lib/client/queries';
import { useViewer } from '@/lib/client/use-viewer';
import { roleAtLeast } from '@/lib/model/access';
import { routeOverlayBounds, routeOverlayGeoJson } from '@/lib/view/route-overlay';
import { useGeoJsonData, useSourceAndLayers, type MapHandle } from '../use-map-layers';
import { BUS_CLUSTER_LAYER_ID } from './bus-layer';

export const ROUTE_OVERLAY_SOURCE_ID = 'fleet-route-overlay';
export const ROUTE_OVERLAY_CASING_LAYER_ID = 'fleet-route-overlay-casing';
export const ROUTE_OVERLAY_LINE_LAYER_ID = 'fleet-route-overlay-line';
export const ROUTE_OVERLAY_STOPS_LAYER_ID = 'fleet-route-overlay-stops';
export const ROUTE_OVERLAY_ENDS_LAYER_ID = 'fleet-route-overlay-ends';

export const ROUTE_ACCENT: Record<Theme, string> = { light: '#6d28d9', dark: '#c4b5fd' };

const overlaySource: GeoJSONSourceSpecification = { type: 'geojson', data: { type: 'FeatureCollection', features: [] } };

function overlayLayersFor(theme: Theme): LayerSpecification[] {
  const accent = ROUTE_ACCENT[theme];
  const ground = theme === 'dark' ? '#0b1220' : '#ffffff';
  // A light casing under the coloured line keeps the route readable over the network's own lines.
  const line = (id: string, color: string, width: number, opacity: number): LineLayerSpecification => ({
    id,
    type: 'line',
    source: ROUTE_OVERLAY_SOURCE_ID,
    filter: ['==', ['get', 'kind'], 'line'],
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': color, 'line-width': width, 'line-opacity': opacity },
  });
  const stops: CircleLayerSpecification = {
    id: ROUTE_OVERLAY_STOPS_LAYER_ID,
    type: 'circle',
    source: ROUTE_OVERLAY_SOURCE_ID,
    filter: ['==', ['get', 'role'], 'stop'],
    paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 11, 2, 15, 4], 'circle-color': ground, 'circle-stroke-color': accent, 'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 11, 1.25, 15, 2] },
  };
  // Start: a solid disc; end: a thick ring. Told apart by shape as well as by the legend in the panel.
  const ends: CircleLayerSpecification = {
    id: ROUTE_OVERLAY_ENDS_LAYER_ID,
    type: 'circle',
    source: ROUTE_OVERLAY_SOURCE_ID,
    filter: ['in', ['get', 'role'], ['literal', ['start', 'end']]],
    paint: {
      'circle-radius': 7,
      'circle-color': ['case', ['==', ['get', 'role'], 'start'], accent, ground],
      'circle-stroke-color': ['case', ['==', ['get', 'role'], 'start'], ground, accent],
      'circle-stroke-width': ['case', ['==', ['get', 'role'], 'start'], 2, 4],
    },
  };
  return [line(ROUTE_OVERLAY_CASING_LAYER_ID, ground, 7, 0.8), line(ROUTE_OVERLAY_LINE_LAYER_ID, accent, 4, 1), stops, ends];
}

export const ROUTE_OVERLAY_LAYERS: Record<Theme, LayerSpecification[]> = { light: overlayLayersFor('light'), dark: overlayLayersFor('dark') };

/** Layers a pointer can hover to read a stop's name. */
export const ROUTE_OVERLAY_STOP_LAYER_IDS = [ROUTE_OVERLAY_ENDS_LAYER_ID, ROUTE_OVERLAY_STOPS_LAYER_ID];

export function useRouteOverlayLayer(
  handle: MapHandle,
  theme: Theme,
  routeId: number | null,
  opts: { fit: boolean; /** A route restored with an explicit map view (a deep link): keep that view. */ keepViewForRouteId?: number | null },
) {
  // Route stops may cost an upstream request: dispatchers and wall displays ask for them, viewers do not.
  const viewer = useViewer();
  const mayLoad = viewer.kind === 'wall' || roleAtLeast(viewer.role, 'dispatcher');
  const stops = useQuery({ ...routeStopsQuery(routeId ?? 0), enabled: routeId !== null && mayLoad });
  const data = routeId !== null ? stops.data : undefined;
  const collection = useMemo(() => (data ? routeOverlayGeoJson(data.stops) : null), [data]);
  const bounds = useMemo(() => (data ? routeOverlayBounds(data.stops) : null), [data]);
  const active = routeId !== null && collection !== null;

  const layers = active ? ROUTE_OVERLAY_LAYERS[theme] : NO_LAYERS;
  useSourceAndLayers(handle, ROUTE_OVERLAY_SOURCE_ID, overlaySource, layers, { beforeId: BUS_CLUSTER_LAYER_ID });
  useGeoJsonData(handle, ROUTE_OVERLAY_SOURCE_ID, active ? collection : null);

  const { map } = handle;
  const { fit } = opts;
  const keepViewFor = useRef(opts.keepViewForRouteId ?? null);
  // Once per route: bounds change identity only with new stop data, not with a style change.
  useEffect(() => {
    if (!map || !bounds || !fit) return;
    if (keepViewFor.current !== null && keepViewFor.current === routeId) {
      keepViewFor.current = null;
      return;
    }
    keepViewFor.current = null;
    map.fitBounds(bounds, { padding: 60, maxZoom: 15, duration: 600 });
    // routeId is read only together with new bounds (they change when the route's stops arrive).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, bounds, fit]);

  return { loading: stops.isLoading && routeId !== null, error: routeId !== null ? stops.error : null };
}

const NO_LAYERS: LayerSpecification[] = [];
