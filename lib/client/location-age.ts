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

/** Compact duration for dense UI: `4 s`, `2 min`, `1 h 05 min`, `3 d 4 h`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  const d = Math.floor(h / 24);
  return `${d} d ${h % 24} h`;
}

export function formatAgo(seconds: number | null): string {
  if (seconds === null) return 'age unknown';
  if (seconds < 1) return 'just now';
  return `${formatDuration(seconds)} ago`;
}

/** Signed minutes, with a real minus sign: `+7 min`, `−2 min`, `0 min`; `—` when unknown. */
export function formatDelay(delayMinutes: number | null): string {
  if (delayMinutes === null) return '—';
  if (delayMinutes === 0) return '0 min';
  return `${delayMinutes > 0 ? '+' : '−'}${Math.abs(delayMinutes)} min`;
}

/** Local wall-clock time in the browser's own zone. */
export function formatClock(ms: EpochMs | null, withSeconds = false): string {
  if (ms === null) return '—';
  return new Date(ms).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
  });
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
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
