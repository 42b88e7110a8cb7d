'use client';
import { useEffect } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';

/**
 * Keeps `rightPx` of the map's right side out of its centre (a panel floating there), on screens matching
 * `mediaQuery`: follow and fits then centre in the part left visible.
 */
export function useMapRightPadding(map: MapLibreMap | null, rightPx: number, mediaQuery: string) {
  useEffect(() => {
    if (!map) return;
    const matches = window.matchMedia(mediaQuery).matches;
    map.setPadding({ top: 0, bottom: 0, left: 0, right: matches ? rightPx : 0 });
  }, [map, rightPx, mediaQuery]);
}
