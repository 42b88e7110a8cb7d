import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  busLocationSchema,
  busSchema,
  errorEnvelopeSchema,
  metaSchema,
  pagedData,
  routeSchema,
  routeStopSchema,
  routeStopsDataSchema,
  statusDataSchema,
  successEnvelope,
  tripSchema,
} from './schemas';
import { wireBus, wireBusLocation, wireError, wireMeta, wirePaged, wireRoute, wireRouteStop, wireStatus, wireSuccess, wireTrip } from '@/lib/testing/partner-fixtures';

function firstIssue(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  expect(r.success).toBe(false);
  const issue = r.error!.issues[0]!;
  return { path: issue.path.join('.'), message: issue.message };
}

describe('decimal fields', () => {
  const decimals = ['last_latitude', 'last_longitude', 'last_speed_kmh', 'last_heading', 'last_accuracy'] as const;

  it.each([
    ['40.7128', 40.7128],
    ['-73.9', -73.9],
    ['12', 12],
    ['+0.5', 0.5],
    ['.25', 0.25],
    [12.75, 12.75],
    [0, 0],
  ])('accepts %j as %d on every bus location decimal', (input, expected) => {
    for (const field of decimals) {
      const parsed = busLocationSchema.parse(wireBusLocation({ [field]: input }));
      expect(parsed[field]).toBe(expected);
    }
  });

  it('accepts null on every nullable decimal', () => {
    const parsed = busLocationSchema.parse(
      wireBusLocation({ last_latitude: null, last_longitude: null, last_speed_kmh: null, last_heading: null, last_accuracy: null }),
    );
    expect([parsed.last_latitude, parsed.last_longitude, parsed.last_speed_kmh, parsed.last_heading, parsed.last_accuracy]).toEqual([null, null, null, null, null]);
  });

  it('normalizes route distance_estimate from a string', () => {
    expect(routeSchema.parse(wireRoute({ distance_estimate: '12.5' })).distance_estimate).toBe(12.5);
    expect(routeSchema.parse(wireRoute({ distance_estimate: 3 })).distance_estimate).toBe(3);
    expect(routeSchema.parse(wireRoute({ distance_estimate: null })).distance_estimate).toBeNull();
  });

  it.each(['abc', '', '12,5', '1e5', 'NaN', ' 12', '--1', '1.2.3'])('rejects the non-decimal string %j, naming the field', (bad) => {
    const issue = firstIssue(busLocationSchema, wireBusLocation({ last_latitude: bad }));
    expect(issue.path).toBe('last_latitude');
    expect(issue.message).toMatch(/number or a decimal string/);
  });

  it.each([true, {}, [], Infinity, Number.NaN])('rejects %j where a decimal belongs', (bad) => {
    expect(firstIssue(busLocationSchema, wireBusLocation({ last_speed_kmh: bad })).path).toBe('last_speed_kmh');
  });

  it('keeps stop coordinates strict numbers (the spec lists no string form for them)', () => {
    expect(firstIssue(routeStopSchema, wireRouteStop({ latitude: '40.7' })).path).toBe('latitude');
  });
});

describe('is_start / is_end', () => {
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
  ])('reads %j as %j', (input, expected) => {
    const parsed = routeStopSchema.parse(wireRouteStop({ is_start: input, is_end: input }));
    expect(parsed.is_start).toBe(expected);
    expect(parsed.is_end).toBe(expected);
  });

  it.each([2, -1, '1', 'true', null])('rejects %j', (bad) => {
    const issue = firstIssue(routeStopSchema, wireRouteStop({ is_end: bad }));
    expect(issue.path).toBe('is_end');
    expect(issue.message).toMatch(/boolean or 0\/1/);
  });
});

describe('resources', () => {
  it('accepts null in every nullable field of a bus, trip and location', () => {
    const bus = busSchema.parse(
      wireBus({
        plate_number: null,
        internal_code: null,
        bus_name: null,
        seats_count: null,
        brand: null,
        model: null,
        year: null,
        current_status: null,
        status: null,
        current_route_id: null,
        last_gps_at: null,
      }),
    );
    expect(Object.entries(bus).filter(([, v]) => v !== null).map(([k]) => k)).toEqual(['id']);

    const trip = tripSchema.parse(
      Object.fromEntries(Object.entries(wireTrip()).map(([k, v]) => [k, k === 'id' ? v : null])),
    );
    expect(Object.entries(trip).filter(([, v]) => v !== null).map(([k]) => k)).toEqual(['id']);

    const route = routeSchema.parse(
      wireRoute({ code: null, start_name: null, end_name: null, distance_estimate: null, duration_estimate: null, status: null }),
    );
    expect(Object.entries(route).filter(([, v]) => v !== null).map(([k]) => k).sort()).toEqual(['id', 'name']);
  });

  it('drops unknown extra fields instead of failing', () => {
    const bus = busSchema.parse(wireBus({ colour: 'blue', nested: { a: 1 } }));
    expect(bus).not.toHaveProperty('colour');
    expect(bus).not.toHaveProperty('nested');
    const env = successEnvelope(busSchema).parse(wireSuccess(wireBus(), { extra_top: true, meta: wireMeta({ region: 'x' }) }));
    expect(env).not.toHaveProperty('extra_top');
    expect(env.meta).not.toHaveProperty('region');
  });

  it('keeps unknown status, direction, trip type and service kind values as they are', () => {
    const trip = tripSchema.parse(wireTrip({ status: 'teleporting', direction: 'sideways', trip_type: 'ghost', service_kind: 'night-owl' }));
    expect([trip.status, trip.direction, trip.trip_type, trip.service_kind]).toEqual(['teleporting', 'sideways', 'ghost', 'night-owl']);
    const bus = busSchema.parse(wireBus({ current_status: 'in_workshop', status: 'retired' }));
    expect([bus.current_status, bus.status]).toEqual(['in_workshop', 'retired']);
  });

  it.each([
    [busSchema, wireBus, 'id'],
    [routeSchema, wireRoute, 'name'],
    [routeStopSchema, wireRouteStop, 'stop_order'],
    [routeStopSchema, wireRouteStop, 'is_start'],
    [tripSchema, wireTrip, 'delay_minutes'],
    [busLocationSchema, wireBusLocation, 'last_gps_at'],
    [statusDataSchema, wireStatus, 'scopes'],
  ] as const)('names a missing required field (%#: %s)', (schema, factory, field) => {
    const input = factory();
    delete input[field];
    expect(firstIssue(schema as z.ZodType, input).path).toBe(field);
  });

  it('rejects wrong types outside the tolerant fields', () => {
    expect(firstIssue(busSchema, wireBus({ id: '1' })).path).toBe('id');
    expect(firstIssue(busSchema, wireBus({ seats_count: 40.5 })).path).toBe('seats_count');
    expect(firstIssue(tripSchema, wireTrip({ delay_minutes: '4' })).path).toBe('delay_minutes');
    expect(firstIssue(routeSchema, wireRoute({ duration_estimate: '45' })).path).toBe('duration_estimate');
    expect(firstIssue(busSchema, wireBus({ id: 0 })).path).toBe('id');
  });

  it('validates timestamps and trip dates', () => {
    expect(firstIssue(busSchema, wireBus({ last_gps_at: '2025-01-15T08:30:00Z' })).path).toBe('last_gps_at');
    expect(firstIssue(busSchema, wireBus({ last_gps_at: '2025-02-30 08:30:00' })).path).toBe('last_gps_at');
    expect(firstIssue(busSchema, wireBus({ last_gps_at: '2025-01-15 24:00:00' })).path).toBe('last_gps_at');
    expect(firstIssue(tripSchema, wireTrip({ trip_date: '2025-01-15 00:00:00' })).path).toBe('trip_date');
    expect(firstIssue(tripSchema, wireTrip({ planned_arrival_at: 1736930000 })).path).toBe('planned_arrival_at');
    expect(busSchema.parse(wireBus({ last_gps_at: '2024-02-29 23:59:59' })).last_gps_at).toBe('2024-02-29 23:59:59');
  });

  it('keeps every field of the route object of the stops payload', () => {
    const data = routeStopsDataSchema.parse({ route: { id: 7, name: 'Crosstown', colour: '#f00' }, items: [wireRouteStop()] });
    expect(data.route).toEqual({ id: 7, name: 'Crosstown', colour: '#f00' });
    expect(firstIssue(routeStopsDataSchema, { route: 'x', items: [] }).path).toBe('route');
  });
});

describe('status', () => {
  it('accepts any plan name but only the two levels', () => {
    expect(statusDataSchema.parse(wireStatus({ plan: 'API Enterprise' })).plan).toBe('API Enterprise');
    expect(firstIssue(statusDataSchema, wireStatus({ level: 'enterprise' })).path).toBe('level');
  });

  it('keeps unknown scope strings', () => {
    expect(statusDataSchema.parse(wireStatus({ scopes: ['buses:read', 'drivers:read'] })).scopes).toEqual(['buses:read', 'drivers:read']);
  });
});

describe('envelopes', () => {
  const busesEnvelope = successEnvelope(pagedData(busSchema));

  it('parses a paged success envelope and names the field of a broken item', () => {
    const good = wireSuccess(wirePaged([wireBus({ id: 1 }), wireBus({ id: 2 })]));
    expect(busesEnvelope.parse(good).data.items.map((b) => b.id)).toEqual([1, 2]);
    const bad = wireSuccess(wirePaged([wireBus(), wireBus(), wireBus({ last_gps_at: 'yesterday' })]));
    expect(firstIssue(busesEnvelope, bad).path).toBe('data.items.2.last_gps_at');
  });

  it('treats trace_id and message as optional and errors/meta as required', () => {
    const env = wireSuccess(wirePaged([]));
    delete env.trace_id;
    expect(busesEnvelope.safeParse(env).success).toBe(true);
    expect(busesEnvelope.parse(wireSuccess(wirePaged([]), { message: 'fine' })).message).toBe('fine');
    const noErrors = wireSuccess(wirePaged([]));
    delete noErrors.errors;
    expect(firstIssue(busesEnvelope, noErrors).path).toBe('errors');
    const noMeta = wireSuccess(wirePaged([]));
    delete noMeta.meta;
    expect(firstIssue(busesEnvelope, noMeta).path).toBe('meta');
  });

  it('requires success true and code OK', () => {
    expect(firstIssue(busesEnvelope, wireSuccess(wirePaged([]), { code: 'ok' })).path).toBe('code');
    expect(firstIssue(busesEnvelope, wireSuccess(wirePaged([]), { success: 'true' })).path).toBe('success');
  });

  it('checks meta: scope may be null, rate_limit values are integers', () => {
    expect(metaSchema.parse(wireMeta({ scope: 'buses:read' })).scope).toBe('buses:read');
    expect(firstIssue(metaSchema, wireMeta({ rate_limit: { limit: 60, remaining: '59', reset_at: 1 } })).path).toBe('rate_limit.remaining');
    expect(firstIssue(metaSchema, wireMeta({ rate_limit: { limit: 60, remaining: 59, reset_at: 1.5 } })).path).toBe('rate_limit.reset_at');
  });

  it('parses an error envelope with errors as an object or an array', () => {
    expect(errorEnvelopeSchema.parse(wireError({}, { errors: { page: ['must be >= 1'] } })).error.correlation_id).toBe('corr-1');
    expect(errorEnvelopeSchema.parse(wireError({}, { errors: [] })).errors).toEqual([]);
    expect(firstIssue(errorEnvelopeSchema, wireError({}, { data: {} })).path).toBe('data');
    expect(firstIssue(errorEnvelopeSchema, wireError({}, { errors: 'bad' })).path).toBe('errors');
  });
});
