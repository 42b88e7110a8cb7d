import { describe, expect, it } from 'vitest';
import type { Vehicle } from '@/lib/model';
import type { TripPredictions } from '@/lib/model/predictions';
import { makeVehicle, T0 } from '@/lib/testing/view-factories';
import { tripUpdates, vehiclePositions, type FeedSource } from './build';
import { EntityCache } from './cache';
import { encodeEntities } from './encode';
import { DEFAULT_IDS, gtfsIds } from './ids';

const BUSES = 40;
const ids = gtfsIds(DEFAULT_IDS);
const NY = { kind: 'zone' as const, zone: 'America/New_York' };

function bus(i: number, at: number): Vehicle {
  const base = makeVehicle();
  return makeVehicle({ busId: i, busName: `Bus ${i}`, plateNumber: `NY-${i}`, gpsAt: at - (i % 30) * 1000, heading: (i * 37) % 360, trip: { ...base.trip!, tripId: 1000 + i, routeId: 1 + (i % 5), direction: i % 2 ? 'outbound' : 'inbound' } });
}

function predictionsOf(i: number, at: number): TripPredictions {
  return {
    tripId: 1000 + i,
    routeId: 1 + (i % 5),
    routeCode: 'M15',
    routeName: 'First Av',
    direction: i % 2 ? 'outbound' : 'inbound',
    headsign: 'South Ferry',
    busId: i,
    busName: `Bus ${i}`,
    basis: 'gps',
    scheduleReason: null,
    note: '',
    delayMinutes: i % 4,
    plannedDepartureAt: T0 - 20 * 60_000,
    at,
    stops: Array.from({ length: 4 }, (_, k) => ({ stopId: 100 + i * 10 + k, stopName: `S${k}`, stopOrder: k + 3, lat: 40.75, lon: -73.98, alongM: 300 * k, arrivalAt: at + (k + 1) * 90_000, earliestAt: at + (k + 1) * 80_000, latestAt: at + (k + 1) * 110_000, plannedAt: null })),
  };
}

/** A snapshot version: every object new, as the app makes them (a deep copy of the previous where nothing changed). */
function version(vehicles: Vehicle[], predictions: TripPredictions[], over: Partial<FeedSource> = {}): FeedSource {
  const copy = <T>(x: T): T => structuredClone(x);
  return { at: T0, vehicles: vehicles.map(copy), predictions: new Map(predictions.map((p) => [p.tripId, copy(p)])), tripDate: () => '2025-06-02', timeRule: NY, ids, ...over };
}

function expectSame(cache: EntityCache, s: FeedSource) {
  const vp = cache.vehiclePositions(s);
  const fresh = vehiclePositions(s);
  expect(Buffer.from(vp.entities).equals(Buffer.from(encodeEntities(fresh.message))), 'vehicle positions').toBe(true);
  expect(vp.leftOut).toBe(fresh.leftOut);
  const tu = cache.tripUpdates(s);
  const freshTu = tripUpdates(s);
  expect(Buffer.from(tu.entities).equals(Buffer.from(encodeEntities(freshTu.message))), 'trip updates').toBe(true);
  expect(tu.leftOut).toBe(freshTu.leftOut);
  return { vp: vp.rebuilt, tu: tu.rebuilt };
}

describe('EntityCache', () => {
  it('gives the fresh build’s bytes, byte for byte, across versions where some buses and trips change', () => {
    const cache = new EntityCache();
    const vehicles = Array.from({ length: BUSES }, (_, i) => bus(i + 1, T0));
    const preds = vehicles.map((v) => predictionsOf(v.busId, T0));
    vehicles.push(makeVehicle({ busId: 99, lat: null, lon: null, gpsAt: null, trip: null }));
    expect(expectSame(cache, version(vehicles, preds))).toEqual({ vp: BUSES, tu: BUSES });

    // Nothing changed (new objects, same values): nothing is built again.
    expect(expectSame(cache, version(vehicles, preds))).toEqual({ vp: 0, tu: 0 });

    // Version 3: bus 1 moves, trip 2's times move, bus 3 changes its plate, trip 4's stop times break, bus 5 breaks its
    // speed rule, trip 6's date and bus 7's next stop change (its trip loses the first stop), bus 8 leaves, bus 50 comes.
    vehicles[0] = { ...vehicles[0]!, lat: 40.76, gpsAt: T0 - 500 };
    preds[1] = predictionsOf(2, T0 + 20_000);
    vehicles[2] = { ...vehicles[2]!, plateNumber: 'NEW-3' };
    preds[3] = { ...preds[3]!, stops: preds[3]!.stops.map((x, k) => (k === 2 ? { ...x, arrivalAt: preds[3]!.stops[1]!.arrivalAt } : x)) };
    vehicles[4] = { ...vehicles[4]!, speedKmh: 200 };
    preds[6] = { ...preds[6]!, stops: preds[6]!.stops.slice(1) };
    vehicles.splice(7, 1);
    preds.splice(7, 1);
    vehicles.push(bus(50, T0));
    preds.push(predictionsOf(50, T0));
    const tripDate = (id: number) => (id === 1006 ? '2025-06-01' : '2025-06-02');
    // Vehicles rebuilt: 1 (moved), 3 (plate), 6 (trip date), 7 (next stop), 50 (new). Trips: 2, 3, 4, 6, 7, 50.
    expect(expectSame(cache, version(vehicles, preds, { tripDate }))).toEqual({ vp: 5, tu: 6 });

    // Bus 5 keeps its broken record; its speed fixed, it is back (and built anew).
    vehicles[4] = { ...vehicles[4]!, speedKmh: 20 };
    expect(expectSame(cache, version(vehicles, preds, { tripDate }))).toEqual({ vp: 1, tu: 0 });

    // Another time rule or other ids: everything again.
    expect(expectSame(cache, version(vehicles, preds, { tripDate, timeRule: { kind: 'offset', minutes: -240 } }))).toEqual({ vp: BUSES, tu: BUSES });
    const prefixed = gtfsIds({ ...DEFAULT_IDS, tripPrefix: 'T:' });
    expect(expectSame(cache, version(vehicles, preds, { tripDate, timeRule: { kind: 'offset', minutes: -240 }, ids: prefixed }))).toEqual({ vp: BUSES, tu: BUSES });
  });

  it('writes an entity the direct writer refuses through the bindings, as the whole message would be', () => {
    const cache = new EntityCache();
    const vehicles = [bus(1, T0), bus(2, T0)];
    const preds = [predictionsOf(1, T0), { ...predictionsOf(2, T0), delayMinutes: 0.01 }].map((p, k) => (k === 1 ? { ...p, stops: p.stops.map((x) => ({ ...x, stopOrder: x.stopOrder + 0.5 })) } : p));
    expectSame(cache, version(vehicles, preds));
    expectSame(cache, version(vehicles, [predictionsOf(1, T0 + 1000), preds[1]!]));
  });
});
