// Ages of what the screen shows. The server stamps each snapshot with its own clock (generatedAt); the
// browser only measures how long ago it received that snapshot, so a skewed browser clock never makes
// data look fresher or older than it is.
import type { EpochMs } from '@/lib/model';

export interface SnapshotClock {
  /** The snapshot's generatedAt (server clock). */
  generatedAt: EpochMs;
  /** When this browser first saw that generatedAt (browser clock). */
  receivedAt: EpochMs;
}

/** The server's "now", estimated from the snapshot's stamp plus the time elapsed locally since it arrived. */
export function serverNow(clock: SnapshotClock, clientNow: EpochMs): EpochMs {
  return clock.generatedAt + Math.max(0, clientNow - clock.receivedAt);
}

/**
 * Seconds since the bus's GPS fix, or null when the fix has no GPS time. A fix stamped slightly in the
 * future (timezone inference is snapped to a quarter hour) counts as zero, not negative.
 */
export function locationAgeS(gpsAt: EpochMs | null, now: EpochMs): number | null {
  if (gpsAt === null || !Number.isFinite(gpsAt)) return null;
  return Math.max(0, (now - gpsAt) / 1000);
}

/** A fix of unknown age is stale: nothing may look fresh without proof. */
export function isStaleAge(ageS: number | null, staleAfterS: number): boolean {
  return ageS === null || ageS > staleAfterS;
}

/** Mean age over the fixes whose age is known; null when none is. */
export function meanAgeS(ages: Array<number | null>): number | null {
  let sum = 0;
  let n = 0;
  for (const a of ages) {
    if (a === null) continue;
    sum += a;
    n += 1;
  }
  return n === 0 ? null : sum / n;
}

/**
 * The age of a snapshot held on screen while the live one moves on (the delay board's pause): as old as the
 * live data plus how far the live data has moved on since.
 */
export function heldDataAgeS(liveAgeS: number | null, liveLastSuccessAt: EpochMs | null, heldLastSuccessAt: EpochMs | null): number | null {
  if (liveAgeS === null || liveLastSuccessAt === null || heldLastSuccessAt === null) return liveAgeS;
  return liveAgeS + Math.max(0, (liveLastSuccessAt - heldLastSuccessAt) / 1000);
}
