// Thresholds people type into the delay board. Delays arrive in whole minutes, so thresholds are whole minutes too.
import type { DelayThresholds } from '@/lib/model';

export const THRESHOLD_MIN = 1;
// The configuration allows up to a day (DELAY_LATE_MIN, DELAY_EARLY_MIN); so does the board.
export const THRESHOLD_MAX = 1440;

export type ThresholdParse = { ok: true; value: number } | { ok: false; message: string };

export function parseThresholdMinutes(text: string, what: 'late' | 'early'): ThresholdParse {
  const t = text.trim();
  const name = what === 'late' ? 'Late threshold' : 'Early threshold';
  if (!/^\d+$/.test(t)) return { ok: false, message: `${name} must be a whole number of minutes` };
  const value = Number(t);
  if (value < THRESHOLD_MIN || value > THRESHOLD_MAX) {
    return { ok: false, message: `${name} must be between ${THRESHOLD_MIN} and ${THRESHOLD_MAX} minutes` };
  }
  return { ok: true, value };
}

export function sameThresholds(a: DelayThresholds, b: DelayThresholds): boolean {
  return a.lateMin === b.lateMin && a.earlyMin === b.earlyMin;
}
