import { describe, expect, it } from 'vitest';
import { serviceDayStart } from './scale-prefill';

const H = 3_600_000;

describe('serviceDayStart', () => {
  const at = Date.parse('2026-03-04T18:00:00Z');
  it('goes back to the start hour of the same local day in the afternoon', () => {
    expect(serviceDayStart(4, 13 * 3600, at)).toBe(at - 9 * H);
  });
  it('goes back to the day before when the hour is before the start (the night belongs to the day before)', () => {
    expect(serviceDayStart(4, 2 * 3600 + 30 * 60, at)).toBe(at - 22.5 * H);
  });
  it('is `at` itself at the start hour', () => {
    expect(serviceDayStart(4, 4 * 3600, at)).toBe(at);
  });
});
