'use client';
// FleetMap fits to its buses on the first data and then only every few minutes; a rotating wall shows a new
// route every N seconds and must frame it at once. FleetMap has no prop for that yet, so the wall frames the
// map through the handle FleetMap publishes (window.__fleetmap.map).
import { useEffect, useRef } from 'react';
import type { Vehicle } from '@/lib/model';
import { hasPosition, pointsBounds } from '@/lib/client/bus-features';

export function useRotationFit(routeKey: string | null, vehicles: readonly Vehicle[]) {
  const framed = useRef<string | null>(null);
  useEffect(() => {
    if (routeKey === null || framed.current === routeKey) return;
    const map = window.__fleetmap?.map;
    const bounds = pointsBounds(vehicles.filter(hasPosition).map((v) => ({ position: [v.lon, v.lat] as const })));
    if (!map || !bounds) return;
    framed.current = routeKey;
    map.fitBounds(bounds, { padding: 96, maxZoom: 15, duration: 1200 });
  }, [routeKey, vehicles]);
}
