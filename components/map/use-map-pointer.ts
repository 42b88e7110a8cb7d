'use client';
// The pointer on FleetMap: hovering shows a tooltip, a click selects a bus or zooms into a cluster, a person
// dragging the map ends follow mode, and every camera move reports the view.
import { useEffect, useRef, useState } from 'react';
import type { GeoJSONSource, Map as MapLibreMap, MapGeoJSONFeature, MapMouseEvent } from 'maplibre-gl';
import type { MapHover } from './bus-tooltip';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID, BUS_SOURCE_ID } from './layers/bus-layer';
import { ROUTE_OVERLAY_STOP_LAYER_IDS } from './layers/route-overlay-layer';
import type { BusOverlay } from './bus-overlay';
import type { MapView } from './use-map-camera';

export interface MapPointerHandlers {
  onSelectBus?: (busId: number | null) => void;
  /** A stop of the route overlay was clicked (its route stop id). */
  onSelectStop?: (stopId: number) => void;
  follow: boolean;
  onFollowChange?: (follow: boolean) => void;
  onViewChange?: (view: MapView) => void;
}

// A cluster click lands a little past the zoom at which it splits, so its buses are seen apart.
const CLUSTER_ZOOM_MARGIN = 0.25;

/**
 * The hovered bus or stop, or null. Handlers are read when an event fires, so they may change freely. A bus the
 * overlay draws is hit where it is drawn at that instant (it moves between data updates); clusters and buses below
 * street zoom through the map's rendered features.
 */
export function useMapPointer(map: MapLibreMap | null, interactive: boolean, overlay: BusOverlay | null, handlers: MapPointerHandlers): MapHover | null {
  const [hover, setHover] = useState<MapHover | null>(null);
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!map || !interactive) return;
    const pick = (e: MapMouseEvent): MapGeoJSONFeature | undefined => {
      const layers = [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID, ...ROUTE_OVERLAY_STOP_LAYER_IDS].filter((id) => map.getLayer(id));
      return layers.length ? map.queryRenderedFeatures(e.point, { layers })[0] : undefined;
    };
    const onMove = (e: MapMouseEvent) => {
      const drawn = overlay?.pick(e.point.x, e.point.y) ?? null;
      const f = drawn === null ? pick(e) : undefined;
      map.getCanvas().style.cursor = drawn !== null || f ? 'pointer' : '';
      const lid = f?.layer.id;
      if (drawn !== null) setHover({ kind: 'bus', busId: drawn, x: e.point.x, y: e.point.y });
      else if (f && lid === BUS_LAYER_ID) setHover({ kind: 'bus', busId: Number(f.properties.busId), x: e.point.x, y: e.point.y });
      else if (f && lid && ROUTE_OVERLAY_STOP_LAYER_IDS.includes(lid)) setHover({ kind: 'stop', name: String(f.properties.name), role: String(f.properties.role), x: e.point.x, y: e.point.y });
      else setHover(null);
    };
    const onLeave = () => setHover(null);
    const onClick = (e: MapMouseEvent) => {
      const drawn = overlay?.pick(e.point.x, e.point.y) ?? null;
      if (drawn !== null) {
        latest.current.onSelectBus?.(drawn);
        return;
      }
      const f = pick(e);
      if (!f) return;
      if (f.layer.id === BUS_CLUSTER_LAYER_ID) {
        const source = map.getSource<GeoJSONSource>(BUS_SOURCE_ID);
        const center = (f.geometry as GeoJSON.Point).coordinates as [number, number];
        void source
          ?.getClusterExpansionZoom(Number(f.properties.cluster_id))
          .then((zoom) => map.easeTo({ center, zoom: zoom + CLUSTER_ZOOM_MARGIN }))
          .catch(() => undefined);
        return;
      }
      if (f.layer.id === BUS_LAYER_ID) latest.current.onSelectBus?.(Number(f.properties.busId));
      else if (ROUTE_OVERLAY_STOP_LAYER_IDS.includes(f.layer.id) && Number.isFinite(Number(f.properties.stopId))) latest.current.onSelectStop?.(Number(f.properties.stopId));
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
  }, [map, interactive, overlay]);

  return hover;
}

function round(n: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
