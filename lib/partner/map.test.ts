import { describe, expect, it } from 'vitest';
import {
  busFromWire,
  busLocationFromWire,
  pagedFromWire,
  rateLimitFromWire,
  routeFromWire,
  routeStopFromWire,
  routeStopsFromWire,
  statusFromWire,
  tripFromWire,
} from './map';
import { busLocationSchema, busSchema, pagedData, routeSchema, routeStopSchema, routeStopsDataSchema, statusDataSchema, tripSchema } from './schemas';
import { wireBus, wireBusLocation, wirePaged, wireRoute, wireRouteStop, wireStatus, wireTrip } from '@/lib/testing/partner-fixtures';
import type { TimeRule } from './time';

const NY: TimeRule = { kind: 'zone', zone: 'America/New_York' };
const EST: TimeRule = { kind: 'offset', minutes: -300 };

describe('resource mapping', () => {
  it('maps a bus, converting last_gps_at with the rule', () => {
    const bus = busFromWire(busSchema.parse(wireBus({ last_gps_at: '2025-07-01 12:00:00', extra: 1 })), NY);
    expect(bus).toEqual({
      id: 1,
      plateNumber: 'NY-1001',
      internalCode: 'B1001',
      busName: 'Bus 1001',
      seatsCount: 40,
      brand: 'Nova',
      model: 'LFS',
      year: 2019,
      currentStatus: 'available',
      status: 'active',
      currentRouteId: 7,
      lastGpsAt: Date.UTC(2025, 6, 1, 16),
    });
    expect(busFromWire(busSchema.parse(wireBus({ last_gps_at: null })), NY).lastGpsAt).toBeNull();
  });

  it('maps a route with a decimal-string distance', () => {
    expect(routeFromWire(routeSchema.parse(wireRoute()))).toEqual({
      id: 7,
      name: 'Crosstown',
      code: 'M14',
      startName: 'Avenue A',
      endName: 'West St',
      distanceEstimate: 12.5,
      durationEstimate: 45,
      status: 'active',
    });
  });

  it('maps a route stop with 0/1 flags to booleans', () => {
    const stop = routeStopFromWire(routeStopSchema.parse(wireRouteStop({ is_start: 1, is_end: 0 })));
    expect(stop).toEqual({
      id: 70,
      routeId: 7,
      stopName: 'Avenue A / 14 St',
      stopOrder: 1,
      latitude: 40.7303,
      longitude: -73.9808,
      isStart: true,
      isEnd: false,
      status: 'active',
    });
  });

  it('maps route stops in stop order and picks the recognisable route fields', () => {
    const data = routeStopsDataSchema.parse({
      route: { id: 7, name: 'Crosstown', code: 42, colour: 'red' },
      items: [wireRouteStop({ id: 73, stop_order: 3 }), wireRouteStop({ id: 71, stop_order: 1 }), wireRouteStop({ id: 72, stop_order: 2 })],
    });
    const stops = routeStopsFromWire(data);
    expect(stops.route).toEqual({ id: 7, name: 'Crosstown', code: null });
    expect(stops.stops.map((s) => s.id)).toEqual([71, 72, 73]);
    expect(routeStopsFromWire(routeStopsDataSchema.parse({ route: {}, items: [] }))).toEqual({ route: { id: null, name: null, code: null }, stops: [] });
  });

  it('maps a trip, converting every timestamp and keeping the date as sent', () => {
    const trip = tripFromWire(tripSchema.parse(wireTrip({ status: 'delayed-ish' })), EST);
    expect(trip).toMatchObject({
      id: 500,
      routeId: 7,
      busId: 1,
      tripDate: '2025-01-15',
      direction: 'outbound',
      tripType: 'regular',
      serviceKind: 'local',
      plannedDepartureAt: Date.UTC(2025, 0, 15, 13),
      plannedArrivalAt: Date.UTC(2025, 0, 15, 13, 45),
      actualDepartureAt: Date.UTC(2025, 0, 15, 13, 4),
      actualArrivalAt: null,
      status: 'delayed-ish',
      delayMinutes: 4,
      routeName: 'Crosstown',
      routeCode: 'M14',
      plateNumber: 'NY-1001',
      busName: 'Bus 1001',
    });
  });

  it('maps a bus location with string decimals as numbers', () => {
    const loc = busLocationFromWire(busLocationSchema.parse(wireBusLocation()), EST);
    expect(loc).toEqual({
      busId: 1,
      plateNumber: 'NY-1001',
      internalCode: 'B1001',
      busName: 'Bus 1001',
      latitude: 40.7128,
      longitude: -73.9,
      lastGpsAt: Date.UTC(2025, 0, 15, 13, 30),
      speedKmh: 12,
      heading: 90,
      accuracy: 5.5,
    });
  });

  it('maps the status', () => {
    expect(statusFromWire(statusDataSchema.parse(wireStatus({ level: 'standard', plan: 'API Standard', scopes: ['buses:read'] })))).toEqual({
      plan: 'API Standard',
      level: 'standard',
      scopes: ['buses:read'],
      rateLimitPerMinute: 60,
    });
  });

  it('maps a page', () => {
    const wire = pagedData(routeSchema).parse(wirePaged([wireRoute({ id: 1 }), wireRoute({ id: 2 })], { page: 2, per_page: 2, total: 5 }));
    const page = pagedFromWire(wire, routeFromWire);
    expect(page.items.map((r) => r.id)).toEqual([1, 2]);
    expect({ page: page.page, perPage: page.perPage, total: page.total, totalPages: page.totalPages }).toEqual({ page: 2, perPage: 2, total: 5, totalPages: 3 });
  });
});

describe('rateLimitFromWire', () => {
  const now = Date.UTC(2025, 0, 15, 12);

  it('reads reset_at as epoch seconds', () => {
    const reset = Math.floor(now / 1000) + 42;
    expect(rateLimitFromWire({ limit: 60, remaining: 10, reset_at: reset }, now)).toEqual({ limit: 60, remaining: 10, resetAt: reset * 1000, resetAtRaw: reset });
  });

  it('reads reset_at as epoch milliseconds', () => {
    expect(rateLimitFromWire({ limit: 60, remaining: 10, reset_at: now + 42_000 }, now).resetAt).toBe(now + 42_000);
  });

  it('reads reset_at as seconds from now', () => {
    expect(rateLimitFromWire({ limit: 60, remaining: 10, reset_at: 42 }, now).resetAt).toBe(now + 42_000);
    expect(rateLimitFromWire({ limit: 60, remaining: 10, reset_at: 0 }, now).resetAt).toBe(now);
  });

  it('gives null for a reset_at it cannot read, keeping the raw value', () => {
    expect(rateLimitFromWire({ limit: 60, remaining: 10, reset_at: -5 }, now)).toEqual({ limit: 60, remaining: 10, resetAt: null, resetAtRaw: -5 });
  });
});
