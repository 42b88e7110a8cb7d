'use client';
// The buses handed to the controller (./bus-drawing, made with the map in use-maplibre) on each new set of
// placements, and the overlay kept in step with the theme.
import { useEffect, useRef } from 'react';
import type { Theme } from '@/lib/theme/theme';
import type { BusDrawing, BusFrame } from './bus-drawing';
import type { BusOverlay } from './bus-overlay';

/** `frame.now` is the server's clock now (ticking): read when placements change, never a reason to update. */
export function useBusDrawing(drawing: BusDrawing | null, overlay: BusOverlay | null, frame: BusFrame, theme: Theme, scale: number) {
  const { placements, selectedBusId, placedAt, now } = frame;
  const latestNow = useRef(now);
  useEffect(() => {
    latestNow.current = now;
  });

  useEffect(() => {
    overlay?.setLook(theme, scale);
  }, [overlay, theme, scale]);

  useEffect(() => {
    if (drawing && latestNow.current > 0) drawing.update({ placements, selectedBusId, placedAt, now: latestNow.current });
  }, [drawing, placements, selectedBusId, placedAt]);
}
