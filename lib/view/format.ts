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

/**
 * A zone times are shown in: an IANA name (`America/New_York`), or a fixed offset as the feed describes an
 * inferred one (`UTC-05:00`). undefined: the browser's own zone.
 */
export type DisplayZone = string | undefined;

const FIXED_OFFSET = /^UTC([+-])(\d{2}):(\d{2})$/;

/** Minutes east of UTC of a fixed-offset zone name, or null for any other name. */
export function fixedOffsetMinutes(zone: string): number | null {
  const m = FIXED_OFFSET.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * Intl options and the instant to format so that the result reads in `zone`. A fixed offset is not an IANA
 * zone every runtime accepts: the instant is shifted by the offset and read in UTC instead.
 */
function inZone(ms: EpochMs, zone: DisplayZone): { date: Date; timeZone: string | undefined } {
  if (zone === undefined) return { date: new Date(ms), timeZone: undefined };
  const offset = fixedOffsetMinutes(zone);
  return offset === null ? { date: new Date(ms), timeZone: zone } : { date: new Date(ms + offset * 60_000), timeZone: 'UTC' };
}

// Building an Intl formatter costs far more than using one: a table of 10,000 times would spend seconds on it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    formatters.set(key, f);
  }
  return f;
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const CLOCK_SECONDS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };
const DATE_TIME: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };

/** Wall-clock time in `zone` (default: the browser's own zone). */
export function formatClock(ms: EpochMs | null, withSeconds = false, zone?: DisplayZone): string {
  if (ms === null) return '—';
  const { date, timeZone } = inZone(ms, zone);
  return formatter(timeZone, withSeconds ? CLOCK_SECONDS : CLOCK).format(date);
}

/** Date and time in `zone`, for moments that may lie on another day: `Nov 24, 14:05`. */
export function formatDateTime(ms: EpochMs | null, zone?: DisplayZone): string {
  if (ms === null) return '—';
  const { date, timeZone } = inZone(ms, zone);
  return formatter(timeZone, DATE_TIME).format(date);
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

/** Degrees clockwise from north, with the nearest of eight compass points: `92° E`. */
export function formatHeading(deg: number): string {
  return `${Math.round(deg)}° ${COMPASS[Math.round((((deg % 360) + 360) % 360) / 45) % 8]}`;
}
