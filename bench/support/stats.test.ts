import { describe, expect, it } from 'vitest';
import { distanceM, max, mean, median, percentile } from './stats';

describe('bench statistics', () => {
  it('summarises samples with nearest-rank percentiles', () => {
    const xs = [5, 1, 4, 2, 3, 10, 6, 7, 9, 8];
    expect(mean(xs)).toBe(5.5);
    expect(median(xs)).toBe(5);
    expect(percentile(xs, 0.95)).toBe(10);
    expect(percentile(xs, 0.9)).toBe(9);
    expect(max(xs)).toBe(10);
  });

  it('has no figure for no samples', () => {
    expect(mean([])).toBeNull();
    expect(percentile([], 0.5)).toBeNull();
    expect(max([])).toBeNull();
  });

  it('measures metres on the ground', () => {
    // One degree of latitude is about 111.2 km.
    expect(distanceM(40, -73.9, 41, -73.9)).toBeCloseTo(111_195, -2);
    expect(distanceM(40.75, -73.99, 40.75, -73.99)).toBe(0);
  });
});
