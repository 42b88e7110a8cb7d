// The age of a snapshot held on screen while the live one moves on (the delay board's pause).
import type { EpochMs } from '@/lib/model';

/** A held snapshot is as old as the live data plus how far the live data has moved on since. */
export function heldDataAgeS(liveAgeS: number | null, liveLastSuccessAt: EpochMs | null, heldLastSuccessAt: EpochMs | null): number | null {
  if (liveAgeS === null || liveLastSuccessAt === null || heldLastSuccessAt === null) return liveAgeS;
  return liveAgeS + Math.max(0, (liveLastSuccessAt - heldLastSuccessAt) / 1000);
}
