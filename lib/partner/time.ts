import 'server-only';
import { isValidTimeZone, localToUtc, wallClockAsUtc, wallClockInZone, zoneOffsetMs, type WallClock } from '@/lib/time/zone';

// The upstream sends zone-less local wall-clock times (`YYYY-MM-DD HH:MM:SS`); the spec does not say which
// zone. A TimeRule is how we read them: an IANA zone (DST-aware) or a fixed offset inferred from the data.

/** offset = local time minus UTC in minutes (New York in winter = -300). */
export type TimeRule = { kind: 'zone'; zone: string } | { kind: 'offset'; minutes: number };

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;


function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function readWallClock(s: string): WallClock | null {
  const m = TIMESTAMP_RE.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

/** True for a well-formed `YYYY-MM-DD HH:MM:SS` naming a real calendar day and time of day. */
export function isPartnerTimestamp(s: string): boolean {
  return readWallClock(s) !== null;
}

/** True for a well-formed `YYYY-MM-DD` naming a real calendar day. */
export function isPartnerDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Offset (local minus UTC) in minutes that the rule gives at an instant. */
export function offsetMinutesAt(rule: TimeRule, ms: number): number {
  if (rule.kind === 'offset') return rule.minutes;
  return Math.round(zoneOffsetMs(ms, rule.zone) / 60_000);
}

// A zone lookup costs a few Intl calls (~20 µs); every poll repeats the same planned times and fixes, so
// remembering exact strings is both correct and cheap.
const ZONE_PARSE_CACHE_MAX = 20_000;
const zoneParseCache = new Map<string, number>();


/**
 * Epoch ms of a partner timestamp read under the rule. Throws a RangeError for a malformed timestamp or an
 * unknown zone.
 *
 * Around a DST change a wall-clock time may occur twice (clocks go back) or not at all (clocks go forward).
 * Both cases consistently use the offset in force BEFORE the change: a repeated time resolves to its first
 * occurrence, a skipped time is read with the old offset (02:30 on a spring-forward night in New York
 * becomes 03:30 EDT). This matches what JavaScript's Date does for local times.
 */
export function parsePartnerTimestamp(s: string, rule: TimeRule): number {
  const w = readWallClock(s);
  if (!w) throw new RangeError(`Not a partner timestamp (YYYY-MM-DD HH:MM:SS): ${JSON.stringify(s.slice(0, 40))}`);
  const local = wallClockAsUtc(w);
  if (rule.kind === 'offset') return local - rule.minutes * 60_000;
  if (!isValidTimeZone(rule.zone)) throw new RangeError(`Unknown time zone: ${JSON.stringify(rule.zone.slice(0, 60))}`);
  const key = `${rule.zone}|${s}`;
  let ms = zoneParseCache.get(key);
  if (ms === undefined) {
    ms = localToUtc(local, (at) => zoneOffsetMs(at, rule.zone));
    if (zoneParseCache.size >= ZONE_PARSE_CACHE_MAX) zoneParseCache.clear();
    zoneParseCache.set(key, ms);
  }
  return ms;
}

function pad(n: number, width = 2): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/** The partner timestamp (`YYYY-MM-DD HH:MM:SS`) that names the instant under the rule; seconds are truncated. */
export function formatPartnerTimestamp(ms: number, rule: TimeRule): string {
  if (!Number.isFinite(ms)) throw new RangeError(`Not a finite epoch ms: ${ms}`);
  let w: WallClock;
  if (rule.kind === 'offset') {
    const d = new Date(Math.floor(ms / 1000) * 1000 + rule.minutes * 60_000);
    w = {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  } else {
    if (!isValidTimeZone(rule.zone)) throw new RangeError(`Unknown time zone: ${JSON.stringify(rule.zone.slice(0, 60))}`);
    w = wallClockInZone(ms, rule.zone);
  }
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** `America/New_York` for a zone, `UTC-05:00` / `UTC+05:30` for a fixed offset. */
export function describeTimeRule(rule: TimeRule): string {
  if (rule.kind === 'zone') return rule.zone;
  const sign = rule.minutes < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(rule.minutes));
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

