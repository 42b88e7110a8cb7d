// A date-and-time field (`<input type="datetime-local">`, `YYYY-MM-DDTHH:MM`) that reads in the zone the page shows
// times in (the agency's by default, or the browser's): the value an instant shows as, and the instant a typed
// value means. Pure.
import type { EpochMs } from '@/lib/model';
import { fixedOffsetMinutes, type DisplayZone } from './format';

const MINUTE_MS = 60_000;
const INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC that `zone` is at the instant (DST included); undefined: the browser's zone. */
export function zoneOffsetMinutesAt(ms: EpochMs, zone: DisplayZone): number {
  if (zone === undefined) return -new Date(ms).getTimezoneOffset();
  const fixed = fixedOffsetMinutes(zone);
  if (fixed !== null) return fixed;
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partsFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / MINUTE_MS);
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
  // The offsets a day either side bracket the answer: zones change offset at most once a day.
  const before = zoneOffsetMinutesAt(wall - 86_400_000, zone) * MINUTE_MS;
  const after = zoneOffsetMinutesAt(wall + 86_400_000, zone) * MINUTE_MS;
  if (zoneOffsetMinutesAt(wall - before, zone) * MINUTE_MS === before) return wall - before;
  if (zoneOffsetMinutesAt(wall - after, zone) * MINUTE_MS === after) return wall - after;
  return wall - before;
}
