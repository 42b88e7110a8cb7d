import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULARITY, type Vehicle } from '@/lib/model';
import { makeSnapshot, makeUnpositionedTrip, T0 } from '@/lib/testing/view-factories';
import { headwayClass, PACE_MIN_SPAN_MS } from './headways';
import { LiveHeadways } from './live';
import { bus, MIN, network, ROUTE, STOPS } from '@/lib/testing/regularity-factories';

const headways = () => new LiveHeadways({ staleAfterS: 120, config: DEFAULT_REGULARITY });

describe('headwayClass', () => {
  it('is bunched at or below the bunched ratio, gapped at or above the gapped ratio', () => {
    const c = { bunchedRatio: 0.5, gappedRatio: 1.5 };
    expect([0.2, 0.5, 0.51, 1, 1.49, 1.5, 3, null, Infinity].map((r) => headwayClass(r, c))).toEqual([
      'bunched',
      'bunched',
      'regular',
      'regular',
      'regular',
      'gapped',
      'gapped',
      'unknown',
      'unknown',
    ]);
  });
});

describe('live headways', () => {
  it('orders a direction’s buses by progress and measures each follower’s time to its leader’s place', () => {
    // Each bus seen once, now; bus 3 left just now and bus 2's actual departure is not given: no recent pace.
    const second = bus(2, 1400, 3);
    second.trip = { ...second.trip!, actualDepartureAt: null };
    const snapshot = makeSnapshot({ vehicles: [bus(3, 200, 0), bus(1, 1500, 6), second] });
    const [route] = headways().update(snapshot, network(STOPS), T0);
    expect(route).toMatchObject({ routeId: ROUTE, routeCode: 'M15', routeName: 'First Av' });
    const [out, inbound] = route!.directions;
    expect(out!.direction).toBe('outbound');
    expect(out!.stops.map((s) => Math.round(s.m))).toEqual([0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000]);
    expect(out!.buses.map((b) => [b.busId, Math.round(b.progressM!)])).toEqual([
      [1, 1500],
      [2, 1400],
      [3, 200],
    ]);
    // 2 km in 10 planned minutes: 3.33 m/s. 100 m behind is 30 s where the timetable says 180 s: bunched;
    // 1,200 m is 360 s where it says 180 s: gapped.
    expect(out!.gaps.map((g) => [g.leaderTripId, g.followerTripId, Math.round(g.headwayS), g.scheduledS, g.paceSource, g.cls])).toEqual([
      [101, 102, 30, 180, 'scheduled', 'bunched'],
      [102, 103, 360, 180, 'scheduled', 'gapped'],
    ]);
    expect(out!.buses[0]).toMatchObject({ basis: 'gps-estimate', label: '#1', stale: false, delayClass: 'on-time', layover: null });
    expect(inbound!.direction).toBe('inbound');
    expect(inbound!.buses).toEqual([]);
    expect(inbound!.toward).toBe('Stop 18');
  });

  it('takes the follower’s recent pace once it has been seen over a few minutes', () => {
    const live = headways();
    // Bus 2 left its first stop 250 s before it was seen at 500 m (2 m/s), then went 360 m in 3 minutes: 2 m/s all
    // along, slower than planned.
    const departed = 3 + 250 / 60;
    const first = makeSnapshot({ vehicles: [bus(1, 1500, 6, {}, T0 - 3 * MIN), bus(2, 500, departed, {}, T0 - 3 * MIN)] });
    live.update(first, network(STOPS), T0 - 3 * MIN);
    const now = T0 - 3 * MIN + PACE_MIN_SPAN_MS + MIN;
    const second = makeSnapshot({ vehicles: [bus(1, 1900, 6, {}, now), bus(2, 860, departed, {}, now)] });
    const [route] = live.update(second, network(STOPS), now);
    const gap = route!.directions[0]!.gaps[0]!;
    expect(gap.paceSource).toBe('recent');
    expect(gap.paceMps).toBeCloseTo(2, 1);
    expect(gap.headwayS).toBeCloseTo((1900 - 860) / 2, -1);
  });

  it('counts the follower’s pace from its trip’s departure when it was seen only since', () => {
    // Bus 2 left its first stop 4 minutes ago and was located once, now, at 600 m: 2.5 m/s since it left (its
    // fixes alone span nothing; the planned pace is 3.33 m/s).
    const [route] = headways().update(makeSnapshot({ vehicles: [bus(1, 1500, 6), bus(2, 600, 4)] }), network(STOPS), T0);
    const gap = route!.directions[0]!.gaps[0]!;
    expect(gap.paceSource).toBe('recent');
    expect(gap.paceMps).toBeCloseTo(2.5, 2);
    expect(gap.headwayS).toBeCloseTo(900 / 2.5, 0);
  });

  it('has no recent pace from the departure alone, with no fix of the bus on the trip', () => {
    // Bus 2 has no fix: placed by its schedule, four of ten planned minutes along (800 m).
    const unseen = bus(2, 0, 4, { lat: null, lon: null, gpsAt: null });
    const [route] = headways().update(makeSnapshot({ vehicles: [bus(1, 1500, 6), unseen] }), network(STOPS), T0);
    const gap = route!.directions[0]!.gaps[0]!;
    expect(gap).toMatchObject({ followerTripId: 102, paceSource: 'scheduled' });
    expect(gap.paceMps).toBeCloseTo(2000 / 600, 2);
  });

  it('places each bus where its estimate has it now, also when the placement is reused from an earlier snapshot', () => {
    const live = headways();
    const snapshot = makeSnapshot({ vehicles: [bus(1, 1500, 6), bus(2, 600, 3)] });
    // One network object: a new one would empty the placement cache.
    const net = network(STOPS);
    const at = (now: number) => live.update(snapshot, net, now)[0]!.directions[0]!;
    const before = at(T0);
    // Nothing changed in the snapshot: both placements come from the cache, made at T0.
    const later = at(T0 + 30_000);
    for (const id of [1, 2]) {
      const b0 = before.buses.find((b) => b.busId === id)!;
      const b1 = later.buses.find((b) => b.busId === id)!;
      expect(b1.motion).not.toBeNull();
      // 30 s further along its motion, as the map moves it.
      expect(b1.progressM!).toBeCloseTo(Math.min(b1.motion!.toM, b0.progressM! + 30 * b1.motion!.speedMps), 0);
      expect(b1.progressM!).toBeGreaterThan(b0.progressM!);
    }
  });

  it('keeps ghosts out of the order, at their scheduled place, and buses at a terminal in its layover', () => {
    // Asked just now, its fix 6 minutes old: a ghost.
    const ghost = bus(4, 1000, 5, { fetchedAt: T0 }, T0 - 6 * MIN);
    const waiting = bus(5, 0, 0, {});
    waiting.trip = { ...waiting.trip!, plannedDepartureAt: T0 + 4 * MIN, plannedArrivalAt: T0 + 14 * MIN, actualDepartureAt: null, delayMinutes: null, delayClass: 'unknown' };
    const snapshot = makeSnapshot({
      vehicles: [bus(1, 1500, 6), ghost, bus(3, 200, 1), waiting],
      unpositionedTrips: [makeUnpositionedTrip({ tripId: 150, busId: null, routeId: ROUTE, direction: 'outbound', plannedDepartureAt: T0 - 4 * MIN, plannedArrivalAt: T0 + 6 * MIN, actualDepartureAt: null, delayMinutes: 0 })],
    });
    const out = headways().update(snapshot, network(STOPS), T0)[0]!.directions[0]!;
    expect(out.buses.map((b) => b.busId)).toEqual([1, 3]);
    expect(out.ghosts.map((g) => [g.tripId, g.reason, Math.round(g.scheduledM!)])).toEqual([
      [104, 'not-located', 1000],
      [150, 'no-bus', 800],
    ]);
    expect(out.layover.map((b) => [b.busId, b.layover])).toEqual([[5, 'start']]);
  });

  it('joins a late bus to its place in the timetable', () => {
    const late = bus(1, 700, 6);
    late.trip = { ...late.trip!, delayMinutes: 3, delayClass: 'on-time' };
    const b = headways().update(makeSnapshot({ vehicles: [late] }), network(STOPS), T0)[0]!.directions[0]!.buses[0]!;
    expect(Math.round(b.progressM!)).toBe(700);
    // Six of ten planned minutes: 1,200 m.
    expect(Math.round(b.scheduledM!)).toBe(1200);
  });

  it('places every bus from its schedule with a key that reads no locations, marked as such', () => {
    const noGps = (v: Vehicle): Vehicle => ({ ...v, lat: null, lon: null, gpsAt: null });
    const snapshot = makeSnapshot({ vehicles: [noGps(bus(1, 0, 6)), noGps(bus(2, 0, 3))] });
    snapshot.health.locations = false;
    const out = headways().update(snapshot, network(STOPS), T0)[0]!.directions[0]!;
    expect(out.buses.map((b) => [b.busId, b.basis, Math.round(b.progressM!)])).toEqual([
      [1, 'schedule-estimate', 1200],
      [2, 'schedule-estimate', 600],
    ]);
    expect(out.ghosts).toEqual([]);
    expect(out.gaps[0]).toMatchObject({ cls: 'regular', scheduledS: 180 });
  });
});
