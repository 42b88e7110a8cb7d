'use client';
// The part of a ladder column near the screen, in the column's own pixels: what is on screen, and one screen
// above and below it, so scrolling never shows an empty stretch before the column catches up. Followed through
// every scroll (of the page or of any container) and resize, once per frame, in steps of STEP_PX so small scrolls
// do not draw the column again.
import { useEffect, useState, type RefObject } from 'react';
import type { Band } from '@/lib/view/ladder';

const STEP_PX = 200;

export function useScreenBand(ref: RefObject<Element | null>): Band | null {
  const [band, setBand] = useState<Band | null>(null);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const screen = window.innerHeight;
      const top = Math.floor((-el.getBoundingClientRect().top - screen) / STEP_PX) * STEP_PX;
      const bottom = top + 3 * screen + 2 * STEP_PX;
      setBand((b) => (b && b.top === top && b.bottom === bottom ? b : { top, bottom }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
    };
  }, [ref]);
  return band;
}
