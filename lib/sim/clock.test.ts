import { describe, expect, it } from 'vitest';
import { ZoneTime, createSimClock, formatDay, weekdayOf, zoneAtLocalHour } from './clock';

describe('ZoneTime', () => {
  const ny = new ZoneTime('America/New_York');

  it('writes local wall-clock time without a zone marker, across DST', () => {
    expect(ny.format(Date.parse('2026-01-15T13:05:09Z'))).toBe('2026-01-15 08:05:09');
    expect(ny.format(Date.parse('2026-07-15T13:05:09Z'))).toBe('2026-07-15 09:05:09');
    // 8 March 2026: clocks jump from 02:00 EST to 03:00 EDT.
    expect(ny.format(Date.parse('2026-03-08T06:59:59Z'))).toBe('2026-03-08 01:59:59');
    expect(ny.format(Date.parse('2026-03-08T07:00:00Z'))).toBe('2026-03-08 03:00:00');
    expect(new ZoneTime('Asia/Kolkata').format(Date.parse('2026-01-15T00:00:00Z'))).toBe('2026-01-15 05:30:00');
  });

  it('finds the local day and the GTFS reference point of a day', () => {
    const t = Date.parse('2026-03-04T04:30:00Z'); // 23:30 on 3 March in New York
    const { day, secOfDay } = ny.localDay(t);
    expect(formatDay(day)).toBe('2026-03-03');
    expect(secOfDay).toBe(23.5 * 3600);
    expect(ny.dayBaseMs(day)).toBe(Date.parse('2026-03-03T05:00:00Z'));
    expect(weekdayOf(day)).toBe(2); // Tuesday
  });

  it('refuses an unknown zone', () => {
    expect(() => new ZoneTime('Mars/Olympus')).toThrow(/IANA/);
  });
});

describe('sim clock', () => {
  it('runs speed times faster than the real clock, from the start time', () => {
    let real = 1_000_000;
    const clock = createSimClock({ startAt: 5_000, speed: 60, realNow: () => real });
    expect(clock.now()).toBe(5_000);
    real += 1_000;
    expect(clock.now()).toBe(65_000);
  });
});

describe('zoneAtLocalHour', () => {
  it('names a zone whose local hour is the one asked for, at every hour of the real day', () => {
    const midnight = Date.parse('2026-11-23T00:17:00Z');
    for (let h = 0; h < 24; h++) {
      const at = midnight + h * 3_600_000;
      for (const want of [3, 12, 23]) {
        const zone = zoneAtLocalHour(want, at);
        const local = new ZoneTime(zone).format(at);
        expect(local.slice(11, 13), `${zone} at UTC ${h}:17`).toBe(String(want).padStart(2, '0'));
        expect(local.slice(14, 16)).toBe('17');
      }
    }
  });

  it('refuses an hour that is not one', () => {
    expect(() => zoneAtLocalHour(24)).toThrow(RangeError);
    expect(() => zoneAtLocalHour(1.5)).toThrow(RangeError);
  });
});
