// Predicted arrivals in words and figures for the trip panel and "next arrivals here": the stated p10–p90 as a
// range of whole minutes ("in 6–9 min"), and a countdown to the predicted time.
import type { EpochMs } from '@/lib/model';
import type { PredictionBasis } from '@/lib/model/predictions';

/** "due now", "in about 3 min" or "in 6–9 min": the band (earliest–latest) in whole minutes from now. */
export function etaWords(earliestAt: EpochMs, latestAt: EpochMs, now: EpochMs): string {
  const lo = Math.max(0, Math.floor((earliestAt - now) / 60_000));
  const hi = Math.max(0, Math.ceil((latestAt - now) / 60_000));
  if (hi <= 0) return 'due now';
  if (lo === hi) return `in about ${hi} min`;
  return `in ${lo}–${hi} min`;
}

/** m:ss until the predicted arrival ("0:00" once it has come). */
export function countdown(arrivalAt: EpochMs, now: EpochMs): string {
  const s = Math.max(0, Math.round((arrivalAt - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A short label of what a prediction rests on, for a list row. */
export function basisLabel(basis: PredictionBasis): string {
  return basis === 'gps' ? 'live' : basis === 'planned-departure' ? 'from departure' : 'schedule';
}
