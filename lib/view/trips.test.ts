import { describe, expect, it } from 'vitest';
import type { LiveSnapshot, Vehicle } from '@/lib/model';
import { busPoints } from './bus-features';
import { RecentFixes, placeBuses } from '@/lib/placement/bus-placement';
import { mostDelayedTrips, filterBoardTrips, NO_TRIP_FILTER } from './delays';
import { makeSnapshot, makeTrip, makeVehicle, T0, trip } from '@/lib/testing/view-factories';
import { filterTrips as filterListTrips, NO_FILTERS, sortTrips, tripAgeS } from './trip-list';
import { activeTrips, routeKey, tripMatchesRouteToken } from './trips';
import { wallView } from './wall-view';

function vehicle(busId: number, over: Partial<Vehicle> = {}): Vehicle {
  return {
    busId,
    plateNumber: `P${busId}`,
    busName: null,
    internalCode: null,
    lat: 40.7,
    lon: -73.9,
    heading: null,
    speedKmh: null,
    accuracy: null,
    gpsAt: null,
    fetchedAt: null,
    trip: null,
    ...over,
  };
}

describe('activeTrips', () => {
  it('takes trips from vehicles and unpositioned trips, once each', () => {
    const { busId: _b, plateNumber: _p, busName: _n, internalCode: _i, positioned: _x, gpsAt: _g, ...t1 } = trip({ tripId: 1 });
    const snap: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'> = {
      vehicles: [vehicle(10, { trip: t1 }), vehicle(11), vehicle(12, { lat: null, lon: null, trip: { ...t1, tripId: 2 } })],
      unpositionedTrips: [
        { ...t1, tripId: 3, busId: null, plateNumber: null, busName: null },
        { ...t1, tripId: 1, busId: 10, plateNumber: 'P10', busName: null },
      ],
    };
    const trips = activeTrips(snap);
    expect(trips.map((t) => [t.tripId, t.busId, t.positioned])).toEqual([
      [1, 10, true],
      [2, 12, false],
      [3, null, false],
    ]);
  });
  it('works with no positions at all (Standard plan)', () => {
    const { busId: _b, plateNumber: _p, busName: _n, internalCode: _i, positioned: _x, gpsAt: _g, ...t } = trip({ tripId: 9 });
    const trips = activeTrips({ vehicles: [], unpositionedTrips: [{ ...t, busId: 4, plateNumber: null, busName: null }] });
    expect(trips).toHaveLength(1);
  });
});

describe('route tokens', () => {
  it('match codes case-insensitively and ids exactly', () => {
    const t = { routeId: 15, routeCode: 'M15' };
    expect(tripMatchesRouteToken(t, 'm15')).toBe(true);
    expect(tripMatchesRouteToken(t, '15')).toBe(true);
    expect(tripMatchesRouteToken(t, '1')).toBe(false);
    expect(tripMatchesRouteToken(t, ' ')).toBe(false);
    expect(tripMatchesRouteToken({ routeId: null, routeCode: null }, 'M15')).toBe(false);
    expect(routeKey({ routeId: null, routeCode: null })).toBe('none');
  });
});

describe('one projection for every view', () => {
  // Buses on active trips whose positions cannot be read: not a number, out of range, missing.
  const snapshot = makeSnapshot({
    vehicles: [
      makeVehicle({ busId: 1, trip: makeTrip({ tripId: 11, delayMinutes: 9 }) }),
      makeVehicle({ busId: 2, lat: Number.NaN, trip: makeTrip({ tripId: 12, delayMinutes: 8 }) }),
      makeVehicle({ busId: 3, lon: 200, trip: makeTrip({ tripId: 13, delayMinutes: 7 }) }),
      makeVehicle({ busId: 4, lat: null, lon: null, trip: makeTrip({ tripId: 14, delayMinutes: 6 }) }),
    ],
  });
  const positions = (trips: readonly { tripId: number; positioned: boolean }[]) => trips.map((t) => [t.tripId, t.positioned]);
  const expected = [
    [11, true],
    [12, false],
    [13, false],
    [14, false],
  ];

  it('the delay board and the dispatcher agree about a bus with a bad position', () => {
    // The delay board: its trips and its most-delayed list ("no position" beside a trip).
    const board = mostDelayedTrips(filterBoardTrips(activeTrips(snapshot), NO_TRIP_FILTER), 10);
    // The dispatcher: its list, sorted by delay ("no position" in the row), and its "stale only" filter.
    const list = sortTrips(filterListTrips(activeTrips(snapshot), NO_FILTERS, { now: T0, staleAfterS: 120 }).rows, 'delay', T0);
    expect(positions(board)).toEqual(expected);
    expect(positions(list)).toEqual(expected);
    expect(list.map((t) => tripAgeS(t, T0))).toEqual([10, null, null, null]);
    const staleOnly = filterListTrips(activeTrips(snapshot), { ...NO_FILTERS, staleOnly: true }, { now: T0, staleAfterS: 120 });
    expect(staleOnly.rows.map((t) => t.tripId)).toEqual([12, 13, 14]);
  });

  it('the wall counts the same trips, and the map draws exactly the positioned buses', () => {
    const wall = wallView(snapshot, { routes: [], rotateS: null }, T0);
    expect(positions(wall.trips)).toEqual(expected);
    const recent = new RecentFixes();
    recent.record(snapshot.vehicles);
    expect(busPoints(placeBuses(snapshot.vehicles, { mode: 'fixes', stopsByRoute: new Map(), recent, now: T0, staleAfterS: 120 }), T0).map((p) => p.busId)).toEqual([1]);
  });
});
