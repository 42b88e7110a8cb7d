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

/** The delay board's figures for a set of trips (live: the active ones; history: a period's). */
export interface DelayFigures {
  activeTrips: number;
  /** Trips whose delay is known; the base of every average and share. */
  knownDelay: number;
  /** Trips without a delay: counted here, never as on time. */
  unknownDelay: number;
  early: number;
  onTime: number;
  late: number;
  meanMin: number | null;
  medianMin: number | null;
  p90Min: number | null;
  /** The largest delay (the latest trip). */
  worstMin: number | null;
  /** onTime / knownDelay, 0..1; null when no delay is known. */
  onTimeShare: number | null;
}
