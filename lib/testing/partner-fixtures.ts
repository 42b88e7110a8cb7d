import 'server-only';
import { SCOPES } from '@/lib/model';
import type {
  WireBusInput,
  WireBusLocationInput,
  WireErrorEnvelopeInput,
  WireMetaInput,
  WireRouteInput,
  WireRouteStopInput,
  WireStatusDataInput,
  WireTripInput,
} from '@/lib/partner/schemas';

// Small factories of wire payloads as a Partner API v1 server may send them, for tests (here and in the
// simulator's contract tests). Overrides are typed loosely on purpose: a test must be able to add extra
// fields or put a wrong type in a known one.

type Loose<T> = Partial<Record<keyof T, unknown>> & Record<string, unknown>;

export function wireMeta(over: Loose<WireMetaInput> = {}): Record<string, unknown> {
  return { request_id: 'req-1', scope: null, rate_limit: { limit: 60, remaining: 59, reset_at: 1_750_000_000 }, ...over };
}

export function wireBus(over: Loose<WireBusInput> = {}): Record<string, unknown> {
  return {
    id: 1,
    plate_number: 'NY-1001',
    internal_code: 'B1001',
    bus_name: 'Bus 1001',
    seats_count: 40,
    brand: 'Nova',
    model: 'LFS',
    year: 2019,
    current_status: 'available',
    status: 'active',
    current_route_id: 7,
    last_gps_at: '2025-01-15 08:30:00',
    ...over,
  };
}

export function wireRoute(over: Loose<WireRouteInput> = {}): Record<string, unknown> {
  return {
    id: 7,
    name: 'Crosstown',
    code: 'M14',
    start_name: 'Avenue A',
    end_name: 'West St',
    distance_estimate: '12.5',
    duration_estimate: 45,
    status: 'active',
    ...over,
  };
}

export function wireRouteStop(over: Loose<WireRouteStopInput> = {}): Record<string, unknown> {
  return {
    id: 70,
    route_id: 7,
    stop_name: 'Avenue A / 14 St',
    stop_order: 1,
    latitude: 40.7303,
    longitude: -73.9808,
    is_start: 1,
    is_end: 0,
    status: 'active',
    ...over,
  };
}

export function wireTrip(over: Loose<WireTripInput> = {}): Record<string, unknown> {
  return {
    id: 500,
    route_id: 7,
    bus_id: 1,
    trip_date: '2025-01-15',
    direction: 'outbound',
    trip_type: 'regular',
    service_kind: 'local',
    planned_departure_at: '2025-01-15 08:00:00',
    planned_arrival_at: '2025-01-15 08:45:00',
    actual_departure_at: '2025-01-15 08:04:00',
    actual_arrival_at: null,
    status: 'started',
    delay_minutes: 4,
    route_name: 'Crosstown',
    route_code: 'M14',
    plate_number: 'NY-1001',
    bus_name: 'Bus 1001',
    ...over,
  };
}

export function wireBusLocation(over: Loose<WireBusLocationInput> = {}): Record<string, unknown> {
  return {
    id: 1,
    plate_number: 'NY-1001',
    internal_code: 'B1001',
    bus_name: 'Bus 1001',
    last_latitude: '40.7128',
    last_longitude: '-73.9',
    last_gps_at: '2025-01-15 08:30:00',
    last_speed_kmh: '12',
    last_heading: 90,
    last_accuracy: '5.5',
    ...over,
  };
}

export function wireStatus(over: Loose<WireStatusDataInput> = {}): Record<string, unknown> {
  return {
    plan: 'API Business',
    level: 'business',
    scopes: [...SCOPES],
    rate_limit_per_minute: 60,
    ...over,
  };
}

export function wirePaged(items: unknown[], pagination: { page?: number; per_page?: number; total?: number; total_pages?: number } = {}) {
  const perPage = pagination.per_page ?? 25;
  const total = pagination.total ?? items.length;
  return {
    items,
    pagination: { page: 1, per_page: perPage, total, total_pages: Math.ceil(total / perPage), ...pagination },
  };
}

export function wireSuccess(data: unknown, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { success: true, code: 'OK', trace_id: 'trace-1', data, errors: [], meta: wireMeta(), ...over };
}

export function wireError(
  error: Loose<WireErrorEnvelopeInput['error']> = {},
  over: Loose<WireErrorEnvelopeInput> = {},
): Record<string, unknown> {
  const e = { code: 'UNAUTHORIZED', message: 'Invalid API key.', retryable: false, correlation_id: 'corr-1', ...error };
  return {
    success: false,
    code: e.code,
    trace_id: 'trace-err',
    message: e.message,
    data: null,
    errors: [],
    meta: wireMeta(),
    error: e,
    ...over,
  };
}
