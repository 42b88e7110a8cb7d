import { describe, expect, it } from 'vitest';
import { parseZonedInput, zonedInputValue, zoneOffsetMinutesAt } from './zoned-input';

describe('a date-and-time field in the shown zone', () => {
  it('shows an instant as its wall time in an IANA zone, a fixed offset, with DST', () => {
    const winter = Date.UTC(2026, 0, 15, 14, 30);
    const summer = Date.UTC(2026, 6, 15, 14, 30);
    expect(zonedInputValue(winter, 'America/New_York')).toBe('2026-01-15T09:30');
    expect(zonedInputValue(summer, 'America/New_York')).toBe('2026-07-15T10:30');
    expect(zonedInputValue(winter, 'UTC-05:00')).toBe('2026-01-15T09:30');
    expect(zonedInputValue(winter, 'UTC+05:30')).toBe('2026-01-15T20:00');
    expect(zoneOffsetMinutesAt(summer, 'Europe/Berlin')).toBe(120);
  });

  it('reads a typed wall time back as the same instant, across a day and a zone boundary', () => {
    for (const zone of ['America/New_York', 'Asia/Kolkata', 'UTC-05:00', 'UTC+13:00']) {
      for (const ms of [Date.UTC(2026, 0, 15, 3, 7), Date.UTC(2026, 6, 1, 23, 59), Date.UTC(2026, 10, 27, 4, 0)]) {
        expect(parseZonedInput(zonedInputValue(ms, zone), zone)).toBe(ms);
      }
    }
  });

  it('reads the wall times a change of offset repeats or skips with the offset before it', () => {
    // New York: 2026-11-01 01:30 happens twice (EDT, then EST); 2026-03-08 02:30 never happens.
    expect(parseZonedInput('2026-11-01T01:30', 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(parseZonedInput('2026-03-08T02:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
  });

  it('refuses what is not a date and time', () => {
    for (const bad of ['', '2026-01-15', '2026-01-15T9:30', '2026-02-30T10:00', '2026-01-15T24:00', 'now']) expect(parseZonedInput(bad, 'America/New_York')).toBeNull();
  });
});
