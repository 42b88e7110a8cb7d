import { describe, expect, it } from 'vitest';
import {
  describeTimeRule,
  formatPartnerTimestamp,
  isPartnerDate,
  isPartnerTimestamp,
  offsetMinutesAt,
  parsePartnerTimestamp,
  type TimeRule,
} from './time';
import { isValidTimeZone } from '@/lib/time/zone';

const NY: TimeRule = { kind: 'zone', zone: 'America/New_York' };
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

describe('parsePartnerTimestamp', () => {
  it('reads New York winter time as UTC-5 and summer time as UTC-4', () => {
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', NY)).toBe(utc(2025, 1, 15, 17));
    expect(parsePartnerTimestamp('2025-07-01 12:00:00', NY)).toBe(utc(2025, 7, 1, 16));
  });

  it('handles the southern hemisphere and half-hour DST', () => {
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'zone', zone: 'Australia/Sydney' })).toBe(utc(2025, 1, 15, 1));
    expect(parsePartnerTimestamp('2025-07-15 12:00:00', { kind: 'zone', zone: 'Australia/Sydney' })).toBe(utc(2025, 7, 15, 2));
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'zone', zone: 'Australia/Lord_Howe' })).toBe(utc(2025, 1, 15, 1));
    expect(parsePartnerTimestamp('2025-07-15 12:00:00', { kind: 'zone', zone: 'Australia/Lord_Howe' })).toBe(utc(2025, 7, 15, 1, 30));
  });

  it('handles a zone whose changes fall on half hours of UTC (Newfoundland)', () => {
    const stJohns: TimeRule = { kind: 'zone', zone: 'America/St_Johns' };
    expect(parsePartnerTimestamp('2025-03-09 01:59:59', stJohns)).toBe(utc(2025, 3, 9, 5, 29, 59));
    expect(parsePartnerTimestamp('2025-03-09 03:00:00', stJohns)).toBe(utc(2025, 3, 9, 5, 30));
    expect(formatPartnerTimestamp(utc(2025, 3, 9, 5, 30), stJohns)).toBe('2025-03-09 03:00:00');
  });

  it('applies fixed offsets (local minus UTC)', () => {
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'offset', minutes: -300 })).toBe(utc(2025, 1, 15, 17));
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'offset', minutes: 330 })).toBe(utc(2025, 1, 15, 6, 30));
    expect(parsePartnerTimestamp('2025-01-01 00:30:00', { kind: 'offset', minutes: 60 })).toBe(utc(2024, 12, 31, 23, 30));
    expect(parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'offset', minutes: 0 })).toBe(utc(2025, 1, 15, 12));
  });

  it('resolves a repeated (fall-back) wall time to its first occurrence, with the offset before the change', () => {
    // 2025-11-02: New York goes from EDT (-4) to EST (-5) at 02:00 EDT; 01:30 happens twice.
    expect(parsePartnerTimestamp('2025-11-02 01:30:00', NY)).toBe(utc(2025, 11, 2, 5, 30));
    expect(parsePartnerTimestamp('2025-11-02 00:59:59', NY)).toBe(utc(2025, 11, 2, 4, 59, 59));
    expect(parsePartnerTimestamp('2025-11-02 02:00:00', NY)).toBe(utc(2025, 11, 2, 7));
  });

  it('reads a skipped (spring-forward) wall time with the offset before the change', () => {
    // 2025-03-09: 02:00 EST jumps to 03:00 EDT; 02:30 never shows on a New York clock.
    expect(parsePartnerTimestamp('2025-03-09 02:30:00', NY)).toBe(utc(2025, 3, 9, 7, 30));
    expect(parsePartnerTimestamp('2025-03-09 01:59:59', NY)).toBe(utc(2025, 3, 9, 6, 59, 59));
    expect(parsePartnerTimestamp('2025-03-09 03:00:00', NY)).toBe(utc(2025, 3, 9, 7));
  });

  it('rejects malformed timestamps and unknown zones with a RangeError', () => {
    for (const bad of ['2025-01-15T12:00:00', '2025-1-15 12:00:00', '2025-02-29 12:00:00', '2025-01-15 12:60:00', '', '2025-01-15']) {
      expect(() => parsePartnerTimestamp(bad, NY), bad).toThrow(RangeError);
    }
    expect(() => parsePartnerTimestamp('2025-01-15 12:00:00', { kind: 'zone', zone: 'Mars/Olympus' })).toThrow(/Unknown time zone/);
  });
});

describe('formatPartnerTimestamp', () => {
  it('formats an instant in a zone and at a fixed offset', () => {
    expect(formatPartnerTimestamp(utc(2025, 1, 15, 17), NY)).toBe('2025-01-15 12:00:00');
    expect(formatPartnerTimestamp(utc(2025, 7, 1, 16), NY)).toBe('2025-07-01 12:00:00');
    expect(formatPartnerTimestamp(utc(2025, 1, 15, 6, 30), { kind: 'offset', minutes: 330 })).toBe('2025-01-15 12:00:00');
    expect(formatPartnerTimestamp(utc(2025, 1, 1, 4, 0, 0) + 999, { kind: 'offset', minutes: -300 })).toBe('2024-12-31 23:00:00');
    expect(formatPartnerTimestamp(utc(2025, 1, 1, 5), NY)).toBe('2025-01-01 00:00:00');
  });

  it('round-trips every 53 minutes through a year in New York, Sydney and a fixed offset', () => {
    const rules: TimeRule[] = [NY, { kind: 'zone', zone: 'Australia/Sydney' }, { kind: 'offset', minutes: -300 }];
    const start = utc(2025, 1, 1);
    let checked = 0;
    for (const rule of rules) {
      for (let ms = start; ms < start + 366 * 86_400_000; ms += 53 * 60_000) {
        const s = formatPartnerTimestamp(ms, rule);
        const back = parsePartnerTimestamp(s, rule);
        // Only the second occurrence of a repeated hour may come back as the first one, exactly an hour earlier.
        if (back !== ms) expect(ms - back, `${describeTimeRule(rule)} ${s}`).toBe(3_600_000);
        else checked++;
        expect(formatPartnerTimestamp(back, rule)).toBe(s);
      }
    }
    expect(checked).toBeGreaterThan(3 * 9_900);
  });
});

describe('describeTimeRule / offsetMinutesAt', () => {
  it('names zones and offsets', () => {
    expect(describeTimeRule(NY)).toBe('America/New_York');
    expect(describeTimeRule({ kind: 'offset', minutes: -300 })).toBe('UTC-05:00');
    expect(describeTimeRule({ kind: 'offset', minutes: 330 })).toBe('UTC+05:30');
    expect(describeTimeRule({ kind: 'offset', minutes: 0 })).toBe('UTC+00:00');
    expect(describeTimeRule({ kind: 'offset', minutes: -570 })).toBe('UTC-09:30');
  });

  it('gives the offset in force at an instant', () => {
    expect(offsetMinutesAt(NY, utc(2025, 1, 15))).toBe(-300);
    expect(offsetMinutesAt(NY, utc(2025, 7, 15))).toBe(-240);
    expect(offsetMinutesAt({ kind: 'offset', minutes: 60 }, utc(2025, 7, 15))).toBe(60);
  });
});

describe('validators', () => {
  it('knows IANA zones', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('checks timestamp and date shapes against the calendar', () => {
    expect(isPartnerTimestamp('2024-02-29 00:00:00')).toBe(true);
    expect(isPartnerTimestamp('2023-02-29 00:00:00')).toBe(false);
    expect(isPartnerTimestamp('2024-13-01 00:00:00')).toBe(false);
    expect(isPartnerDate('2024-02-29')).toBe(true);
    expect(isPartnerDate('2024-04-31')).toBe(false);
    expect(isPartnerDate('2024-04-30 ')).toBe(false);
  });
});
