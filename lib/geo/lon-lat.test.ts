import { describe, expect, it } from 'vitest';
import { featurePositions, isLonLat, lonLatBounds } from './lon-lat';

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

describe('featurePositions', () => {
  it('gives the stops and every vertex of the lines, skipping what cannot be drawn', () => {
    const features = [
      { geometry: { type: 'Point' as const, coordinates: [-73.99, 40.7] as const } },
      { geometry: { type: 'LineString' as const, coordinates: [[-74.01, 40.71], [-73.9, 40.88], [Number.NaN, 40]] as const } },
      { geometry: { type: 'Point' as const, coordinates: [200, 40] as const } },
    ];
    expect([...featurePositions(features)]).toEqual([[-73.99, 40.7], [-74.01, 40.71], [-73.9, 40.88]]);
    expect(lonLatBounds(featurePositions(features))).toEqual([-74.01, 40.7, -73.9, 40.88]);
  });
});
