'use client';
// FleetMap fits to its buses on the first data and then only every few minutes. A wall must do better: the
// first data after a start holds only the few buses located so far, and a rotation shows a new route every
// N seconds. So the wall frames again when the route changes, or when a bus it should show is out of view
// (at most every few seconds), on the map FleetMap hands over through onMapReady.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import type { Vehicle } from '@/lib/model';
import { lonLatBounds } from '@/lib/geo/lon-lat';
import { hasPosition } from '@/lib/placement/bus';

const MIN_REFRAME_MS = 10_000;

export function useWallFraming(map: MapLibreMap | null, frameKey: string, vehicles: readonly Vehicle[]) {
  const last = useRef<{ key: string; at: number } | null>(null);
  useEffect(() => {
    const located = vehicles.filter(hasPosition);
    const bounds = lonLatBounds(located.map((v) => [v.lon, v.lat] as const));
    if (!map || !bounds) return;
    const now = Date.now();
    const keyChanged = last.current?.key !== frameKey;
    if (!keyChanged) {
      if (now - last.current!.at < MIN_REFRAME_MS || map.isMoving()) return;
      const view = map.getBounds();
      if (located.every((v) => view.contains([v.lon, v.lat]))) return;
    }
    last.current = { key: frameKey, at: now };
    map.fitBounds(bounds, { padding: 96, maxZoom: 15, duration: keyChanged ? 0 : 1200 });
  }, [map, frameKey, vehicles]);
}
