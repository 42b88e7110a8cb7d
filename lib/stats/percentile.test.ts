import { describe, expect, it } from 'vitest';
import { percentile } from './percentile';

describe('percentile (linear interpolation between closest ranks)', () => {
  it('matches the type-7 definition', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile(xs, 1)).toBe(10);
    expect(percentile(xs, 0.5)).toBe(5.5);
    // h = 9 * 0.9 = 8.1 -> 9 + 0.1 * (10 - 9)
    expect(percentile(xs, 0.9)).toBeCloseTo(9.1, 10);
  });
  it('handles one value and none', () => {
    expect(percentile([7], 0.9)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
  it('rejects p outside 0..1', () => {
    expect(() => percentile([1], 1.5)).toThrow(/0\.\.1/);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});
