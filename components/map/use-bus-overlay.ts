'use client';
// The bus overlay (created with the map in use-maplibre) handed each new set of placements (it writes only the
// buses that changed) and kept in step with the theme.
import { useEffect, useRef } from 'react';
import type { BusPlacement } from '@/lib/view/bus-placement';
import type { Theme } from '@/lib/theme/theme';
import type { BusOverlay } from './bus-overlay';

/** `now` is the server's clock now (ticking): read when placements change, never a reason to update. */
export function useBusOverlay(overlay: BusOverlay | null, placements: readonly BusPlacement[], selectedBusId: number | null, now: number, theme: Theme, scale: number) {
  const latestNow = useRef(now);
  useEffect(() => {
    latestNow.current = now;
  });

  useEffect(() => {
    overlay?.setLook(theme, scale);
  }, [overlay, theme, scale]);

  useEffect(() => {
    if (overlay && latestNow.current > 0) overlay.update(placements, selectedBusId, latestNow.current);
  }, [overlay, placements, selectedBusId]);
}
