import 'server-only';
import { z } from 'zod';
import { isPartnerDate, isPartnerTimestamp } from './time';

// Wire schemas of Partner API v1, snake_case exactly as the spec names the fields. Tolerant only where the
// spec says a client must be (decimal strings, 0/1 booleans, nulls, extra fields, free-string states);
// strict everywhere else so that a contract break surfaces with the field that broke it.
// Objects strip unknown keys (zod's default): extra upstream fields are ignored, never an error.

const DECIMAL_STRING_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Spec: "declared as numbers ... but may be serialized as decimal strings; a client must accept both". */
const decimal = z.union([z.number(), z.string().regex(DECIMAL_STRING_RE, 'expected a number or a decimal string')], {
  error: (issue) =>
    typeof issue.input === 'string'
      ? 'expected a number or a decimal string'
      : `expected a number or a decimal string, received ${issue.input === null ? 'null' : typeof issue.input}`,
}).transform((v) => (typeof v === 'number' ? v : Number(v)));

const nullableDecimal = decimal.nullable();

/** Spec types is_start/is_end as "boolean or integer"; the integer form is 0/1. */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'expected a boolean or 0/1' })
  .transform((v) => v === true || v === 1);

const id = z.int().min(1);
const nullableId = id.nullable();
const nullableInt = z.int().nullable();
const nullableString = z.string().nullable();

const timestamp = z.string().refine(isPartnerTimestamp, 'expected a timestamp YYYY-MM-DD HH:MM:SS');
const nullableTimestamp = timestamp.nullable();
const nullableDate = z.string().refine(isPartnerDate, 'expected a date YYYY-MM-DD').nullable();

export const rateLimitSchema = z.object({
  limit: z.int(),
  remaining: z.int(),
  // Unit not given by the spec; resolved by rateLimitFromWire.
  reset_at: z.int(),
});

export const metaSchema = z.object({
  request_id: z.string(),
  scope: z.string().nullable(),
  rate_limit: rateLimitSchema,
});

export const paginationSchema = z.object({
  page: z.int().min(1),
  per_page: z.int().min(1),
  total: z.int().min(0),
  total_pages: z.int().min(0),
});

export const busSchema = z.object({
  id,
  plate_number: nullableString,
  internal_code: nullableString,
  bus_name: nullableString,
  seats_count: nullableInt,
  brand: nullableString,
  model: nullableString,
  year: nullableInt,
  current_status: nullableString,
  status: nullableString,
  current_route_id: nullableId,
  last_gps_at: nullableTimestamp,
});

export const routeSchema = z.object({
  id,
  name: z.string(),
  code: nullableString,
  start_name: nullableString,
  end_name: nullableString,
  distance_estimate: nullableDecimal,
  duration_estimate: nullableInt,
  status: nullableString,
});

export const routeStopSchema = z.object({
  id,
  route_id: id,
  stop_name: z.string(),
  stop_order: z.int(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_start: flag,
  is_end: flag,
  status: nullableString,
});

export const tripSchema = z.object({
  id,
  route_id: nullableId,
  bus_id: nullableId,
  trip_date: nullableDate,
  direction: nullableString,
  trip_type: nullableString,
  service_kind: nullableString,
  planned_departure_at: nullableTimestamp,
  planned_arrival_at: nullableTimestamp,
  actual_departure_at: nullableTimestamp,
  actual_arrival_at: nullableTimestamp,
  status: nullableString,
  delay_minutes: nullableInt,
  route_name: nullableString,
  route_code: nullableString,
  plate_number: nullableString,
  bus_name: nullableString,
});

export const busLocationSchema = z.object({
  id,
  plate_number: nullableString,
  internal_code: nullableString,
  bus_name: nullableString,
  last_latitude: nullableDecimal,
  last_longitude: nullableDecimal,
  last_gps_at: nullableTimestamp,
  last_speed_kmh: nullableDecimal,
  last_heading: nullableDecimal,
  last_accuracy: nullableDecimal,
});

export const routeStopsDataSchema = z.object({
  // The spec does not list the route object's fields: keep all of them and pick what we recognise when mapping.
  route: z.looseObject({}),
  items: z.array(routeStopSchema),
});

export const statusDataSchema = z.object({
  plan: z.string(),
  level: z.enum(['standard', 'business']),
  scopes: z.array(z.string()),
  rate_limit_per_minute: z.int().min(0),
});

export function successEnvelope<T extends z.ZodType>(dataSchema: T) {
  return z.object({
    success: z.literal(true),
    code: z.literal('OK'),
    trace_id: z.string().optional(),
    message: z.string().optional(),
    data: dataSchema,
    errors: z.array(z.unknown()),
    meta: metaSchema,
  });
}

export function pagedData<T extends z.ZodType>(itemSchema: T) {
  return z.object({
    items: z.array(itemSchema),
    pagination: paginationSchema,
  });
}

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  code: z.string(),
  trace_id: z.string(),
  message: z.string(),
  data: z.null(),
  errors: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  // The spec types error meta only as "object"; rate_limit is read from it when it happens to be there.
  meta: z.looseObject({}),
  error: z.object({
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    correlation_id: z.string(),
  }),
});

export type WireRateLimit = z.infer<typeof rateLimitSchema>;
export type WireMeta = z.infer<typeof metaSchema>;
export type WirePagination = z.infer<typeof paginationSchema>;
export type WireBus = z.infer<typeof busSchema>;
export type WireRoute = z.infer<typeof routeSchema>;
export type WireRouteStop = z.infer<typeof routeStopSchema>;
export type WireTrip = z.infer<typeof tripSchema>;
export type WireBusLocation = z.infer<typeof busLocationSchema>;
export type WireRouteStopsData = z.infer<typeof routeStopsDataSchema>;
export type WireStatusData = z.infer<typeof statusDataSchema>;
export type WireErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type WirePaged<T> = { items: T[]; pagination: WirePagination };

/** What a server may put on the wire (before normalization): for simulators and fixtures. */
export type WireBusInput = z.input<typeof busSchema>;
export type WireRouteInput = z.input<typeof routeSchema>;
export type WireRouteStopInput = z.input<typeof routeStopSchema>;
export type WireTripInput = z.input<typeof tripSchema>;
export type WireBusLocationInput = z.input<typeof busLocationSchema>;
export type WireStatusDataInput = z.input<typeof statusDataSchema>;
export type WireMetaInput = z.input<typeof metaSchema>;
export type WireErrorEnvelopeInput = z.input<typeof errorEnvelopeSchema>;
