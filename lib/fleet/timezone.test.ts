import { describe, expect, it } from 'vitest';
import { CONFIRM_AFTER_MS, FeedTimezone } from './timezone';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MIN = 60_000;

describe('FeedTimezone', () => {
  it('starts as UTC by default and infers a quarter-hour offset from the newest GPS time', () => {
    const tz = new FeedTimezone(null);
    expect(tz.health(NOW)).toEqual({ zone: 'UTC+00:00', source: 'default', offsetMinutes: 0 });
    // Wall clock 5 h 30 min ahead, newest fix 40 s old, parsed as if UTC.
    const shift = tz.inferFrom([NOW + 330 * MIN - 40_000, NOW + 330 * MIN - 60_000, null], NOW);
    expect(shift).toBe(-330 * MIN);
    expect(tz.rule()).toEqual({ kind: 'offset', minutes: 330 });
    // In use at once, settled only once a later look finds it again.
    expect(tz.health(NOW)).toEqual({ zone: 'UTC+05:30', source: 'inferring', offsetMinutes: 330 });
    expect(tz.inferFrom([NOW - 30_000], NOW + 2_000)).toBe(0);
    expect(tz.health(NOW).source).toBe('inferring');
    expect(tz.inferFrom([NOW - 30_000], NOW + CONFIRM_AFTER_MS)).toBe(0);
    expect(tz.health(NOW).source).toBe('inferred');
    expect(tz.shiftSince(0)).toBe(-330 * MIN);
    expect(tz.shiftSince(tz.generation)).toBe(0);
  });

  it('marks a confirmed UTC as inferred and needs a changed offset twice before switching again', () => {
    const tz = new FeedTimezone(null);
    expect(tz.inferFrom([NOW - 5_000], NOW - CONFIRM_AFTER_MS)).toBe(0);
    expect(tz.health(NOW).source).toBe('inferring');
    expect(tz.inferFrom([NOW - 5_000], NOW)).toBe(0);
    expect(tz.health(NOW).source).toBe('inferred');
    expect(tz.inferFrom([NOW - 60 * MIN], NOW)).toBe(0);
    expect(tz.rule()).toEqual({ kind: 'offset', minutes: 0 });
    expect(tz.inferFrom([NOW - 60 * MIN], NOW)).toBe(60 * MIN);
    expect(tz.rule()).toEqual({ kind: 'offset', minutes: -60 });
  });

  it('never overrides PARTNER_TIMEZONE and ignores impossible offsets', () => {
    const tz = new FeedTimezone('America/New_York');
    expect(tz.inferFrom([NOW + 120 * MIN], NOW)).toBe(0);
    expect(tz.health(NOW)).toEqual({ zone: 'America/New_York', source: 'config', offsetMinutes: -300 });
    const free = new FeedTimezone(null);
    expect(free.inferFrom([NOW + 20 * 60 * MIN], NOW)).toBe(0);
    expect(free.health(NOW).source).toBe('default');
  });

  it('reads the median of the newest fixes: one bus with a clock 20 min fast does not move the offset', () => {
    const tz = new FeedTimezone(null);
    const fleet = [NOW + 20 * MIN, ...Array.from({ length: 8 }, (_, i) => NOW - (i + 1) * 10_000), NOW - 3 * 60 * MIN];
    expect(tz.inferFrom(fleet, NOW)).toBe(0);
    expect(tz.rule()).toEqual({ kind: 'offset', minutes: 0 });
    expect(tz.health(NOW).source).toBe('inferring');
  });
});
