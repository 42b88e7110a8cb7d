import { describe, expect, it } from 'vitest';
import { DEFAULT_TUNING, estimatePosition, routePath } from '../lib/estimate';
import { MIN, T0, fix, straightNorth, trip } from '../lib/testing/estimate-factories';
import { distanceM } from '../lib/geo/sphere';
import { ageBucket, withHorizon } from './estimation';

describe('estimation benchmark helpers', () => {
  it('buckets fix ages from each edge up to the next', () => {
    expect(ageBucket(0)).toBe('0–30 s');
    expect(ageBucket(29.9)).toBe('0–30 s');
    expect(ageBucket(30)).toBe('30–60 s');
    expect(ageBucket(899)).toBe('600–900 s');
    expect(ageBucket(5000)).toBe('900+ s');
  });

  it('scores another horizon exactly as the estimator with that horizon would place the bus', () => {
    const path = routePath(straightNorth(9, 250))!;
    const input = { path, trip: trip(), fixes: [fix(0, 300, T0 + MIN), fix(0, 500, T0 + 2 * MIN)], now: T0 + 6 * MIN };
    const e = estimatePosition(input)!;
    for (const h of [0, 30, 120, 600]) {
      const expected = estimatePosition(input, { ...DEFAULT_TUNING, horizonS: h })!;
      const got = withHorizon(e, h, input.now);
      expect(distanceM(got.lon, got.lat, expected.lon, expected.lat)).toBeLessThan(0.01);
    }
  });
});
