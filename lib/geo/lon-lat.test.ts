import { describe, expect, it } from 'vitest';
import { isLonLat, lonLatBounds } from './lon-lat';

describe('isLonLat', () => {
  it('accepts finite positions within range, edges included', () => {
    expect(isLonLat(-73.98, 40.75)).toBe(true);
    expect(isLonLat(180, -90)).toBe(true);
  });
  it('refuses missing, non-finite and out-of-range values', () => {
    expect(isLonLat(null, 40)).toBe(false);
    expect(isLonLat(-73, null)).toBe(false);
    expect(isLonLat(Number.NaN, 40)).toBe(false);
    expect(isLonLat(-73, Number.POSITIVE_INFINITY)).toBe(false);
    expect(isLonLat(-73, 95)).toBe(false);
    expect(isLonLat(181, 40)).toBe(false);
  });
});

describe('lonLatBounds', () => {
  it('bounds the points', () => {
    expect(
      lonLatBounds([
        [-73.98, 40.75],
        [-73.9, 40.75],
      ]),
    ).toEqual([-73.98, 40.75, -73.9, 40.75]);
    expect(lonLatBounds([])).toBeNull();
  });
});
