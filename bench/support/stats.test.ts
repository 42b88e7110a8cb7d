import { describe, expect, it } from 'vitest';
import { max, mean, median, percentile } from './stats';

describe('bench statistics', () => {
  it('summarises unsorted samples with the project percentile (linear between closest ranks)', () => {
    const xs = [5, 1, 4, 2, 3, 10, 6, 7, 9, 8];
    expect(mean(xs)).toBe(5.5);
    expect(median(xs)).toBe(5.5);
    // h = 9 × 0.95 = 8.55 → 9 + 0.55 × (10 − 9)
    expect(percentile(xs, 0.95)).toBeCloseTo(9.55, 10);
    expect(percentile(xs, 0.9)).toBeCloseTo(9.1, 10);
    expect(max(xs)).toBe(10);
  });

  it('has no figure for no samples', () => {
    expect(mean([])).toBeNull();
    expect(percentile([], 0.5)).toBeNull();
    expect(max([])).toBeNull();
  });
});
