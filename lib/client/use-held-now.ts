'use client';
import { useState } from 'react';

/**
 * `now`, held while `data` (each compared by identity) stays the same, for at most `everyMs`. Work over the whole
 * fleet that reads the clock (the fleet table's rows, filter, sort and counts: tens of milliseconds at 10,000 buses)
 * runs with new data and then every few seconds, instead of on every tick of the one-second clock; what is shown per
 * row (an age) reads `now` itself.
 */
export function useHeldNow(now: number, everyMs: number, data: readonly unknown[]): number {
  const [held, setHeld] = useState<{ at: number; data: readonly unknown[] }>({ at: now, data });
  const changed = data.length !== held.data.length || data.some((d, i) => !Object.is(d, held.data[i]));
  // A clock that went back (a new server clock) is taken at once as well; so is a first real time after 0.
  if (changed || now - held.at >= everyMs || now < held.at) {
    // Adjusting state while rendering, from what the last render saw: React renders again before committing.
    setHeld({ at: now, data });
    return now;
  }
  return held.at;
}
