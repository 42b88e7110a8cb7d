// Wall-clock arithmetic in a time zone, shared by the server (reading the upstream's zone-less timestamps,
// lib/partner/time.ts) and the browser (date-and-time fields in the zone a page shows, lib/view/zoned-input.ts).
// Pure: Intl only.

const DAY_MS = 86_400_000;

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Wall-clock fields read as if they were UTC: the zone-less "local epoch". */
export function wallClockAsUtc(w: WallClock): number {
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear keeps the year as written.
  const d = new Date(Date.UTC(2000, w.month - 1, w.day, w.hour, w.minute, w.second));
  d.setUTCFullYear(w.year);
  return d.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // hourCycle h23: with hour12:false some ICU versions print midnight as 24.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function wallClockInZone(ms: number, zone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const p of zoneFormatter(zone).formatToParts(ms)) parts[p.type] = p.value;
  const yearOfEra = Number(parts.year);
  // Years before 1 CE come back as a year of the BC era; turn them into astronomical years.
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Offset of the zone at an instant, in ms (local minus UTC). Sub-second parts of the instant are ignored. */
export function zoneOffsetMs(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClockAsUtc(wallClockInZone(whole, zone)) - whole;
}

/**
 * The instant of a wall time (its fields read as UTC, `local`) under a zone whose offset (local minus UTC, ms) at
 * an instant `offsetAt` gives. A wall time a change of offset repeats or skips reads with the offset in force
 * before the change, as JavaScript's Date does for local times.
 */
export function localToUtc(local: number, offsetAt: (ms: number) => number): number {
  // Real zones change offset at most once within a day, so the offsets a day either side bracket the answer.
  const before = offsetAt(local - DAY_MS);
  const after = offsetAt(local + DAY_MS);
  if (offsetAt(local - before) === before) return local - before;
  if (offsetAt(local - after) === after) return local - after;
  // Neither offset yields this wall time: it was skipped by a forward change.
  return local - before;
}

const zoneValidity = new Map<string, boolean>();

/** True when the runtime knows the IANA zone name (e.g. `Europe/Paris`, `UTC`): the one check, for the upstream's zone and the simulator's. */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone.trim() === '') return false;
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    zoneValidity.set(zone, valid);
  }
  return valid;
}
