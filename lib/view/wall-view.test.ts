import { describe, expect, it } from 'vitest';
import type { LiveSnapshot, Vehicle, VehicleTrip } from '@/lib/model';
import { wallView } from './wall-view';

function vtrip(tripId: number, routeId: number, routeCode: string, delayMinutes: number | null): VehicleTrip {
  return {
    tripId,
    routeId,
    routeCode,
    routeName: `${routeCode} name`,
    direction: 'outbound',
    status: 'started',
    delayMinutes,
    delayClass: 'unknown',
    plannedDepartureAt: null,
    plannedArrivalAt: null,
    actualDepartureAt: null,
    actualArrivalAt: null,
  };
}

function bus(busId: number, trip: VehicleTrip | null): Vehicle {
  return { busId, plateNumber: null, busName: null, internalCode: null, lat: 40.7, lon: -74, heading: null, speedKmh: null, accuracy: null, gpsAt: null, fetchedAt: null, trip };
}

const snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'thresholds'> = {
  vehicles: [bus(1, vtrip(11, 15, 'M15', 9)), bus(2, vtrip(12, 101, 'M101', 2)), bus(3, null), bus(4, vtrip(14, 15, 'M15', -3))],
  unpositionedTrips: [{ ...vtrip(13, 7, 'M7', 12), busId: 5, plateNumber: null, busName: null }],
  thresholds: { lateMin: 5, earlyMin: 1 },
};

describe('wallView', () => {
  it('shows the whole network by default, buses between trips included', () => {
    const v = wallView(snapshot, { routes: [], rotateS: null }, 0);
    expect(v.routes.map((r) => r.label)).toEqual(['M7', 'M15', 'M101']);
    expect(v.vehicles).toHaveLength(4);
    expect(v.figures).toMatchObject({ activeTrips: 4, late: 2, early: 1, onTime: 1 });
    expect(v.worst.map((t) => t.tripId)).toEqual([13, 11, 12]);
    expect(v.current).toBeNull();
  });
  it('limits buses and figures to the requested routes, by code or id', () => {
    const v = wallView(snapshot, { routes: ['m15', '101', 'M99'], rotateS: null }, 0);
    expect(v.routes.map((r) => r.label)).toEqual(['M15', 'M101']);
    expect(v.vehicles.map((b) => b.busId)).toEqual([1, 2, 4]);
    expect(v.figures.activeTrips).toBe(3);
    expect(v.idleRoutes).toEqual(['M99']);
  });
  it('rotates through the routes in scope, one at a time', () => {
    const opts = { routes: ['M15', 'M101'], rotateS: 30 };
    const first = wallView(snapshot, opts, 0);
    expect(first.current?.label).toBe('M15');
    expect(first.rotation).toEqual({ index: 0, count: 2 });
    expect(first.vehicles.map((b) => b.busId)).toEqual([1, 4]);
    expect(first.figures).toMatchObject({ activeTrips: 2, worstMin: 9 });
    const second = wallView(snapshot, opts, 30_000);
    expect(second.current?.label).toBe('M101');
    expect(second.vehicles.map((b) => b.busId)).toEqual([2]);
  });
});
