import { describe, expect, it } from 'vitest';
import { trip } from '@/lib/testing/view-factories';
import { delayFigures } from './delay-figures';

const T = { lateMin: 5, earlyMin: 1 };

describe('delayFigures', () => {
  it('counts classes by the thresholds given, unknown apart from on time', () => {
    const trips = [-3, -1, 0, 4, 5, 12, null, null].map((d) => trip({ delayMinutes: d }));
    const f = delayFigures(trips, T);
    expect(f).toMatchObject({ activeTrips: 8, knownDelay: 6, unknownDelay: 2, early: 2, onTime: 2, late: 2 });
    expect(f.onTimeShare).toBeCloseTo(2 / 6, 10);
    expect(f.meanMin).toBeCloseTo(17 / 6, 10);
    expect(f.medianMin).toBe(2);
    expect(f.worstMin).toBe(12);
    // sorted [-3,-1,0,4,5,12]: h = 4.5 -> 5 + 0.5 * 7
    expect(f.p90Min).toBe(8.5);
  });
  it('follows adjusted thresholds', () => {
    const trips = [-3, -1, 0, 4, 5, 12].map((d) => trip({ delayMinutes: d }));
    expect(delayFigures(trips, { lateMin: 3, earlyMin: 2 })).toMatchObject({ early: 1, onTime: 2, late: 3 });
  });
  it('has no averages or share without a known delay', () => {
    const f = delayFigures([trip({ delayMinutes: null })], T);
    expect(f).toMatchObject({ activeTrips: 1, unknownDelay: 1, meanMin: null, medianMin: null, p90Min: null, worstMin: null, onTimeShare: null });
  });
});
