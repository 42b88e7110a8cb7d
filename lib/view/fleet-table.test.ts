import { describe, expect, it } from 'vitest';
import type { Bus, Route } from '@/lib/model';
import { parseCsv } from '@/lib/csv/csv';
import {
  filterFleet,
  fleetCells,
  fleetCounts,
  fleetCsv,
  fleetHeader,
  fleetRows,
  gpsAgeCell,
  gpsHealthAt,
  NO_FLEET_FILTERS,
  parseFleetUrl,
  serializeFleetUrl,
  sortFleet,
  type FleetRow,
} from './fleet-table';
import { makeBus, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { formatAgo } from './format';

const STALE_AFTER_S = 120;
const ctx = { now: T0, staleAfterS: STALE_AFTER_S };

const ROUTES: Route[] = [{ id: 10, name: 'First Av', code: 'M15', startName: null, endName: null, distanceEstimate: null, durationEstimate: null, status: 'active' }];

function rowsOf(buses: Bus[], vehicles = [makeVehicle()], unpositionedTrips = [makeUnpositionedTrip()]) {
  return fleetRows(buses, { vehicles, unpositionedTrips }, ROUTES, { recorded: false }, ctx);
}

describe('fleet rows', () => {
  it('lists every bus of the list, on a trip or not, with the GPS health of each', () => {
    const rows = rowsOf(
      [
        makeBus({ id: 1, lastGpsAt: T0 - 60_000 }),
        makeBus({ id: 2, plateNumber: 'BX-2', lastGpsAt: T0 - 600_000 }),
        makeBus({ id: 3, plateNumber: 'BX-3', lastGpsAt: T0 - 30_000 }),
        makeBus({ id: 4, plateNumber: 'BX-4', lastGpsAt: null, currentRouteId: 10 }),
        makeBus({ id: 5, plateNumber: 'BX-5', lastGpsAt: null }),
        makeBus({ id: 6, plateNumber: 'BX-6', lastGpsAt: T0 - 20_000 }),
        makeBus({ id: 7, plateNumber: 'BX-7', lastGpsAt: null }),
      ],
      [
        makeVehicle({ busId: 1, gpsAt: T0 - 10_000 }),
        makeVehicle({ busId: 2, gpsAt: T0 - 600_000, trip: null }),
        makeVehicle({ busId: 3, lat: null, lon: null, gpsAt: null, trip: null }),
        makeVehicle({ busId: 5, lat: 40.7, lon: -73.9, gpsAt: null, trip: null }),
        // Listed with a recent GPS time, its location not asked yet: judged by the list's time.
        makeVehicle({ busId: 6, lat: null, lon: null, gpsAt: null, fetchedAt: null, trip: null }),
      ],
      [makeUnpositionedTrip({ busId: 4, tripId: 77, routeCode: 'M101' })],
    );
    expect(rows.map((r) => [r.busId, r.gpsHealth])).toEqual([
      [1, 'fresh'],
      [2, 'stale'],
      [3, 'no-fix'],
      [4, 'never'],
      // A position without a GPS time has no age: nothing looks fresh without proof.
      [5, 'stale'],
      [6, 'fresh'],
      [7, 'never'],
    ]);
    // The newest GPS time of the list and the fix.
    expect(rows[0]!.lastGpsAt).toBe(T0 - 10_000);
    expect(gpsAgeCell(rows[0]!, { now: T0 })).toBe(formatAgo(10));
    expect(rows[0]!.trip?.tripId).toBe(1);
    expect(rows[3]!.trip?.tripId).toBe(77);
    expect(rows[3]!.routeCode).toBe('M101');
    expect(fleetCounts(rows)).toEqual({ buses: 7, onTrip: 2, gps: { fresh: 2, stale: 2, 'no-fix': 1, never: 2 } });
  });

  it('reads a row built earlier at a later time: its age moves, and only fresh turns stale', () => {
    const rows = rowsOf(
      [makeBus({ id: 1, lastGpsAt: T0 - 10_000 }), makeBus({ id: 2, plateNumber: 'BX-2', lastGpsAt: T0 - 600_000 }), makeBus({ id: 3, plateNumber: 'BX-3', lastGpsAt: null })],
      [makeVehicle({ busId: 1, gpsAt: T0 - 10_000 })],
      [],
    );
    const [fresh, stale, never] = rows;
    expect([fresh!.gpsHealth, stale!.gpsHealth, never!.gpsHealth]).toEqual(['fresh', 'stale', 'never']);
    // Fresh up to STALE_AFTER_S of age (110 s after T0 it is 120 s old), stale after.
    expect(gpsHealthAt(fresh!, T0 + 110_000, STALE_AFTER_S)).toBe('fresh');
    expect(gpsHealthAt(fresh!, T0 + 111_000, STALE_AFTER_S)).toBe('stale');
    expect(gpsHealthAt(stale!, T0 + 111_000, STALE_AFTER_S)).toBe('stale');
    expect(gpsHealthAt(never!, T0 + 111_000, STALE_AFTER_S)).toBe('never');
    // The cells say the same at the time they are read, not the time the rows were built.
    const later = { zone: 'UTC', now: T0 + 111_000, staleAfterS: STALE_AFTER_S };
    const cells = fleetCells(fresh!, later);
    const header = fleetHeader();
    expect(cells[header.indexOf('GPS')]).toBe('Stale');
    expect(cells[header.indexOf('GPS age')]).toBe(formatAgo(121));
  });

  it("names the assigned route of a bus off trips from the route list", () => {
    const [row] = rowsOf([makeBus({ id: 9, currentRouteId: 10 })], [], []);
    expect(row!.routeCode).toBe('M15');
    expect(row!.trip).toBeNull();
  });

  it('says honestly whether history knows the last trip', () => {
    const buses = [makeBus({ id: 1 }), makeBus({ id: 2 }), makeBus({ id: 3 })];
    const vehicles = [makeVehicle({ busId: 1 })];
    const history = { recorded: true as const, byBus: { '2': { tripId: 5, routeCode: 'M15', lastSeenAt: T0 - 3_600_000 } } };
    const rows = fleetRows(buses, { vehicles, unpositionedTrips: [] }, ROUTES, history, ctx);
    expect(rows.map((r) => r.lastTrip.kind)).toEqual(['now', 'recorded', 'none-recorded']);
    expect(fleetRows(buses, null, [], { recorded: false }, ctx).map((r) => r.lastTrip.kind)).toEqual(['not-recorded', 'not-recorded', 'not-recorded']);
    expect(fleetRows(buses, null, [], 'unavailable', ctx)[0]!.lastTrip.kind).toBe('unavailable');
  });
});

describe('search, filters and sort', () => {
  const rows = rowsOf(
    [
      makeBus({ id: 1, plateNumber: 'B-10', lastGpsAt: T0 - 5_000, year: 2018 }),
      makeBus({ id: 2, plateNumber: 'B-9', status: 'maintenance', year: null }),
      makeBus({ id: 3, plateNumber: null, busName: 'Spare', lastGpsAt: T0 - 999_000, year: 2021 }),
    ],
    [makeVehicle({ busId: 1, gpsAt: T0 - 5_000 }), makeVehicle({ busId: 3, gpsAt: T0 - 999_000, trip: null })],
    [],
  );

  it('searches plate, name, code, route and ids', () => {
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, query: 'spare' }).map((r) => r.busId)).toEqual([3]);
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, query: 'm15' }).map((r) => r.busId)).toEqual([1]);
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, query: '#2' }).map((r) => r.busId)).toEqual([2]);
  });

  it('filters by GPS health, raw status and trip', () => {
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, gps: ['stale', 'never'] }).map((r) => r.busId)).toEqual([2, 3]);
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, status: 'maintenance' }).map((r) => r.busId)).toEqual([2]);
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, onTrip: 'on' }).map((r) => r.busId)).toEqual([1]);
    expect(filterFleet(rows, { ...NO_FLEET_FILTERS, onTrip: 'off' }).map((r) => r.busId)).toEqual([2, 3]);
  });

  it('sorts naturally, missing values last in both directions', () => {
    const ids = (r: FleetRow[]) => r.map((x) => x.busId);
    expect(ids(sortFleet(rows, 'plate', 'asc'))).toEqual([2, 1, 3]);
    expect(ids(sortFleet(rows, 'plate', 'desc'))).toEqual([1, 2, 3]);
    expect(ids(sortFleet(rows, 'year', 'desc'))).toEqual([3, 1, 2]);
    expect(ids(sortFleet(rows, 'gpsHealth', 'asc'))).toEqual([1, 3, 2]);
  });
});

describe('the URL and the CSV', () => {
  it('keeps the state in the URL and drops what it cannot read', () => {
    const state = { filters: { query: 'M15', gps: ['never' as const, 'stale' as const], status: 'active', onTrip: 'off' as const }, sort: 'gpsAt' as const, dir: 'desc' as const };
    const qs = serializeFleetUrl(state);
    expect(qs).toBe('q=M15&gps=stale%2Cnever&status=active&trip=off&sort=gpsAt&dir=desc');
    expect(parseFleetUrl(new URLSearchParams(qs))).toEqual({ ...state, filters: { ...state.filters, gps: ['stale', 'never'] } });
    expect(parseFleetUrl(new URLSearchParams('sort=nope&gps=bad,fresh&trip=maybe'))).toEqual({ filters: { ...NO_FLEET_FILTERS, gps: ['fresh'] }, sort: 'plate', dir: 'asc' });
    expect(serializeFleetUrl(parseFleetUrl(new URLSearchParams('')))).toBe('');
  });

  it('writes the rows as the table shows them', () => {
    const rows = rowsOf([makeBus({ id: 1, busName: 'Bus "one", first', lastGpsAt: T0 - 5_000 })]);
    const cell = { zone: 'UTC', now: T0, staleAfterS: STALE_AFTER_S };
    const csv = fleetCsv(rows, { ...cell, dataAt: T0, exportedAt: T0 + 1, zoneName: 'UTC', state: { filters: NO_FLEET_FILTERS, sort: 'plate', dir: 'asc' } });
    const lines = parseCsv(csv).filter((l) => !l[0]!.startsWith('#'));
    expect(lines[0]).toEqual(fleetHeader());
    expect(lines[1]).toEqual(fleetCells(rows[0]!, cell));
    expect(lines[1]).toContain('Bus "one", first');
    expect(lines[1]).toContain('on a trip now');
  });
});
