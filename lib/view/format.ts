// How durations, ages, delays and clock times read on screen, the same on every page.
import type { EpochMs } from '@/lib/model';

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

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

/** Degrees clockwise from north, with the nearest of eight compass points: `92° E`. */
export function formatHeading(deg: number): string {
  return `${Math.round(deg)}° ${COMPASS[Math.round((((deg % 360) + 360) % 360) / 45) % 8]}`;
}
