import { describe, expect, it } from 'vitest';
import type { TripPredictions } from '@/lib/model/predictions';
import { makeVehicle, T0 } from '@/lib/testing/view-factories';
import { startOf, tripUpdates, vehiclePositions, type FeedSource } from './build';
import { DEFAULT_IDS, gtfsIds, parseIdMap } from './ids';

const NY = { kind: 'zone' as const, zone: 'America/New_York' };

function predictions(over: Partial<TripPredictions> = {}): TripPredictions {
  return {
    tripId: 1,
    routeId: 10,
    routeCode: 'M15',
    routeName: 'First Av',
    direction: 'outbound',
    headsign: 'South Ferry',
    busId: 1,
    busName: 'Bus 1001',
    basis: 'gps',
    scheduleReason: null,
    note: '',
    delayMinutes: 2,
    plannedDepartureAt: T0 - 20 * 60_000,
    at: T0,
    stops: [5, 6, 7].map((order, i) => ({ stopId: 100 + order, stopName: `S${order}`, stopOrder: order, lat: 40.75, lon: -73.98, alongM: 400 * order, arrivalAt: T0 + (i + 1) * 90_000, earliestAt: T0 + (i + 1) * 80_000, latestAt: T0 + (i + 1) * 110_000, plannedAt: null })),
    ...over,
  };
}

function source(over: Partial<FeedSource> = {}): FeedSource {
  return { at: T0, vehicles: [makeVehicle()], predictions: new Map([[1, predictions()]]), tripDate: () => '2025-06-02', timeRule: NY, ids: gtfsIds(DEFAULT_IDS), ...over };
}

describe('vehiclePositions', () => {
  it('publishes the fix and its GPS time, the trip and the next stop', () => {
    const { message, leftOut } = vehiclePositions(source());
    expect(leftOut).toBe(0);
    expect(message.header).toEqual({ gtfsRealtimeVersion: '2.0', incrementality: 0, timestamp: T0 / 1000 });
    expect(message.entity).toEqual([
      {
        id: 'vehicle-1',
        vehicle: {
          vehicle: { id: '1', label: 'Bus 1001', licensePlate: 'BX-1001' },
          position: { latitude: 40.75, longitude: -73.98, bearing: 90, speed: 5 },
          timestamp: (T0 - 10_000) / 1000,
          // T0 is 10:00 in New York; the trip left 20 minutes before.
          trip: { tripId: '1', routeId: '10', directionId: 0, startDate: '20250602', startTime: '09:40:00' },
          currentStopSequence: 5,
          stopId: '105',
          currentStatus: 2,
        },
      },
    ]);
  });

  it('leaves out a bus whose record breaks a rule, and skips buses that never reported', () => {
    const vehicles = [
      makeVehicle({ busId: 2, lat: 95 }),
      makeVehicle({ busId: 3, gpsAt: T0 + 5_000 }),
      makeVehicle({ busId: 4, speedKmh: 120 }),
      makeVehicle({ busId: 5, heading: -3 }),
      makeVehicle({ busId: 6, lat: null, lon: null, gpsAt: null }),
      makeVehicle({ busId: 7, trip: null }),
    ];
    const { message, leftOut } = vehiclePositions(source({ vehicles }));
    expect(leftOut).toBe(4);
    expect(message.entity!.map((e) => e.id)).toEqual(['vehicle-7']);
  });

  it('uses the configured prefixes and the mapping file', () => {
    const map = parseIdMap('kind,partner_id,gtfs_id\nroute,10,M15-SBS\nstop,105,MTA_400105\n');
    if (!map.ok) throw new Error(map.message);
    const ids = gtfsIds({ tripPrefix: 'T:', routePrefix: 'R:', stopPrefix: 'S:', vehiclePrefix: 'V:', routes: map.routes, stops: map.stops });
    const e = vehiclePositions(source({ ids })).message.entity![0]!.vehicle!;
    expect(e.trip).toEqual(expect.objectContaining({ tripId: 'T:1', routeId: 'M15-SBS' }));
    expect(e.stopId).toBe('MTA_400105');
    expect(e.vehicle!.id).toBe('V:1');
    expect(ids.stop(106)).toBe('S:106');
  });
});

describe('tripUpdates', () => {
  it('publishes a stop_time_update per remaining stop with its time and uncertainty, and the delay', () => {
    const tu = tripUpdates(source()).message.entity![0]!.tripUpdate!;
    expect(tu.delay).toBe(120);
    expect(tu.vehicle).toEqual({ id: '1', label: 'Bus 1001', licensePlate: 'BX-1001' });
    expect(tu.stopTimeUpdate).toEqual([
      { stopSequence: 5, stopId: '105', arrival: { time: T0 / 1000 + 90, uncertainty: 15 } },
      { stopSequence: 6, stopId: '106', arrival: { time: T0 / 1000 + 180, uncertainty: 30 } },
      { stopSequence: 7, stopId: '107', arrival: { time: T0 / 1000 + 270, uncertainty: 45 } },
    ]);
  });

  it('leaves out a trip whose stop times do not strictly increase', () => {
    const p = predictions();
    p.stops[2]!.arrivalAt = p.stops[1]!.arrivalAt;
    const { message, leftOut } = tripUpdates(source({ predictions: new Map([[1, p]]) }));
    expect(leftOut).toBe(1);
    expect(message.entity).toEqual([]);
  });
});

describe('startOf and the id map', () => {
  it('counts start_time past the service date’s midnight', () => {
    // 00:30 on 3 June in New York, for a trip of the 2 June service day.
    expect(startOf(Date.parse('2025-06-03T04:30:00Z'), '2025-06-02', NY)).toEqual({ startDate: '20250602', startTime: '24:30:00' });
    expect(startOf(Date.parse('2025-06-03T04:30:00Z'), null, { kind: 'offset', minutes: -240 })).toEqual({ startDate: '20250603', startTime: '00:30:00' });
  });

  it('refuses a malformed mapping file with the line at fault', () => {
    expect(parseIdMap('')).toEqual({ ok: false, message: expect.stringContaining('empty') });
    expect(parseIdMap('kind,partner_id,gtfs_id\nroute,abc,X')).toEqual({ ok: false, message: expect.stringContaining('line 2') });
    expect(parseIdMap('kind,partner_id,gtfs_id\nbus,1,X')).toEqual({ ok: false, message: expect.stringContaining('kind') });
    expect(parseIdMap('kind,partner_id,gtfs_id\nstop,1,A\nstop,1,B')).toEqual({ ok: false, message: expect.stringContaining('twice') });
  });
});
