'use client';
// The buses handed to the controller (./bus-drawing, made with the map in use-maplibre) on each new set of
// placements, and the overlay kept in step with the theme. The renderers get the buses the moment they are made
// (useBusHandover, called by use-maplibre as it makes the map), so that the map's first frame has them: waiting for
// React to render again with the new map put the first bus behind that frame, which takes hundreds of milliseconds
// in software WebGL (bench/first-bus.ts).
import { useCallback, useEffect, useRef } from 'react';
import type { Theme } from '@/lib/theme/theme';
import type { BusDrawing, BusFrame } from './bus-drawing';
import type { BusOverlay } from './bus-overlay';

/** Gives freshly made renderers the page's current buses and look. */
export type BusHandover = (drawing: BusDrawing, overlay: BusOverlay) => void;

function feed(drawing: BusDrawing, frame: BusFrame) {
  if (frame.now > 0) drawing.update(frame);
}

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
    if (drawing) feed(drawing, { placements, selectedBusId, placedAt, now: latestNow.current });
  }, [drawing, placements, selectedBusId, placedAt]);
}

/** The handover for the map's renderers as they are made: the buses and look of the last render. Stable. */
export function useBusHandover(frame: BusFrame, theme: Theme, scale: number): BusHandover {
  const latest = useRef({ frame, theme, scale });
  useEffect(() => {
    latest.current = { frame, theme, scale };
  });
  return useCallback((drawing: BusDrawing, overlay: BusOverlay) => {
    const { frame, theme, scale } = latest.current;
    overlay.setLook(theme, scale);
    feed(drawing, frame);
  }, []);
}
