import { z } from 'zod';
import type {
  ApiErrorBody,
  Bus,
  BusesResponse,
  Health,
  IntegrationResponse,
  LiveDelta,
  LiveFull,
  NetworkResponse,
  Route,
  RoutesResponse,
  RouteStop,
  RouteStopsResponse,
  Trip,
  TripResponse,
  UnpositionedTrip,
  UpstreamError,
  Vehicle,
  VehicleTrip,
} from '@/lib/model';
import type { AccessDeniedBody } from '@/lib/model/access';
import type { LiveHealth } from '@/lib/model/live-health';

// Our API's answers as zod schemas, one per type of lib/model, each checked against that type by the compiler
// (`satisfies z.ZodType<T>`: a field the type gains and the schema lacks, or a changed type, fails the typecheck).
// Registered under their names in COMPONENTS, from which lib/openapi/document.ts writes the OpenAPI document's
// components (z.toJSONSchema); routes refer to them by name.

export const COMPONENTS = z.registry<{ id: string; description?: string }>();

export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  COMPONENTS.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

export const epochMs = z.number().describe('Epoch milliseconds');
export const nullableString = z.string().nullable();
export const nullableNumber = z.number().nullable();

export const apiError = named(
  'ApiError',
  z.object({ error: z.object({ status: z.number().int(), message: z.string(), correlationId: nullableString.optional() }) }) satisfies z.ZodType<ApiErrorBody>,
  'Every error answer: the HTTP status again and one sentence for people; an upstream failure may carry its correlation id.',
);

export const accessDenied = named(
  'AccessDenied',
  z.object({ error: z.object({ status: z.union([z.literal(401), z.literal(403)]), message: z.string(), reason: z.enum(['sign-in-required', 'role-too-low', 'wall-token-revoked', 'csrf']) }) }) satisfies z.ZodType<AccessDeniedBody>,
  'A request refused before any handler ran (proxy.ts): no session, a role too low, a revoked wall token, or a change from a page not ours.',
);

export const bus = named(
  'Bus',
  z.object({
    id: z.number().int(),
    plateNumber: nullableString,
    internalCode: nullableString,
    busName: nullableString,
    seatsCount: nullableNumber,
    brand: nullableString,
    model: nullableString,
    year: nullableNumber,
    currentStatus: nullableString,
    status: nullableString,
    currentRouteId: nullableNumber,
    lastGpsAt: epochMs.nullable(),
  }) satisfies z.ZodType<Bus>,
);

export const route = named(
  'Route',
  z.object({
    id: z.number().int(),
    name: z.string(),
    code: nullableString,
    startName: nullableString,
    endName: nullableString,
    distanceEstimate: nullableNumber,
    durationEstimate: nullableNumber,
    status: nullableString,
  }) satisfies z.ZodType<Route>,
);

export const routeStop = named(
  'RouteStop',
  z.object({
    id: z.number().int(),
    routeId: z.number().int(),
    stopName: z.string(),
    stopOrder: z.number(),
    latitude: nullableNumber,
    longitude: nullableNumber,
    isStart: z.boolean(),
    isEnd: z.boolean(),
    status: nullableString,
  }) satisfies z.ZodType<RouteStop>,
);

export const trip = named(
  'Trip',
  z.object({
    id: z.number().int(),
    routeId: nullableNumber,
    busId: nullableNumber,
    tripDate: nullableString,
    direction: nullableString,
    tripType: nullableString,
    serviceKind: nullableString,
    plannedDepartureAt: epochMs.nullable(),
    plannedArrivalAt: epochMs.nullable(),
    actualDepartureAt: epochMs.nullable(),
    actualArrivalAt: epochMs.nullable(),
    status: nullableString,
    delayMinutes: nullableNumber,
    routeName: nullableString,
    routeCode: nullableString,
    plateNumber: nullableString,
    busName: nullableString,
  }) satisfies z.ZodType<Trip>,
);

export const delayClass = z.enum(['early', 'on-time', 'late', 'unknown']);
const upstreamState = z.enum(['starting', 'ok', 'degraded', 'rate-limited', 'unauthorized', 'forbidden', 'unreachable']);

export const vehicleTrip = named(
  'VehicleTrip',
  z.object({
    tripId: z.number().int(),
    routeId: nullableNumber,
    routeCode: nullableString,
    routeName: nullableString,
    direction: nullableString,
    status: nullableString,
    delayMinutes: nullableNumber,
    delayClass,
    plannedDepartureAt: epochMs.nullable(),
    plannedArrivalAt: epochMs.nullable(),
    actualDepartureAt: epochMs.nullable(),
    actualArrivalAt: epochMs.nullable(),
  }) satisfies z.ZodType<VehicleTrip>,
);

export const vehicle = named(
  'Vehicle',
  z.object({
    busId: z.number().int(),
    plateNumber: nullableString,
    busName: nullableString,
    internalCode: nullableString,
    lat: nullableNumber,
    lon: nullableNumber,
    heading: nullableNumber,
    speedKmh: nullableNumber,
    accuracy: nullableNumber,
    gpsAt: epochMs.nullable(),
    fetchedAt: epochMs.nullable(),
    trip: vehicleTrip.nullable(),
  }) satisfies z.ZodType<Vehicle>,
  'A bus with its last fix (GPS time and when the server fetched it) and its active trip.',
);

export const unpositionedTrip = named(
  'UnpositionedTrip',
  vehicleTrip.extend({ busId: nullableNumber, plateNumber: nullableString, busName: nullableString }) satisfies z.ZodType<UnpositionedTrip>,
  'An active trip whose bus has no usable position.',
);

export const upstreamError = named(
  'UpstreamError',
  z.object({ at: epochMs, status: nullableNumber, kind: z.enum(['http', 'timeout', 'network', 'contract']), message: z.string(), correlationId: nullableString }) satisfies z.ZodType<UpstreamError>,
);

export const health = named(
  'Health',
  z.object({
    state: upstreamState,
    message: nullableString,
    lastSuccessAt: epochMs.nullable(),
    lastError: upstreamError.nullable(),
    plan: nullableString,
    level: z.enum(['standard', 'business']).nullable(),
    scopes: z.array(z.string()),
    capabilities: z.object({ buses: z.boolean(), routes: z.boolean(), stops: z.boolean(), trips: z.boolean(), locations: z.boolean() }),
    budget: z.object({
      limit: nullableNumber,
      usedLastMinute: z.number(),
      share: z.number(),
      byKind: z.record(z.string(), z.number()),
      rateLimited429: z.number(),
      pausedUntil: epochMs.nullable(),
    }),
    freshness: z.object({
      meanAgeS: nullableNumber,
      p95AgeS: nullableNumber,
      boundS: nullableNumber,
      trackedBuses: z.number(),
      weightsKmh: z.object({ buses: z.number(), min: z.number(), p25: z.number(), median: z.number(), p75: z.number(), max: z.number(), atSpeedFloor: z.number() }).nullable().optional(),
    }),
    finalTrips: z.object({ requestsLastHour: z.number(), pending: z.number() }).optional(),
    notes: z.array(z.string()).optional(),
    coordination: z.object({ lostAt: epochMs, dataAt: epochMs }).optional(),
    timezone: z.object({ zone: z.string(), source: z.enum(['config', 'inferred', 'inferring', 'default']), offsetMinutes: nullableNumber }),
  }) satisfies z.ZodType<Health>,
  'The upstream as the feed sees it: its state, the key, the budget, the freshness of the fleet and the timezone in use.',
);

export const liveHealth = named(
  'LiveHealth',
  z.object({
    state: upstreamState,
    message: z.string(),
    lastSuccessAt: epochMs.nullable(),
    meanFixAgeS: nullableNumber,
    level: z.enum(['standard', 'business']).nullable(),
    locations: z.boolean().nullable(),
    budget: z.object({ usedShare: nullableNumber, pausedUntil: epochMs.nullable() }),
    coordination: z.object({ lostAt: epochMs, dataAt: epochMs }).optional(),
    restoredFrom: epochMs.optional(),
    timezone: z.object({ zone: nullableString, offsetMinutes: nullableNumber }),
  }) satisfies z.ZodType<LiveHealth>,
  "The health every viewer's snapshot carries: the state and its sentence, the data's age, the budget's use; the full health is /api/status.",
);

export const thresholds = z.object({ lateMin: z.number(), earlyMin: z.number() });

export const liveFull = named(
  'LiveFull',
  z.object({
    kind: z.literal('full'),
    generatedAt: epochMs,
    epoch: z.string(),
    version: z.number().int(),
    vehicles: z.array(vehicle),
    unpositionedTrips: z.array(unpositionedTrip),
    health: liveHealth,
    fullHealth: health.optional().describe('The full health, for administrators only'),
    thresholds,
  }) satisfies z.ZodType<LiveFull>,
  'The whole live snapshot; its ETag is W/"<epoch>-<version>".',
);

export const liveDelta = named(
  'LiveDelta',
  z.object({
    kind: z.literal('delta'),
    epoch: z.string(),
    since: z.number().int(),
    version: z.number().int(),
    generatedAt: epochMs,
    vehicles: z.array(vehicle),
    removedBusIds: z.array(z.number().int()),
    unpositionedTrips: z.array(unpositionedTrip),
    removedTripIds: z.array(z.number().int()),
    health: liveHealth,
    fullHealth: health.optional().describe('The full health, for administrators only'),
    thresholds,
  }) satisfies z.ZodType<LiveDelta>,
  'What changed since the version asked for: the vehicles and unpositioned trips changed or added, those removed, and the health now.',
);

export const tripResponse = named('TripResponse', z.object({ trip, fetchedAt: epochMs }) satisfies z.ZodType<TripResponse>);
export const routesResponse = named('RoutesResponse', z.object({ routes: z.array(route), fetchedAt: epochMs.nullable() }) satisfies z.ZodType<RoutesResponse>);
export const routeStopsResponse = named(
  'RouteStopsResponse',
  z.object({ route: z.object({ id: nullableNumber, name: nullableString, code: nullableString }), stops: z.array(routeStop), fetchedAt: epochMs }) satisfies z.ZodType<RouteStopsResponse>,
);
export const busesResponse = named('BusesResponse', z.object({ buses: z.array(bus), fetchedAt: epochMs.nullable() }) satisfies z.ZodType<BusesResponse>);

const position = z.tuple([z.number(), z.number()]).describe('[longitude, latitude]');
export const networkResponse = named(
  'NetworkResponse',
  z.object({
    type: z.literal('FeatureCollection'),
    features: z.array(
      z.object({
        type: z.literal('Feature'),
        id: z.number().optional(),
        geometry: z.union([z.object({ type: z.literal('LineString'), coordinates: z.array(position) }), z.object({ type: z.literal('Point'), coordinates: position })]),
        properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
      }),
    ),
    pendingRoutes: z.number().int(),
    routesListed: z.boolean(),
  }) satisfies z.ZodType<NetworkResponse>,
  'GeoJSON of the whole network: route lines through their stops, and the stops.',
);

const recorderStatus = z.object({
  state: z.enum(['starting', 'recording', 'behind', 'failed', 'stopped']),
  store: z.string(),
  lagMs: nullableNumber,
  pending: z.number(),
  droppedRows: z.number().optional(),
  lastWriteAt: epochMs.nullable(),
  message: nullableString,
});

export const integrationResponse = named(
  'IntegrationResponse',
  z.object({
    generatedAt: epochMs,
    health,
    record: z.object({
      since: epochMs,
      minutes: z.array(z.object({ at: epochMs, byKind: z.record(z.string(), z.number()), rateLimited429: z.number(), failed: z.number() })),
      errors: z.array(upstreamError.extend({ operation: z.string() })),
      transitions: z.array(z.object({ at: epochMs, from: upstreamState, to: upstreamState, message: z.string() })),
    }),
    recorder: recorderStatus.nullable(),
    instance: z.object({ role: z.enum(['leader', 'follower', 'candidate']), epoch: nullableNumber, instanceId: z.string(), leaderId: nullableString }).nullable(),
    build: z.object({ version: z.string(), buildId: nullableString }),
  }) satisfies z.ZodType<IntegrationResponse>,
);
