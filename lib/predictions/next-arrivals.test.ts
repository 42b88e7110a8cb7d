import { describe, expect, it } from 'vitest';
import type { HeadwayBus, HeadwaysResponse } from '@/lib/model';
import type { TripPredictions } from '@/lib/model/predictions';
import { withNextArrivals } from './next-arrivals';

const T0 = Date.parse('2026-03-04T17:00:00Z');

const bus = (tripId: number): HeadwayBus => ({ busId: tripId + 100, tripId, label: `Bus ${tripId}`, delayMinutes: 0, delayClass: 'on-time', basis: 'fix', stale: false, gpsAt: T0, progressM: 100, motion: null, scheduledM: null, layover: null, plannedDepartureAt: T0 - 60_000 });

function answer(): HeadwaysResponse {
  return {
    at: T0,
    epoch: 'e',
    version: 3,
    config: { ghostAfterS: 300, bunchedRatio: 0.5, gappedRatio: 1.5 } as HeadwaysResponse['config'],
    routes: [{ routeId: 10, routeCode: 'M15', routeName: 'First Av', directions: [{ direction: 'outbound', buses: [bus(1), bus(2)], layover: [bus(3)], offLine: [] }] }] as unknown as HeadwaysResponse['routes'],
    unknownRoutes: [],
  };
}

function predictions(tripId: number, stops: TripPredictions['stops']): TripPredictions {
  return { tripId, routeId: 10, routeCode: 'M15', routeName: 'First Av', direction: 'outbound', headsign: null, busId: null, busName: null, basis: 'gps', scheduleReason: null, note: '', delayMinutes: 0, plannedDepartureAt: null, at: T0, stops };
}

const stop = (stopId: number, k: number) => ({ stopId, stopName: `Stop ${stopId}`, stopOrder: k, lat: 40.7, lon: -74, alongM: 100 * k, arrivalAt: T0 + k * 60_000, earliestAt: T0 + k * 50_000, latestAt: T0 + k * 80_000, plannedAt: null });

describe('withNextArrivals', () => {
  it("gives each bus its trip's next stop and predicted arrival, and null to a trip without predictions or stops left", () => {
    const original = answer();
    const trips = new Map([
      [1, predictions(1, [stop(501, 1), stop(502, 2)])],
      [3, predictions(3, [])],
    ]);
    const out = withNextArrivals(original, trips);
    const d = out.routes[0]!.directions[0]!;
    expect(d.buses[0]!.next).toEqual({ stopId: 501, stopName: 'Stop 501', arrivalAt: T0 + 60_000, earliestAt: T0 + 50_000, latestAt: T0 + 80_000, basis: 'gps' });
    expect(d.buses[1]!.next).toBeNull();
    expect(d.layover[0]!.next).toBeNull();
    // The headways service's answer is left as it was (every viewer of the version may share it).
    expect(original.routes[0]!.directions[0]!.buses[0]!.next).toBeUndefined();
  });
});
