// Small factories for unit tests of the view logic: the live snapshot's parts, and active trips with only the
// fields a test cares about, the rest neutral.
import type { Bus, Health, LiveException, LiveHealth, LiveSnapshot, UnpositionedTrip, Vehicle, VehicleTrip } from '@/lib/model';
import { tripDelayClass } from '@/lib/model';
import type { ActiveTrip } from '@/lib/view/trips';

export const T0 = Date.UTC(2025, 5, 2, 14, 0, 0);

export function makeTrip(over: Partial<VehicleTrip> = {}): VehicleTrip {
  const delayMinutes = over.delayMinutes === undefined ? 0 : over.delayMinutes;
  return {
    tripId: 1,
    routeId: 10,
    routeCode: 'M15',
    routeName: 'First Av / Second Av',
    direction: 'outbound',
    status: 'started',
    plannedDepartureAt: T0 - 20 * 60_000,
    plannedArrivalAt: T0 + 40 * 60_000,
    actualDepartureAt: T0 - 19 * 60_000,
    actualArrivalAt: null,
    ...over,
    delayMinutes,
    delayClass: over.delayClass ?? tripDelayClass(delayMinutes),
  };
}

export function makeVehicle(over: Partial<Vehicle> = {}): Vehicle {
  return {
    busId: 1,
    plateNumber: 'BX-1001',
    busName: 'Bus 1001',
    internalCode: 'I-1001',
    lat: 40.75,
    lon: -73.98,
    heading: 90,
    speedKmh: 18,
    accuracy: 5,
    gpsAt: T0 - 10_000,
    fetchedAt: T0 - 5_000,
    trip: makeTrip(),
    ...over,
  };
}

export function makeUnpositionedTrip(over: Partial<UnpositionedTrip> = {}): UnpositionedTrip {
  return { ...makeTrip({ tripId: 900, routeCode: 'M101', routeName: 'Third Av / Lexington Av' }), busId: null, plateNumber: null, busName: null, ...over };
}

export function makeHealth(over: Partial<Health> = {}): Health {
  return {
    state: 'ok',
    message: null,
    lastSuccessAt: T0 - 1_000,
    lastError: null,
    plan: 'API Business',
    level: 'business',
    scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read', 'gps:read'],
    capabilities: { buses: true, routes: true, stops: true, trips: true, locations: true },
    budget: { limit: 240, usedLastMinute: 142, share: 0.8, byKind: { location: 120, trips: 22 }, rateLimited429: 0, pausedUntil: null },
    freshness: { meanAgeS: 30, p95AgeS: 70, boundS: 25, trackedBuses: 200 },
    timezone: { zone: 'America/New_York', source: 'config', offsetMinutes: -240 },
    ...over,
  };
}

/** The health every viewer gets, as the server reduces `makeHealth`'s. */
export function makeLiveHealth(over: Partial<LiveHealth> = {}): LiveHealth {
  return {
    state: 'ok',
    message: 'Live data is flowing.',
    lastSuccessAt: T0 - 1_000,
    meanFixAgeS: 30,
    level: 'business',
    locations: true,
    budget: { usedShare: 142 / 240, pausedUntil: null },
    timezone: { zone: 'America/New_York', offsetMinutes: -240 },
    ...over,
  };
}

export function makeSnapshot(over: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return {
    generatedAt: T0,
    epoch: 'e1',
    version: 1,
    vehicles: [makeVehicle()],
    unpositionedTrips: [],
    health: makeLiveHealth(),
    thresholds: { lateMin: 5, earlyMin: 1 },
    ...over,
  };
}

let nextTripId = 1;

export function trip(over: Partial<ActiveTrip> = {}): ActiveTrip {
  return {
    tripId: nextTripId++,
    routeId: 1,
    routeCode: 'M1',
    routeName: 'Fifth Avenue',
    direction: 'outbound',
    status: 'started',
    delayMinutes: 0,
    delayClass: 'on-time',
    plannedDepartureAt: null,
    plannedArrivalAt: null,
    actualDepartureAt: null,
    actualArrivalAt: null,
    busId: null,
    plateNumber: null,
    busName: null,
    internalCode: null,
    positioned: false,
    gpsAt: null,
    ...over,
  };
}

export function makeBus(over: Partial<Bus> = {}): Bus {
  return {
    id: 1,
    plateNumber: 'BX-1001',
    internalCode: 'I-1001',
    busName: 'Bus 1001',
    seatsCount: 40,
    brand: 'Nova',
    model: 'LFS',
    year: 2019,
    currentStatus: 'available',
    status: 'active',
    currentRouteId: null,
    lastGpsAt: null,
    ...over,
  };
}

/** A live exception: open and unread, about bus #7 on trip 44 of M15, opened at `T0`. */
export function makeLiveException(over: Partial<LiveException> = {}): LiveException {
  return {
    id: 'ex_1',
    rule: 'late',
    severity: 'warning',
    state: 'open',
    subject: { busId: 7, tripId: 44, routeId: 3, routeCode: 'M15', busName: '#7' },
    figures: {},
    message: 'exception 1',
    since: T0,
    openedAt: T0,
    acknowledgedAt: null,
    acknowledgedBy: null,
    note: null,
    snoozedUntil: null,
    resolvedAt: null,
    seq: 1,
    unread: true,
    ...over,
  };
}
