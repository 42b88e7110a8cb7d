// A date-and-time field (`<input type="datetime-local">`, `YYYY-MM-DDTHH:MM`) that reads in the zone the page shows
// times in (the agency's by default, or the browser's): the value an instant shows as, and the instant a typed
// value means. Pure; the zone arithmetic is lib/time/zone.ts.
import type { EpochMs } from '@/lib/model';
import { localToUtc, zoneOffsetMs } from '@/lib/time/zone';
import { fixedOffsetMinutes, type DisplayZone } from './format';

const MINUTE_MS = 60_000;
const INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Minutes east of UTC that `zone` is at the instant (DST included); undefined: the browser's zone. */
export function zoneOffsetMinutesAt(ms: EpochMs, zone: DisplayZone): number {
  if (zone === undefined) return -new Date(ms).getTimezoneOffset();
  return fixedOffsetMinutes(zone) ?? Math.round(zoneOffsetMs(ms, zone) / MINUTE_MS);
}

/** The field's value for an instant: its wall time in `zone`, to the minute. */
export function zonedInputValue(ms: EpochMs, zone: DisplayZone): string {
  return new Date(ms + zoneOffsetMinutesAt(ms, zone) * MINUTE_MS).toISOString().slice(0, 16);
}

/**
 * The instant a field's value means in `zone`; null for anything but `YYYY-MM-DDTHH:MM`. A wall time a change of
 * offset skips or repeats reads with the offset in force before the change.
 */
export function parseZonedInput(value: string, zone: DisplayZone): EpochMs | null {
  const m = INPUT.exec(value);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (!Number.isFinite(wall) || new Date(wall).toISOString().slice(0, 16) !== value) return null;
  return localToUtc(wall, (at) => zoneOffsetMinutesAt(at, zone) * MINUTE_MS);
}
