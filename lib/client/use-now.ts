'use client';
// One shared one-second ticker for every age on screen, read through useSyncExternalStore so renders stay
// pure (no Date.now() during render) and every component ticks on the same beat.
import { useSyncExternalStore } from 'react';

const TICK_MS = 1_000;
let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function tick() {
  now = Date.now();
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function getSnapshot() {
  if (now === 0) now = Date.now();
  return now;
}

/** Browser time in ms, updated every second; 0 during server rendering (nothing time-based renders there). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, () => 0);
}
