// How old the figures on screen are: the time since the feed last heard from the upstream, on the server's
// clock. `serverNow` comes from the snapshot's stamp plus the time elapsed in the browser (useServerNow), so a
// skewed browser clock, or a snapshot re-served unchanged during an outage, never makes data look fresh.
import type { EpochMs } from '@/lib/model';

export function upstreamDataAgeS(lastSuccessAt: EpochMs | null, serverNow: EpochMs): number | null {
  if (lastSuccessAt === null || !serverNow) return null;
  return Math.max(0, (serverNow - lastSuccessAt) / 1000);
}

/** A snapshot held on screen (paused) is as old as the live data plus how far the live data has moved on since. */
export function heldDataAgeS(liveAgeS: number | null, liveLastSuccessAt: EpochMs | null, heldLastSuccessAt: EpochMs | null): number | null {
  if (liveAgeS === null || liveLastSuccessAt === null || heldLastSuccessAt === null) return liveAgeS;
  return liveAgeS + Math.max(0, (liveLastSuccessAt - heldLastSuccessAt) / 1000);
}
