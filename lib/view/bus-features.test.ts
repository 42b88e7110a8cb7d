import { describe, expect, it } from 'vitest';
import { busCollections, busPoints } from './bus-features';
import { RecentFixes, placeBuses, type PlaceOptions } from '@/lib/placement/bus-placement';
import { makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { Vehicle } from '@/lib/model';

const place = (vehicles: Vehicle[], over: Partial<PlaceOptions> = {}) => {
  const recent = new RecentFixes();
  recent.record(vehicles);
  return placeBuses(vehicles, { mode: 'estimates', stopsByRoute: new Map(), recent, now: T0, staleAfterS: 120, ...over });
};

describe('busPoints', () => {
  it('draws only buses the placement places: without a route to estimate along, a readable fix', () => {
    const points = busPoints(
      place([makeVehicle({ busId: 1 }), makeVehicle({ busId: 2, lat: null, lon: null }), makeVehicle({ busId: 3, lat: Number.NaN }), makeVehicle({ busId: 4, lat: 95 })]),
      T0,
    );
    expect(points.map((p) => p.busId)).toEqual([1]);
    expect(points[0]!.position).toEqual([-73.98, 40.75]);
    expect(points[0]!.properties.basis).toBe('fix');
  });

  it('classes buses by their trip delay, and `none` without a trip', () => {
    const points = busPoints(
      place([
        makeVehicle({ busId: 1, trip: makeTrip({ delayMinutes: 9 }) }),
        makeVehicle({ busId: 2, trip: makeTrip({ delayMinutes: -3 }) }),
        makeVehicle({ busId: 3, trip: makeTrip({ delayMinutes: null }) }),
        makeVehicle({ busId: 4, trip: null, busName: 'Depot 4' }),
      ]),
      T0,
    );
    expect(points.map((p) => p.properties.cls)).toEqual(['late', 'early', 'unknown', 'none']);
    expect(points.map((p) => p.properties.label)).toEqual(['M15', 'M15', 'M15', 'Depot 4']);
  });

  it('marks fixes older than the threshold, or of unknown age, as stale', () => {
    const points = busPoints(place([makeVehicle({ busId: 1, gpsAt: T0 - 30_000 }), makeVehicle({ busId: 2, gpsAt: T0 - 121_000 }), makeVehicle({ busId: 3, gpsAt: null })]), T0);
    expect(points.map((p) => p.properties.stale)).toEqual([false, true, true]);
  });

  it('normalises headings and flags unknown ones', () => {
    const points = busPoints(place([makeVehicle({ busId: 1, heading: -90 }), makeVehicle({ busId: 2, heading: null })]), T0);
    expect(points[0]!.properties).toMatchObject({ heading: 270, hasHeading: true });
    expect(points[1]!.properties).toMatchObject({ hasHeading: false });
  });
});

describe('busCollections', () => {
  const points = busPoints(place([makeVehicle({ busId: 1 }), makeVehicle({ busId: 2, lon: -73.9 })]), T0);

  it('keeps the selected bus out of the clustered collection, with bus ids as feature ids', () => {
    const { clustered, selected } = busCollections(points, 2);
    expect(clustered.features.map((f) => f.id)).toEqual([1]);
    expect(selected.features.map((f) => f.id)).toEqual([2]);
    expect(clustered.features[0]!.geometry.coordinates).toEqual([-73.98, 40.75]);
  });
});
