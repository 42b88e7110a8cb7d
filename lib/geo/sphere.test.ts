import { describe, expect, it } from 'vitest';
import { distanceM } from './sphere';

describe('distanceM', () => {
  it('measures about 111 km per degree of latitude', () => {
    expect(distanceM(-74, 40, -74, 41)).toBeGreaterThan(111_000);
    expect(distanceM(-74, 40, -74, 41)).toBeLessThan(111_400);
  });
});
