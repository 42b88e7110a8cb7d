'use client';
// Glides buses from where they are drawn to their new fixes over GLIDE_MS with requestAnimationFrame: at
// most one state update (so one setData) per frame, nothing scheduled once the glide is over.
import { useEffect, useRef, useState } from 'react';
import type { LngLat } from '@/lib/geo/lon-lat';
import { GLIDE_MS, planGlides, positionsAt } from '@/lib/view/bus-motion';

interface Frame {
  targets: ReadonlyMap<number, LngLat>;
  positions: ReadonlyMap<number, LngLat>;
}

export function useGlide(targets: ReadonlyMap<number, LngLat>, enabled = true): ReadonlyMap<number, LngLat> {
  const [frame, setFrame] = useState<Frame | null>(null);
  const drawn = useRef<ReadonlyMap<number, LngLat>>(new Map());

  useEffect(() => {
    // A hidden tab runs no frames; when it comes back the buses are simply where they are now.
    const glides = enabled && document.visibilityState === 'visible' ? planGlides(drawn.current, targets) : [];
    let raf = 0;
    const start = performance.now();
    const step = (t: number) => {
      const progress = glides.length === 0 ? 1 : (t - start) / GLIDE_MS;
      const positions = progress >= 1 ? targets : positionsAt(targets, glides, progress);
      drawn.current = positions;
      setFrame({ targets, positions });
      if (progress < 1) raf = requestAnimationFrame(step);
    };
    raf = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf);
  }, [targets, enabled]);

  // Until the first frame of a new glide runs, keep drawing the previous frame rather than jumping ahead.
  if (frame === null) return targets;
  return frame.positions;
}
