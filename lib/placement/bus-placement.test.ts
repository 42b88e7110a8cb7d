import { describe, expect, it } from 'vitest';
import { at, straightNorth } from '@/lib/testing/estimate-factories';
import { distanceM } from '@/lib/geo/sphere';
import { formatDuration } from '@/lib/view/format';
import { PlacementCache, RecentFixes, basisPhrase, estimateCounts, placeBuses, placementsOf, routeStopsFromNetwork, type PlaceOptions } from './bus-placement';
import { makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { Vehicle } from '@/lib/model';

const MIN = 60_000;
// Route 10 (the factories' trips run on it): 9 stops 250 m apart due north, 2 km; a 60-minute trip.
const stops = straightNorth(9, 250).map((s) => ({ ...s, routeId: 10 }));
const stopsByRoute = new Map([[10, stops]]);
const trip = makeTrip({ plannedDepartureAt: T0 - 30 * MIN, plannedArrivalAt: T0 + 30 * MIN, actualDepartureAt: T0 - 30 * MIN, delayMinutes: 0 });

function place(vehicles: Vehicle[], over: Partial<PlaceOptions> = {}, recent = new RecentFixes()) {
  recent.record(vehicles);
  return placeBuses(vehicles, { mode: 'estimates', stopsByRoute, recent, now: T0, staleAfterS: 120, ...over });
}

const offBy = (p: { lon: number; lat: number }, east: number, north: number) => {
  const [lon, lat] = at(east, north);
  return distanceM(p.lon, p.lat, lon, lat);
};

describe('placeBuses', () => {
  it('places a bus with no fix by its schedule (a Standard-plan key), marked as a schedule estimate', () => {
    const [p] = place([makeVehicle({ lat: null, lon: null, gpsAt: null, trip })]);
    expect(p!.estimate.basis).toBe('schedule-estimate');
    // Half-way through its hour: half-way along the 2 km.
    expect(offBy(p!.estimate, 0, 1000)).toBeLessThan(1);
    expect(p!.stale).toBe(false);
  });

  it('advances a bus from its fixes along its route, and keeps the fix itself in last-fix mode', () => {
    const recent = new RecentFixes();
    const [lon0, lat0] = at(0, 700);
    place([makeVehicle({ lon: lon0, lat: lat0, gpsAt: T0 - 70_000, trip })], {}, recent);
    const [lon1, lat1] = at(0, 900);
    const moved = makeVehicle({ lon: lon1, lat: lat1, gpsAt: T0 - 10_000, trip });
    const [est] = place([moved], {}, recent);
    expect(est!.estimate.basis).toBe('gps-estimate');
    expect(est!.estimate.lat).toBeGreaterThan(lat1);
    const [fix] = place([moved], { mode: 'fixes' }, recent);
    expect(fix!.estimate.basis).toBe('fix');
    expect([fix!.estimate.lon, fix!.estimate.lat]).toEqual([lon1, lat1]);
  });

  it('draws no bus that has neither a fix nor a route to place its schedule on, and keeps a parked bus at its fix', () => {
    const placed = place([makeVehicle({ busId: 1, lat: null, lon: null, trip: { ...trip, routeId: 99 } }), makeVehicle({ busId: 2, trip: null })]);
    expect(placed.map((p) => [p.busId, p.estimate.basis])).toEqual([[2, 'fix']]);
  });

  it('counts estimates by basis, and says what each is', () => {
    const placed = place([makeVehicle({ busId: 1, lat: null, lon: null, trip }), makeVehicle({ busId: 2, trip: null })]);
    expect(estimateCounts(placed)).toEqual({ fix: 1, 'gps-estimate': 0, 'schedule-estimate': 1 });
    expect(basisPhrase({ basis: 'gps-estimate', fix: { lon: 0, lat: 0, gpsAt: T0 - 40_000 } }, T0, formatDuration)).toBe('estimated from a fix 40 s old');
    expect(basisPhrase({ basis: 'schedule-estimate', fix: null }, T0, formatDuration)).toBe('estimated from the schedule');
    expect(basisPhrase({ basis: 'fix', fix: null }, T0, formatDuration)).toBeNull();
  });
});

describe('RecentFixes', () => {
  it('keeps the last three distinct fixes of each bus and forgets buses that leave', () => {
    const r = new RecentFixes();
    for (let i = 0; i < 5; i++) r.record([makeVehicle({ busId: 1, gpsAt: T0 + i * 10_000 }), makeVehicle({ busId: 2, gpsAt: T0 })]);
    expect(r.of(makeVehicle({ busId: 1 })).map((f) => f.gpsAt)).toEqual([T0 + 20_000, T0 + 30_000, T0 + 40_000]);
    expect(r.of(makeVehicle({ busId: 2 })).map((f) => f.gpsAt)).toEqual([T0]);
    r.record([makeVehicle({ busId: 1, gpsAt: T0 + 40_000 })]);
    expect(r.of(makeVehicle({ busId: 2, lat: null, lon: null }))).toEqual([]);
  });

  it('puts a fix older than the newest in its place, and keeps a bus seen without a position', () => {
    const r = new RecentFixes();
    for (const gpsAt of [T0, T0 + 20_000, T0 + 10_000]) r.record([makeVehicle({ busId: 1, gpsAt })]);
    expect(r.of(makeVehicle({ busId: 1 })).map((f) => f.gpsAt)).toEqual([T0, T0 + 10_000, T0 + 20_000]);
    r.record([makeVehicle({ busId: 1, lat: null, lon: null, gpsAt: null })]);
    expect(r.of(makeVehicle({ busId: 1, lat: null, lon: null })).map((f) => f.gpsAt)).toEqual([T0, T0 + 10_000, T0 + 20_000]);
  });
});

describe('placementsOf', () => {
  const vehicles = [1, 2, 3, 4].map((busId) => makeVehicle({ busId, gpsAt: T0, trip }));
  it('pairs each vehicle with its placement, undefined for a bus not placed', () => {
    const placed = place(vehicles).filter((p) => p.busId !== 3);
    expect(placementsOf(vehicles, placed).map((p) => p?.busId)).toEqual([1, 2, undefined, 4]);
  });
  it('finds placements given in another order by bus id', () => {
    const placed = place(vehicles).reverse().filter((p) => p.busId !== 2);
    expect(placementsOf(vehicles, placed).map((p) => p?.busId)).toEqual([1, undefined, 3, 4]);
  });
});

describe('routeStopsFromNetwork', () => {
  it('reads each route\'s stops with their order and flags from the network the map already loads', () => {
    // As lib/fleet/network.ts writes them: a line per route, then a point per stop.
    const features = [
      { type: 'Feature' as const, geometry: { type: 'LineString' as const, coordinates: stops.map((s) => [s.longitude!, s.latitude!] as [number, number]) }, properties: { kind: 'route', routeId: 10 } },
      ...stops.map((s) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: [s.longitude!, s.latitude!] as [number, number] },
        properties: { kind: 'stop', stopId: s.id, routeId: 10, name: s.stopName, stopOrder: s.stopOrder, isStart: s.isStart, isEnd: s.isEnd },
      })),
    ];
    const byRoute = routeStopsFromNetwork({ features });
    expect(byRoute.get(10)!.map((s) => [s.id, s.stopOrder, s.isStart, s.isEnd])).toEqual(stops.map((s) => [s.id, s.stopOrder, s.isStart, s.isEnd]));
    expect(byRoute.get(10)![3]!.latitude).toBeCloseTo(stops[3]!.latitude!, 9);
  });
});

describe('PlacementCache', () => {
  it('reuses the placement of a bus that did not change, and places again one with a new fix, a new delay or new stops', () => {
    const cache = new PlacementCache();
    const recent = new RecentFixes();
    const v = makeVehicle({ lat: null, lon: null, gpsAt: null, trip });
    const [first] = place([v], { cache }, recent);
    const [again] = place([{ ...v }], { cache, now: T0 + 5_000 }, recent);
    expect(again).toBe(first);
    const [late] = place([{ ...v, trip: { ...trip, delayMinutes: 3, delayClass: 'on-time' } }], { cache }, recent);
    expect(late).not.toBe(first);
    const [lon, lat] = at(0, 500);
    const [fixed] = place([{ ...v, lon, lat, gpsAt: T0 - 5_000 }], { cache }, recent);
    expect(fixed!.estimate.basis).toBe('gps-estimate');
    const [otherStops] = place([{ ...v, lon, lat, gpsAt: T0 - 5_000 }], { cache, stopsByRoute: new Map(stopsByRoute) }, recent);
    expect(otherStops).not.toBe(fixed);
  });

  it('places again once the estimate said its basis would change', () => {
    const cache = new PlacementCache();
    // Not departed yet: held at the first stop until two minutes after the planned departure.
    const waiting = makeVehicle({ lat: null, lon: null, gpsAt: null, trip: { ...trip, actualDepartureAt: null, plannedDepartureAt: T0, plannedArrivalAt: T0 + 60 * MIN } });
    const [held] = place([waiting], { cache });
    expect(held!.estimate.validUntil).not.toBeNull();
    const [later] = place([{ ...waiting }], { cache, now: held!.estimate.validUntil! + 1 });
    expect(later).not.toBe(held);
  });
});
