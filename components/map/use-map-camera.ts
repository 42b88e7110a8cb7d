'use client';
// Where FleetMap looks: the URL's view if one was given, else fitted to the buses once they arrive (and, for
// wall displays, again every few minutes as the fleet moves around); in follow mode, on the selected bus.
import { useEffect, useRef } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { LngLat, LonLatBounds } from '@/lib/geo/lon-lat';

/** Where the map looks, as the URL keeps it. */
export interface MapView {
  lng: number;
  lat: number;
  zoom: number;
}

const REFIT_MS = 5 * 60_000;
/** Street level, where a bus is seen among its neighbours: centring on a bus zooms in at least this far, fitting never further. */
export const STREET_ZOOM = 15;
const FOLLOW_EASE_MS = 500;
export const FIT_PADDING_PX = 48;
const REFIT_EASE_MS = 1_500;

/** Centres the map on a bus, zooming in to street level if it is further out. */
export function centreOnBus(map: MapLibreMap, [lng, lat]: LngLat, durationMs?: number) {
  map.easeTo({ center: [lng, lat], zoom: Math.max(map.getZoom(), STREET_ZOOM), ...(durationMs === undefined ? {} : { duration: durationMs }) });
}

export interface MapCameraOptions {
  /** The view the map opened on (from the URL): kept instead of the first fit. */
  initialView: MapView | null;
  /** Bounds of the buses at their latest fixes. */
  bounds: LonLatBounds | null;
  fitToVehicles: boolean;
  follow: boolean;
  /** Where the followed bus is drawn now (mid-glide too); null without one. */
  followed: LngLat | null;
}

export function useMapCamera(map: MapLibreMap | null, { initialView, bounds, fitToVehicles, follow, followed }: MapCameraOptions) {
  // Follow: keep the selected bus centred, frame by frame while it glides.
  const followLng = followed?.[0];
  const followLat = followed?.[1];
  const wasFollowing = useRef(false);
  useEffect(() => {
    if (!map || !follow || followLng === undefined || followLat === undefined) {
      wasFollowing.current = false;
      return;
    }
    if (!wasFollowing.current) centreOnBus(map, [followLng, followLat], FOLLOW_EASE_MS);
    else if (!map.isMoving()) map.jumpTo({ center: [followLng, followLat] });
    wasFollowing.current = true;
  }, [map, follow, followLng, followLat]);

  // Read when the buses move, not a reason to refit.
  const latest = useRef({ initialView, follow });
  useEffect(() => {
    latest.current = { initialView, follow };
  });
  const lastFit = useRef<number | null>(null);
  useEffect(() => {
    if (!map || !bounds) return;
    const t = Date.now();
    const first = lastFit.current === null;
    if (first && latest.current.initialView) {
      lastFit.current = t;
      return;
    }
    if (!first && !(fitToVehicles && t - (lastFit.current ?? 0) > REFIT_MS)) return;
    if (latest.current.follow) return;
    lastFit.current = t;
    map.fitBounds(bounds, { padding: FIT_PADDING_PX, maxZoom: STREET_ZOOM, duration: first ? 0 : REFIT_EASE_MS });
  }, [map, bounds, fitToVehicles]);
}
