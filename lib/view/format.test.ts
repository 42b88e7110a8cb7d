import { describe, expect, it } from 'vitest';
import { fixedOffsetMinutes, formatAgo, formatClock, formatDateTime, formatDelay, formatDuration, formatHeading } from './format';

describe('formatting', () => {
  it.each([
    [0, '0 s'],
    [4.9, '4 s'],
    [59, '59 s'],
    [60, '1 min'],
    [3599, '59 min'],
    [3900, '1 h 05 min'],
    [3 * 86400 + 4 * 3600, '3 d 4 h'],
  ])('formatDuration(%s) = %s', (s, out) => expect(formatDuration(s)).toBe(out));

  it('says ago, just now, or that the age is unknown', () => {
    expect(formatAgo(4)).toBe('4 s ago');
    expect(formatAgo(0.2)).toBe('just now');
    expect(formatAgo(null)).toBe('age unknown');
  });

  it('signs delays', () => {
    expect(formatDelay(7)).toBe('+7 min');
    expect(formatDelay(-2)).toBe('−2 min');
    expect(formatDelay(0)).toBe('0 min');
    expect(formatDelay(null)).toBe('—');
  });

  it('names the compass point of a heading', () => {
    expect(formatHeading(92)).toBe('92° E');
    expect(formatHeading(350)).toBe('350° N');
    expect(formatHeading(-90)).toBe('-90° W');
    expect(formatHeading(200.4)).toBe('200° S');
  });

  describe('times in a zone', () => {
    // 2026-11-25 17:04:05 UTC: 12:04:05 in New York (EST), 02:04:05 the next day in Tokyo.
    const t = Date.UTC(2026, 10, 25, 17, 4, 5);
    const hm = (s: string) => s.replace(/[^0-9:]/g, '');

    it('reads an IANA zone and a fixed offset alike', () => {
      expect(hm(formatClock(t, true, 'America/New_York'))).toBe('12:04:05');
      expect(hm(formatClock(t, true, 'UTC-05:00'))).toBe('12:04:05');
      expect(hm(formatClock(t, false, 'Asia/Tokyo'))).toBe('02:04');
      expect(formatClock(t, false, 'UTC+05:30')).toBe(formatClock(Date.UTC(2026, 10, 25, 22, 34), false, 'UTC'));
    });

    it('names the day when the moment may lie on another one', () => {
      expect(formatDateTime(t, 'Asia/Tokyo')).toMatch(/Nov 26/);
      expect(formatDateTime(t, 'UTC-05:00')).toMatch(/Nov 25/);
      expect(formatDateTime(null)).toBe('—');
    });

    it('parses fixed offsets only', () => {
      expect(fixedOffsetMinutes('UTC-05:00')).toBe(-300);
      expect(fixedOffsetMinutes('UTC+05:45')).toBe(345);
      expect(fixedOffsetMinutes('America/New_York')).toBeNull();
    });
  });
});
