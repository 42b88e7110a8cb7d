import type { DelayClass } from './live';

export interface DelayThresholds {
  /** Late when delay >= lateMin minutes. */
  lateMin: number;
  /** Early when delay <= -earlyMin minutes. */
  earlyMin: number;
}

export const DEFAULT_DELAY_THRESHOLDS: DelayThresholds = { lateMin: 5, earlyMin: 1 };

/** The spec gives no status literals for "late", so lateness is read from delay_minutes alone. */
export function tripDelayClass(delayMinutes: number | null | undefined, t: DelayThresholds = DEFAULT_DELAY_THRESHOLDS): DelayClass {
  if (delayMinutes === null || delayMinutes === undefined || !Number.isFinite(delayMinutes)) return 'unknown';
  if (delayMinutes >= t.lateMin) return 'late';
  if (delayMinutes <= -t.earlyMin) return 'early';
  return 'on-time';
}
