import { describe, expect, it } from 'vitest';
import { distanceM } from './sphere';

describe('distanceM', () => {
  it('measures metres on the ground, longitude first', () => {
    // One degree of latitude is about 111.2 km.
    expect(distanceM(-73.9, 40, -73.9, 41)).toBeCloseTo(111_195, -2);
    expect(distanceM(-73.99, 40.75, -73.99, 40.75)).toBe(0);
    // A degree of longitude at 40.75° N is shorter by cos(latitude): the order of the arguments matters.
    expect(distanceM(-74, 40.75, -73, 40.75)).toBeCloseTo(111_195 * Math.cos((40.75 * Math.PI) / 180), -2);
  });
});
