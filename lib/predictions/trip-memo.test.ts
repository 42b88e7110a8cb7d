import { describe, expect, it } from 'vitest';
import type { VehicleTrip } from '@/lib/model';
import { fix, MIN, straightNorth, T0, trip } from '@/lib/testing/estimate-factories';
import { TripPredictionMemo } from './trip-memo';

const stops = straightNorth(11, 400);
const record: VehicleTrip = { tripId: 7, routeId: 1, routeCode: 'M1', routeName: 'One', status: 'started', delayClass: 'on-time', ...trip({ minutes: 20 }) };
const active = (t: VehicleTrip = record) => ({ trip: t, busId: 3, busName: 'Bus 3' });

describe('TripPredictionMemo', () => {
  it("keeps a trip's predictions object between versions until its bus reports again or its record changes", () => {
    const memo = new TripPredictionMemo();
    const first = [fix(0, 1_000, T0 + 5 * MIN)];
    const a = memo.predict(active(), stops, first, null, T0 + 5 * MIN + 1_000);
    expect(memo.sweep()).toBe(1);
    // A new snapshot version 10 s later, its objects new but equal: the very same predictions.
    const b = memo.predict(active({ ...record }), stops, [{ ...first[0]! }], null, T0 + 5 * MIN + 11_000);
    expect(memo.sweep()).toBe(0);
    expect(b).toBe(a);
    expect(b!.at).toBe(T0 + 5 * MIN);
    // A new fix: predicted again.
    const c = memo.predict(active(), stops, [...first, fix(0, 1_300, T0 + 5 * MIN + 30_000)], null, T0 + 5 * MIN + 31_000);
    expect(memo.sweep()).toBe(1);
    expect(c).not.toBe(a);
    // A new delay on the record: predicted again.
    const d = memo.predict(active({ ...record, delayMinutes: 3 }), stops, [...first, fix(0, 1_300, T0 + 5 * MIN + 30_000)], null, T0 + 5 * MIN + 41_000);
    expect(d).not.toBe(c);
    expect(memo.sweep()).toBe(1);
  });

  it('predicts again once a rule changes the basis (the fix turns stale)', () => {
    const memo = new TripPredictionMemo();
    const fixes = [fix(0, 1_000, T0 + 5 * MIN)];
    const a = memo.predict(active(), stops, fixes, null, T0 + 6 * MIN);
    const b = memo.predict(active(), stops, fixes, null, T0 + 21 * MIN);
    expect(a!.basis).toBe('gps');
    expect(b!.basis).toBe('schedule');
    expect(b!.scheduleReason).toBe('stale-fix');
  });
});
