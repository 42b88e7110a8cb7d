import { describe, expect, it } from 'vitest';
import type { LiveSnapshot, Vehicle } from '@/lib/model';
import { activeTrips, routeKey, tripMatchesRouteToken } from './trips';
import { trip } from './test-factories';

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
    const { busId: _b, plateNumber: _p, busName: _n, positioned: _x, ...t1 } = trip({ tripId: 1 });
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
    const { busId: _b, plateNumber: _p, busName: _n, positioned: _x, ...t } = trip({ tripId: 9 });
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
