import 'server-only';
import type { Bus, BusLocation, Paged, PartnerStatus, RateLimitInfo, Route, RouteStop, RouteStops, Trip } from '@/lib/model';
import type {
  WireBus,
  WireBusLocation,
  WirePaged,
  WireRateLimit,
  WireRoute,
  WireRouteStop,
  WireRouteStopsData,
  WireStatusData,
  WireTrip,
} from './schemas';
import { parsePartnerTimestamp, type TimeRule } from './time';

// Wire (snake_case, as validated by schemas.ts) -> app model (camelCase, epoch ms). The schemas have already
// normalized decimals and flags, so these functions only rename and convert times.

function instant(s: string | null, rule: TimeRule): number | null {
  return s === null ? null : parsePartnerTimestamp(s, rule);
}

export function busFromWire(w: WireBus, rule: TimeRule): Bus {
  return {
    id: w.id,
    plateNumber: w.plate_number,
    internalCode: w.internal_code,
    busName: w.bus_name,
    seatsCount: w.seats_count,
    brand: w.brand,
    model: w.model,
    year: w.year,
    currentStatus: w.current_status,
    status: w.status,
    currentRouteId: w.current_route_id,
    lastGpsAt: instant(w.last_gps_at, rule),
  };
}

export function routeFromWire(w: WireRoute): Route {
  return {
    id: w.id,
    name: w.name,
    code: w.code,
    startName: w.start_name,
    endName: w.end_name,
    distanceEstimate: w.distance_estimate,
    durationEstimate: w.duration_estimate,
    status: w.status,
  };
}

export function routeStopFromWire(w: WireRouteStop): RouteStop {
  return {
    id: w.id,
    routeId: w.route_id,
    stopName: w.stop_name,
    stopOrder: w.stop_order,
    latitude: w.latitude,
    longitude: w.longitude,
    isStart: w.is_start,
    isEnd: w.is_end,
    status: w.status,
  };
}

function pick<T>(obj: Record<string, unknown>, key: string, ok: (v: unknown) => v is T): T | null {
  const v = obj[key];
  return ok(v) ? v : null;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isPositiveInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/**
 * The spec does not list the fields of `route`: id/name/code are taken when present with the expected type,
 * otherwise null. Stops come back in stop_order (the spec leaves list order open), ties by id.
 */
export function routeStopsFromWire(w: WireRouteStopsData): RouteStops {
  const stops = w.items.map(routeStopFromWire).sort((a, b) => a.stopOrder - b.stopOrder || a.id - b.id);
  return {
    route: { id: pick(w.route, 'id', isPositiveInt), name: pick(w.route, 'name', isString), code: pick(w.route, 'code', isString) },
    stops,
  };
}

export function tripFromWire(w: WireTrip, rule: TimeRule): Trip {
  return {
    id: w.id,
    routeId: w.route_id,
    busId: w.bus_id,
    tripDate: w.trip_date,
    direction: w.direction,
    tripType: w.trip_type,
    serviceKind: w.service_kind,
    plannedDepartureAt: instant(w.planned_departure_at, rule),
    plannedArrivalAt: instant(w.planned_arrival_at, rule),
    actualDepartureAt: instant(w.actual_departure_at, rule),
    actualArrivalAt: instant(w.actual_arrival_at, rule),
    status: w.status,
    delayMinutes: w.delay_minutes,
    routeName: w.route_name,
    routeCode: w.route_code,
    plateNumber: w.plate_number,
    busName: w.bus_name,
  };
}

export function busLocationFromWire(w: WireBusLocation, rule: TimeRule): BusLocation {
  return {
    busId: w.id,
    plateNumber: w.plate_number,
    internalCode: w.internal_code,
    busName: w.bus_name,
    latitude: w.last_latitude,
    longitude: w.last_longitude,
    lastGpsAt: instant(w.last_gps_at, rule),
    speedKmh: w.last_speed_kmh,
    heading: w.last_heading,
    accuracy: w.last_accuracy,
  };
}

export function statusFromWire(w: WireStatusData): PartnerStatus {
  return { plan: w.plan, level: w.level, scopes: [...w.scopes], rateLimitPerMinute: w.rate_limit_per_minute };
}

/** Above this, reset_at can only be epoch milliseconds (1e12 ms is September 2001). */
const EPOCH_MS_THRESHOLD = 1e12;
/** Above this (and below the ms threshold), epoch seconds (1e9 s is September 2001); below, seconds from now. */
const EPOCH_S_THRESHOLD = 1e9;

/**
 * meta.rate_limit with reset_at resolved to an instant. The spec does not give reset_at's unit, so it is
 * told apart by magnitude: > 1e12 is epoch ms, > 1e9 epoch seconds, otherwise seconds from `nowMs` (a
 * per-minute window resets within 60 s, far below either threshold). A negative value cannot be read: null.
 */
export function rateLimitFromWire(raw: WireRateLimit, nowMs: number): RateLimitInfo {
  const r = raw.reset_at;
  let resetAt: number | null;
  if (r > EPOCH_MS_THRESHOLD) resetAt = r;
  else if (r > EPOCH_S_THRESHOLD) resetAt = r * 1000;
  else if (r >= 0) resetAt = nowMs + r * 1000;
  else resetAt = null;
  return { limit: raw.limit, remaining: raw.remaining, resetAt, resetAtRaw: r };
}

export function pagedFromWire<W, T>(w: WirePaged<W>, mapItem: (item: W) => T): Paged<T> {
  return {
    items: w.items.map(mapItem),
    page: w.pagination.page,
    perPage: w.pagination.per_page,
    total: w.pagination.total,
    totalPages: w.pagination.total_pages,
  };
}
