import { describe, expect, it } from 'vitest';
import { routePath } from '@/lib/estimate';
import { MIN, straightNorth, T0 } from '@/lib/testing/estimate-factories';
import { MIN_TRIPS, PaceLearner } from './pace-profile';

// 5 stops 500 m apart; the trips take 20 minutes, but the first 500 m take half of it (a slow street).
const path = routePath(straightNorth(5, 500))!;

function trip(departAt: number) {
  // Passes every 30 s: 500 m in the first 10 min, then 1,500 m in the next 10.
  const points = Array.from({ length: 41 }, (_, i) => {
    const t = i * 30_000;
    const m = t <= 10 * MIN ? (500 * t) / (10 * MIN) : 500 + (1_500 * (t - 10 * MIN)) / (10 * MIN);
    // Scaled to the measured line (the stops' metres carry rounding).
    return { m: (m * path.line.lengthM) / 2_000, t: departAt + t };
  });
  return { routeId: 7, direction: 'outbound', plannedDepartureAt: departAt, plannedArrivalAt: departAt + 20 * MIN, path, points };
}

describe('PaceLearner', () => {
  it('learns how a route spends its time along the path, per hour, once enough trips ran', () => {
    const learner = new PaceLearner((t) => new Date(t).getUTCHours());
    for (let i = 0; i < MIN_TRIPS - 1; i++) learner.add(trip(T0 + i * 10 * MIN));
    expect(learner.profileFor(7, 'outbound', T0, 5)).toBeNull();
    learner.add(trip(T0 + 30 * MIN));
    const profile = learner.profileFor(7, 'outbound', T0, 5)!;
    expect(profile[0]).toBe(0);
    expect(profile[4]).toBeCloseTo(1, 9);
    // Half the time to the second stop, the rest evenly over the other three segments.
    expect(profile[1]).toBeCloseTo(0.5, 1);
    expect(profile[2]! - profile[1]!).toBeCloseTo(profile[4]! - profile[3]!, 1);
    // Another hour with no trips of its own takes the route's profile over all hours; another stop count none.
    expect(learner.profileFor(7, 'outbound', T0 + 5 * 60 * MIN, 5)).toEqual(profile);
    expect(learner.profileFor(7, 'outbound', T0, 6)).toBeNull();
    expect(learner.profileFor(7, 'inbound', T0, 5)).toBeNull();
  });
});
