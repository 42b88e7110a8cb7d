import { describe, expect, it } from 'vitest';
import { fix, MIN, straightNorth, T0, trip } from '@/lib/testing/estimate-factories';
import { DEFAULT_PACE, DWELL_ALLOWANCE_S, predictTrip, SCHEDULE_REFRESH_MS } from './predict';

/** No delay gained ahead: exact plan arithmetic. */
const pace = { priorDrift: 0, ownWeight: 0 };

// 11 stops 400 m apart northwards: 4 km, planned 20 minutes from T0.
const stops = straightNorth(11, 400);

describe('predictTrip', () => {
  it('predicts every stop ahead of a bus from its progress, strictly increasing, with a band that widens', () => {
    // At T0 + 6 min the bus has reported twice, 1,000 m and 1,200 m along, 40 s apart.
    const now = T0 + 6 * MIN;
    const p = predictTrip({ trip: trip({ minutes: 20 }), routeStops: stops, fixes: [fix(0, 1_000, now - 45_000), fix(0, 1_200, now - 5_000)], now });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.basis).toBe('gps');
    expect(p.stops[0]!.stop.stopOrder).toBe(5); // 1,600 m: stops at 0..1,200 m are behind
    expect(p.stops.map((s) => s.stop.stopOrder)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    for (let i = 1; i < p.stops.length; i++) {
      expect(p.stops[i]!.arrivalAt).toBeGreaterThan(p.stops[i - 1]!.arrivalAt);
      const width = (s: (typeof p.stops)[number]) => s.latestAt - s.earliestAt;
      expect(width(p.stops[i]!)).toBeGreaterThan(width(p.stops[i - 1]!));
    }
    for (const s of p.stops) {
      expect(s.earliestAt).toBeLessThanOrEqual(s.arrivalAt);
      expect(s.latestAt).toBeGreaterThan(s.arrivalAt);
      expect(s.arrivalAt).toBeGreaterThanOrEqual(now);
    }
    // The last stop: 4 km − the bus's place, at the plan's cruise speed plus the dwells of the stops between.
    const last = p.stops[p.stops.length - 1]!;
    expect(last.plannedAt).toBe(T0 + 20 * MIN);
    expect(last.stop.stopOrder).toBe(11);
  });

  it('carries the delay the bus runs with forward', () => {
    // Planned 20 min for 4 km; at T0 + 10 min the bus is only 1,000 m along (it should be near 2,000 m).
    const now = T0 + 10 * MIN;
    const late = predictTrip({ trip: trip({ minutes: 20, delayMinutes: 5 }), routeStops: stops, fixes: [fix(0, 950, now - 40_000), fix(0, 1_000, now - 1_000)], now });
    const onTime = predictTrip({ trip: trip({ minutes: 20 }), routeStops: stops, fixes: [fix(0, 1_950, now - 40_000), fix(0, 2_000, now - 1_000)], now });
    if (!late.ok || !onTime.ok) throw new Error('no prediction');
    const lastLate = late.stops[late.stops.length - 1]!;
    const lastOnTime = onTime.stops[onTime.stops.length - 1]!;
    expect(lastOnTime.arrivalAt).toBeGreaterThan(T0 + 19 * MIN);
    expect(lastOnTime.arrivalAt).toBeLessThan(T0 + 21 * MIN);
    expect(lastLate.arrivalAt - lastOnTime.arrivalAt).toBeGreaterThan(4 * MIN);
  });

  it('predicts a bus waiting at its first stop from its planned departure', () => {
    const now = T0 - 3 * MIN;
    const p = predictTrip({ trip: trip({ minutes: 20, actualDepartureAt: null, delayMinutes: null }), routeStops: stops, fixes: [fix(0, 0, now - 10_000)], now, pace });
    if (!p.ok) throw new Error('no prediction');
    expect(p.basis).toBe('planned-departure');
    expect(p.stops).toHaveLength(11);
    expect(p.stops[0]!.arrivalAt).toBe(T0);
    expect(p.stops[1]!.arrivalAt).toBeGreaterThan(T0);
    expect(p.stops[10]!.arrivalAt).toBe(T0 + 20 * MIN);
  });

  it('falls back to the schedule with the current delay when the bus has no fix for 15 minutes, and says so', () => {
    const now = T0 + 18 * MIN;
    const stale = predictTrip({ trip: trip({ minutes: 30, delayMinutes: 2 }), routeStops: stops, fixes: [fix(0, 300, now - 16 * MIN)], now, pace });
    if (!stale.ok) throw new Error('no prediction');
    expect(stale.basis).toBe('schedule');
    expect(stale.scheduleReason).toBe('stale-fix');
    expect(stale.stops[stale.stops.length - 1]!.arrivalAt).toBe(T0 + 32 * MIN);
    const noGps = predictTrip({ trip: trip({ minutes: 20, delayMinutes: 2 }), routeStops: stops, fixes: [], now });
    if (!noGps.ok) throw new Error('no prediction');
    expect(noGps.scheduleReason).toBe('no-gps');
  });

  it('spends a dwell allowance at every intermediate stop', () => {
    const now = T0 - MIN;
    const p = predictTrip({ trip: trip({ minutes: 20, actualDepartureAt: null, delayMinutes: null }), routeStops: stops, fixes: [fix(0, 0, now)], now, pace });
    if (!p.ok) throw new Error('no prediction');
    const gap = (i: number) => p.stops[i + 1]!.arrivalAt - p.stops[i]!.arrivalAt;
    // The first leg has no dwell behind it; the next ones carry one each.
    expect(gap(1) - gap(0)).toBeCloseTo(DWELL_ALLOWANCE_S * 1000, -2);
  });

  it('uses a pace profile learnt from earlier days when it fits the stops', () => {
    const now = T0 - MIN;
    const profile = Array.from({ length: 11 }, (_, i) => (i / 10) ** 2);
    const p = predictTrip({ trip: trip({ minutes: 20, actualDepartureAt: null, delayMinutes: null }), routeStops: stops, fixes: [fix(0, 0, now)], now, profile, pace });
    if (!p.ok) throw new Error('no prediction');
    expect(p.stops[5]!.arrivalAt).toBe(T0 + 0.25 * 20 * MIN);
  });

  it('lets the delay grow with the time ahead by the prior drift', () => {
    const now = T0 - MIN;
    const input = { trip: trip({ minutes: 20, actualDepartureAt: null, delayMinutes: null }), routeStops: stops, fixes: [fix(0, 0, now)], now };
    const flat = predictTrip({ ...input, pace });
    const drifting = predictTrip(input);
    if (!flat.ok || !drifting.ok) throw new Error('no prediction');
    expect(drifting.stops[10]!.arrivalAt - flat.stops[10]!.arrivalAt).toBe(DEFAULT_PACE.priorDrift * 20 * MIN);
  });

  it('makes the same predictions at any instant between two fixes (from the last fix), until the fix turns stale', () => {
    const fixes = [fix(0, 1_000, T0 + 5 * MIN), fix(0, 1_200, T0 + 5 * MIN + 40_000)];
    const at = (now: number) => predictTrip({ trip: trip({ minutes: 20 }), routeStops: stops, fixes, now });
    const soon = at(T0 + 5 * MIN + 41_000);
    const later = at(T0 + 6 * MIN + 30_000);
    if (!soon.ok || !later.ok) throw new Error('no prediction');
    expect(later).toEqual(soon);
    expect(soon.basis).toBe('gps');
    expect(soon.at).toBe(T0 + 5 * MIN + 40_000);
    expect(soon.validUntil).toBe(T0 + 5 * MIN + 40_000 + 15 * MIN);
    // Past that instant the rule changes: the schedule, and made again each refresh period.
    const stale = at(T0 + 21 * MIN);
    if (!stale.ok) throw new Error('no prediction');
    expect(stale.scheduleReason).toBe('stale-fix');
    expect(stale.validUntil! - stale.at).toBeLessThanOrEqual(SCHEDULE_REFRESH_MS);
    expect(stale.at).toBeLessThanOrEqual(T0 + 21 * MIN);
  });

  it('never makes predictions from an instant after now (a fix stamped ahead of the clock)', () => {
    const now = T0 + 6 * MIN;
    const p = predictTrip({ trip: trip({ minutes: 20 }), routeStops: stops, fixes: [fix(0, 1_000, now - 40_000), fix(0, 1_200, now + 30_000)], now });
    if (!p.ok) throw new Error('no prediction');
    expect(p.at).toBe(now);
    for (const s of p.stops) expect(s.arrivalAt).toBeGreaterThanOrEqual(now);
  });

  it('holds a waiting bus to its planned departure from its last fix until that departure passes', () => {
    const fixes = [fix(0, 0, T0 - 5 * MIN)];
    const waiting = trip({ minutes: 20, actualDepartureAt: null, delayMinutes: null });
    const a = predictTrip({ trip: waiting, routeStops: stops, fixes, now: T0 - 4 * MIN });
    const b = predictTrip({ trip: waiting, routeStops: stops, fixes, now: T0 - MIN });
    if (!a.ok || !b.ok) throw new Error('no prediction');
    expect(b).toEqual(a);
    expect(a.validUntil).toBe(T0);
    const late = predictTrip({ trip: waiting, routeStops: stops, fixes, now: T0 + MIN });
    if (!late.ok) throw new Error('no prediction');
    expect(late.basis).toBe('planned-departure');
    expect(late.stops[0]!.arrivalAt).toBe(T0 + MIN);
  });

  it('says why it cannot predict', () => {
    expect(predictTrip({ trip: trip({ direction: 'sideways' }), routeStops: stops, fixes: [], now: T0 })).toEqual({ ok: false, reason: 'no-path' });
    expect(predictTrip({ trip: trip({ plannedArrivalAt: null }), routeStops: stops, fixes: [], now: T0 })).toEqual({ ok: false, reason: 'no-schedule' });
  });
});
