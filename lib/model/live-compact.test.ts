import { describe, expect, it } from 'vitest';
import { makeSnapshot, makeTrip, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { LiveSnapshot } from './live';
import { applyCompactDelta, decodeCompactFull, encodeCompactDelta, encodeCompactFull, LIVE_COMPACT_SHAPE, type CompactFull } from './live-compact';
import { liveChanges } from './live-delta';
import { decodeRoster, encodeRoster } from './live-roster';

/** Through JSON, as the browser gets it. */
const wire = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A full answer of `s`, its names left to the roster of version `r1`. */
const fullOf = (s: LiveSnapshot, health: Parameters<typeof encodeCompactFull>[2] = null) => wire(encodeCompactFull(s, 'r1', health));
/** A full answer decoded with the roster of `s`, through JSON. */
const decoded = (a: CompactFull, s: LiveSnapshot) => decodeCompactFull(a, decodeRoster(wire(encodeRoster(s.vehicles, 'r1'))));

const snapshot = makeSnapshot({
  generatedAt: T0 + 750,
  vehicles: [
    makeVehicle({ busId: 3, trip: makeTrip({ tripId: 70, delayMinutes: 6 }) }),
    makeVehicle({ busId: 8, plateNumber: null, busName: null, internalCode: null, lat: null, lon: null, heading: null, speedKmh: null, accuracy: null, gpsAt: null, fetchedAt: null, trip: null }),
    makeVehicle({ busId: 12, trip: makeTrip({ tripId: 71, routeId: null, routeCode: null, routeName: null, direction: null, status: null, delayMinutes: null, plannedDepartureAt: null, plannedArrivalAt: T0 + 60_000, actualDepartureAt: T0 - 3_000, actualArrivalAt: T0 + 61_000 }) }),
  ],
  unpositionedTrips: [makeUnpositionedTrip({ tripId: 900 }), makeUnpositionedTrip({ tripId: 905, busId: 44, plateNumber: 'P-44', busName: 'Bus 44', delayMinutes: -2 })],
  fullHealth: undefined,
});

describe('the compact form of /api/live', () => {
  it('decodes a full answer to the very snapshot it was made from (values at the precision it keeps)', () => {
    const a = fullOf(snapshot);
    expect(a.shape).toBe(LIVE_COMPACT_SHAPE);
    expect(a.roster).toBe('r1');
    expect(decoded(a, snapshot)).toEqual(snapshot);
    // The names are the roster's: the answer holds none.
    expect(JSON.stringify(a.v)).not.toMatch(/BX-|1001/);
    // Route names and directions go once into the tables, not once per trip.
    expect(a.r.filter((x) => x === 'M15')).toHaveLength(1);
  });

  it('keeps the precision the map uses: 1e-5 degrees, whole heading, speed and accuracy, whole seconds', () => {
    const fine = makeSnapshot({ generatedAt: T0, vehicles: [makeVehicle({ lat: 40.7512345678, lon: -73.9812345, heading: 89.6, speedKmh: 17.4, accuracy: 4.5, gpsAt: T0 - 10_400, fetchedAt: T0 - 5_600 })] });
    const v = decoded(fullOf(fine), fine).vehicles[0]!;
    expect([v.lat, v.lon, v.heading, v.speedKmh, v.accuracy, v.gpsAt, v.fetchedAt]).toEqual([40.75123, -73.98123, 90, 17, 5, T0 - 10_000, T0 - 6_000]);
  });

  it('carries the administrators\' full health when asked, and only then', () => {
    const health = { state: 'ok' } as never;
    expect(decoded(fullOf(snapshot, health), snapshot).fullHealth).toEqual(health);
    expect('fullHealth' in fullOf(snapshot)).toBe(false);
  });

  it('moves a held snapshot on by a delta: changed buses in full, moved ones by position, removals', () => {
    const next: LiveSnapshot = {
      ...snapshot,
      generatedAt: T0 + 5_000,
      version: 2,
      vehicles: [
        { ...snapshot.vehicles[0]!, lat: 40.76, gpsAt: T0 + 2_000 },
        { ...snapshot.vehicles[2]!, trip: makeTrip({ tripId: 72 }) },
        makeVehicle({ busId: 20 }),
      ],
      unpositionedTrips: [{ ...snapshot.unpositionedTrips[1]!, delayMinutes: 9, delayClass: 'late' }],
    };
    const changes = liveChanges(snapshot, next);
    const d = wire(encodeCompactDelta(next, 1, changes, (busId) => busId === 3));
    expect(d.m.id).toEqual([3]);
    expect(d.v.id.reduce((acc: number[], x) => [...acc, (acc.at(-1) ?? 0) + x], [])).toEqual([12, 20]);
    expect(d.removedBusIds).toEqual([8]);
    expect(d.removedTripIds).toEqual([900]);
    const moved = applyCompactDelta(snapshot, d)!;
    expect(moved).toEqual(next);
    // What did not change keeps its objects, so memoised views of it do not recompute.
    expect(moved.vehicles[0]!.trip).toBe(snapshot.vehicles[0]!.trip);
  });

  it('lists trips by trip id, each naming its bus row, planned departures counting from the trip before', () => {
    const at = (min: number) => T0 + min * 60_000;
    const s = makeSnapshot({
      generatedAt: T0,
      vehicles: [
        makeVehicle({ busId: 1, trip: makeTrip({ tripId: 505, plannedDepartureAt: at(20), plannedArrivalAt: at(50) }) }),
        makeVehicle({ busId: 2, trip: null }),
        makeVehicle({ busId: 4, trip: makeTrip({ tripId: 501, plannedDepartureAt: at(10), plannedArrivalAt: at(40) }) }),
        makeVehicle({ busId: 9, trip: makeTrip({ tripId: 502, plannedDepartureAt: null, plannedArrivalAt: at(45) }) }),
      ],
      unpositionedTrips: [],
    });
    const a = fullOf(s);
    expect(a.v.trips.id).toEqual([501, 1, 3]);
    expect(a.v.trips.b).toEqual([2, 3, 0]);
    // 10 min after t0, none, then 20 min after the last one given (10 min).
    expect(a.v.trips.pd).toEqual([600, null, 600]);
    expect(decoded(a, s)).toEqual(s);
  });

  it('takes names from the roster the answer names, and refuses another one or a bus the roster lacks', () => {
    const a = fullOf(snapshot);
    const roster = decodeRoster(wire(encodeRoster(snapshot.vehicles, 'r1')));
    expect(() => decodeCompactFull(a, { ...roster, version: 'r2' })).toThrow(/names roster r1, not r2/);
    const lacking = decodeRoster(wire(encodeRoster(snapshot.vehicles.slice(1), 'r1')));
    expect(() => decodeCompactFull(a, lacking)).toThrow(/bus 3 is not in roster r1/);
    // A roster of other names gives those names (the version is what keeps them right).
    const renamed = decodeRoster(wire(encodeRoster([{ ...snapshot.vehicles[0]!, plateNumber: 'NEW-1' }, ...snapshot.vehicles.slice(1)], 'r1')));
    expect(decodeCompactFull(a, renamed).vehicles[0]!.plateNumber).toBe('NEW-1');
  });

  it('sends a bus whose names changed whole in a delta, names included, so that the held snapshot needs no roster', () => {
    const next: LiveSnapshot = { ...snapshot, version: 2, vehicles: [{ ...snapshot.vehicles[0]!, plateNumber: 'NEW-3' }, ...snapshot.vehicles.slice(1)] };
    const d = wire(encodeCompactDelta(next, 1, liveChanges(snapshot, next), () => false));
    expect(d.v.p).toEqual({ x: 'NEW-', v: [3] });
    expect(applyCompactDelta(snapshot, d)).toEqual(next);
  });

  it('refuses a delta from another version, or one that moves a bus the snapshot lacks', () => {
    const next = { ...snapshot, version: 2, vehicles: [{ ...snapshot.vehicles[0]!, lat: 41 }, ...snapshot.vehicles.slice(1)] };
    const d = encodeCompactDelta(next, 1, liveChanges(snapshot, next), () => true);
    expect(applyCompactDelta({ ...snapshot, version: 7 }, d)).toBeNull();
    expect(applyCompactDelta({ ...snapshot, vehicles: snapshot.vehicles.slice(1) }, d)).toBeNull();
  });
});

describe('string columns of the roster', () => {
  const rosterOf = (s: LiveSnapshot) => wire(encodeRoster(s.vehicles, 'r1'));
  it('say their common prefix once and send a rest of digits as a number, any other rest as a string', () => {
    const names = ['MB-7100', 'MB-0712', null, 'MB-7', 'MB-'];
    const s = makeSnapshot({ vehicles: names.map((internalCode, i) => makeVehicle({ busId: i + 1, internalCode, busName: internalCode && `#${i}` })) });
    const a = rosterOf(s);
    expect(a.c).toEqual({ x: 'MB-', v: [7100, '0712', null, 7, ''] });
    expect(a.n.x).toBe('#');
    expect(decoded(fullOf(s), s).vehicles.map((v) => [v.internalCode, v.busName])).toEqual(s.vehicles.map((v) => [v.internalCode, v.busName]));
  });

  it('send a number one more than one a few rows before as a reference back to that row', () => {
    // Two series interleaved, as a fleet numbered by order batch lists by bus id; a gap in a series, a repeat and a
    // number whose successor's row is far enough back that the number itself is shorter.
    const plates = ['7100', '3850', '7101', '3851', '3852', '7103', '7104', '3852', '1', 'X', '2', null, '3'];
    const s = makeSnapshot({ vehicles: plates.map((plateNumber, i) => makeVehicle({ busId: i + 1, plateNumber })) });
    const a = rosterOf(s);
    expect(a.p).toEqual({ x: '', v: [7100, 3850, -2, -2, -1, 7103, -1, -4, 1, 'X', 2, null, -2] });
    expect(decodeRoster(a).names.map((n) => n.plateNumber)).toEqual(plates);
    expect(decoded(fullOf(s), s).vehicles.map((v) => v.plateNumber)).toEqual(plates);
  });

  it('say that internal codes are the names\' rests after their own prefix, instead of repeating them', () => {
    const numbers = [7100, 3850, 7101, null, 3851];
    const s = makeSnapshot({ vehicles: numbers.map((k, i) => makeVehicle({ busId: i + 1, busName: k === null ? null : `#${k}`, internalCode: k === null ? null : `MB-${k}` })) });
    const a = rosterOf(s);
    expect(a.c).toEqual({ x: 'MB-', restsOf: 'n' });
    expect(decoded(fullOf(s), s).vehicles.map((v) => [v.busName, v.internalCode])).toEqual(numbers.map((k) => (k === null ? [null, null] : [`#${k}`, `MB-${k}`])));
    // One row that differs: the codes go as their own column.
    const other = makeSnapshot({ vehicles: [...s.vehicles.slice(0, 4), { ...s.vehicles[4]!, internalCode: 'MB-9' }] });
    const b = rosterOf(other);
    expect('v' in b.c).toBe(true);
    expect(decoded(fullOf(other), other).vehicles.map((v) => v.internalCode)).toEqual(['MB-7100', 'MB-3850', 'MB-7101', null, 'MB-9']);
  });

  it('refuse a reference back to a row without a number', () => {
    const a = rosterOf(makeSnapshot({ vehicles: [makeVehicle({ busId: 1, plateNumber: 'X' }), makeVehicle({ busId: 2, plateNumber: '5' })] }));
    a.p.v[1] = -1;
    expect(() => decodeRoster(a)).toThrow(/refers to a row without a number/);
  });
});
