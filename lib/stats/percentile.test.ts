import { describe, expect, it } from 'vitest';
import { percentile, percentileOfCounts } from './percentile';

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
  it('gives a histogram the same figure as its values one by one', () => {
    const values = [-2, 0, 3, 7.5];
    const counts = [1, 4, 2, 3];
    const expanded = values.flatMap((v, k) => Array.from({ length: counts[k]! }, () => v));
    for (const p of [0, 0.1, 0.25, 0.5, 0.9, 0.95, 1]) expect(percentileOfCounts(values, counts, p)).toBe(percentile(expanded, p));
    expect(percentileOfCounts([], [], 0.5)).toBeNull();
    expect(() => percentileOfCounts([1], [1], 2)).toThrow(RangeError);
  });
});
