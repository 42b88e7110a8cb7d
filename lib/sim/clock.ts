// Time in the simulator: a sim clock running `speed` times real time from `startAt`, and the local wall
// clock of an IANA zone, which is how the API writes every timestamp (`YYYY-MM-DD HH:MM:SS`, no zone).

import { isValidTimeZone, zoneOffsetMs } from '../time/zone';

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export interface LocalDay {
  /** Local calendar day as days since 1970-01-01. */
  day: number;
  /** Seconds since local midnight. */
  secOfDay: number;
}

export class ZoneTime {
  private readonly offsets = new Map<number, number>();

  constructor(readonly timeZone: string) {
    if (!isValidTimeZone(timeZone)) throw new Error(`Unknown time zone "${timeZone}" (expected an IANA name such as America/New_York)`);
  }

  /** Local time minus UTC, in ms. Cached per UTC hour: zone transitions happen on whole hours. */
  offsetMs(epochMs: number): number {
    const bucket = Math.floor(epochMs / HOUR_MS);
    let offset = this.offsets.get(bucket);
    if (offset === undefined) {
      offset = zoneOffsetMs(bucket * HOUR_MS, this.timeZone);
      if (this.offsets.size > 50_000) this.offsets.clear();
      this.offsets.set(bucket, offset);
    }
    return offset;
  }

  /** `YYYY-MM-DD HH:MM:SS` in this zone. */
  format(epochMs: number): string {
    const d = new Date(Math.floor(epochMs / 1000) * 1000 + this.offsetMs(epochMs));
    return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  }

  localDay(epochMs: number): LocalDay {
    const local = epochMs + this.offsetMs(epochMs);
    const day = Math.floor(local / DAY_MS);
    return { day, secOfDay: Math.floor((local - day * DAY_MS) / 1000) };
  }

  /**
   * Epoch ms of "noon minus 12 hours" on a local day: the GTFS reference point, so schedule times in
   * seconds after it stay on the wall clock except across the night of a DST change.
   */
  dayBaseMs(day: number): number {
    const noonLocal = day * DAY_MS + 12 * HOUR_MS;
    const offset = this.offsetMs(noonLocal - this.offsetMs(noonLocal));
    return noonLocal - offset - 12 * HOUR_MS;
  }
}

export function formatDay(day: number): string {
  const d = new Date(day * DAY_MS);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export interface SimClock {
  /** Sim time, epoch ms. */
  now(): number;
  /** The real clock the sim runs on (injectable for tests), epoch ms. */
  realNow(): number;
  readonly speed: number;
  readonly startAt: number;
}

export function createSimClock(opts: { startAt: number; speed: number; realNow: () => number }): SimClock {
  const realStart = opts.realNow();
  return {
    now: () => opts.startAt + (opts.realNow() - realStart) * opts.speed,
    realNow: opts.realNow,
    speed: opts.speed,
    startAt: opts.startAt,
  };
}

/**
 * A fixed-offset IANA zone (`Etc/GMT±N`) in which the local hour is `hour` at the instant `at`.
 *
 * The simulator writes timestamps on the wall clock of its zone and follows the real clock, so its traffic
 * depends on the real hour: at 02:00 in New York few trips run. A test that needs traffic runs the simulator
 * in a zone where it is midday now, which keeps its timestamps true to the real clock (timezone inference
 * still works); a test of the quiet night asks for 03:00 on purpose.
 */
export function zoneAtLocalHour(hour: number, at: number = Date.now()): string {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`hour must be a whole hour 0..23, got ${hour}`);
  let offset = (((hour - new Date(at).getUTCHours()) % 24) + 24) % 24;
  // Real offsets run from UTC−12 to UTC+14.
  if (offset > 14) offset -= 24;
  // POSIX signs: Etc/GMT-5 is five hours ahead of UTC.
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
