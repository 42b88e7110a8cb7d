import { z } from 'zod';
import { EXCEPTION_RULES, EXCEPTION_SEVERITIES, type AdminWebhookTarget, type ExceptionHistoryResponse, type ExceptionRule, type ExceptionSeverity, type FleetException, type LiveExceptionsResponse, type WebhookDeliveriesResponse, type WebhookTestResult } from '@/lib/model/exceptions';
import type { HeadwaysResponse } from '@/lib/model/regularity';
import type { StopArrivalsResponse, TripPredictionsResponse } from '@/lib/model/predictions';
import { delayClass, epochMs, named, nullableNumber, nullableString, unpositionedTrip } from './schemas';

// The answers of the services beside the feed (exceptions, regularity, predictions) as zod schemas, each checked
// against its lib/model type by the compiler as in schemas.ts, and registered in the same COMPONENTS.

const int = z.number().int();

/** The rule and severity names, from the model's own lists. */
export const exceptionRule = z.enum(EXCEPTION_RULES as [ExceptionRule, ...ExceptionRule[]]);
export const exceptionSeverity = z.enum(EXCEPTION_SEVERITIES as [ExceptionSeverity, ...ExceptionSeverity[]]);

export const fleetException = named(
  'FleetException',
  z.object({
    id: z.string(),
    rule: exceptionRule,
    severity: exceptionSeverity,
    state: z.enum(['open', 'acknowledged', 'resolved']),
    subject: z.object({ busId: nullableNumber, tripId: nullableNumber, routeId: nullableNumber, routeCode: nullableString, busName: nullableString }),
    figures: z.object({ delayMinutes: z.number().optional(), offRouteM: z.number().optional(), stoppedMin: z.number().optional(), gpsAgeS: z.number().optional(), headwayRatio: z.number().optional() }),
    message: z.string(),
    since: epochMs,
    openedAt: epochMs,
    acknowledgedAt: epochMs.nullable(),
    acknowledgedBy: nullableString,
    note: nullableString,
    snoozedUntil: epochMs.nullable(),
    resolvedAt: epochMs.nullable(),
    seq: int.describe('1 when it opened, +1 at every transition'),
  }) satisfies z.ZodType<FleetException>,
  'An exception: a rule that holds for a bus, a trip, a route or the integration, with the figures that made it.',
);

const countsByRule = z.partialRecord(exceptionRule, int);

export const liveExceptionsResponse = named(
  'LiveExceptionsResponse',
  z.object({
    generatedAt: epochMs,
    canAct: z.boolean().describe('Whether this user may acknowledge and snooze (dispatcher and above)'),
    exceptions: z.array(fleetException.extend({ unread: z.boolean() })),
    countsByRule,
  }) satisfies z.ZodType<LiveExceptionsResponse>,
  'Every open or acknowledged exception, and the resolved ones of the last hour, as this user sees them.',
);

export const exceptionHistoryResponse = named(
  'ExceptionHistoryResponse',
  z.object({
    from: epochMs,
    to: epochMs,
    exceptions: z.array(fleetException),
    byRule: z.array(z.object({ rule: exceptionRule, count: int, acknowledged: int, medianAckS: nullableNumber, medianResolveS: nullableNumber })),
    truncated: z.boolean(),
  }) satisfies z.ZodType<ExceptionHistoryResponse>,
  'The exceptions opened in a period (from, to), with the time to acknowledge and to resolve by rule.',
);

const webhookEvent = z.enum(['exception.opened', 'exception.acknowledged', 'exception.resolved']);

export const webhookDeliveriesResponse = named(
  'WebhookDeliveriesResponse',
  z.object({
    targets: int,
    byState: z.record(z.string(), int),
    dead: z.array(z.object({ id: z.string(), target: z.string(), type: webhookEvent, exceptionId: z.string(), attempts: int, lastError: nullableString, createdAt: epochMs, diedAt: epochMs })),
  }) satisfies z.ZodType<WebhookDeliveriesResponse>,
);

export const adminWebhookTarget = named(
  'AdminWebhookTarget',
  z.object({
    id: int,
    url: z.string(),
    secretMasked: z.string().describe("The secret's last 4 characters behind dots (the whole secret is never returned)"),
    rules: z.array(exceptionRule).nullable().describe('The rules it wants; null for every rule'),
    minSeverity: exceptionSeverity.nullable().describe('The least severity it wants; null for every severity'),
    createdBy: z.string(),
    createdAt: epochMs,
    removedAt: epochMs.nullable(),
  }) satisfies z.ZodType<AdminWebhookTarget>,
);

export const webhookTestResult = named(
  'WebhookTestResult',
  z.object({
    delivery: z.string(),
    status: nullableNumber.describe("The receiver's HTTP status; null when it did not answer"),
    ok: z.boolean(),
    body: z.string().describe("The receiver's answer, at most 200 characters"),
    error: nullableString,
  }) satisfies z.ZodType<WebhookTestResult>,
);

const predictionBasis = z.enum(['gps', 'planned-departure', 'schedule']);
const placeBasis = z.enum(['fix', 'gps-estimate', 'schedule-estimate']);
const headwayBus = z.object({
  busId: int,
  tripId: int,
  label: z.string(),
  delayMinutes: nullableNumber,
  delayClass,
  basis: placeBasis,
  stale: z.boolean(),
  gpsAt: epochMs.nullable(),
  progressM: nullableNumber,
  motion: z.object({ fromM: z.number(), fromAt: epochMs, speedMps: z.number(), toM: z.number() }).nullable(),
  scheduledM: nullableNumber,
  layover: z.enum(['start', 'end']).nullable(),
  plannedDepartureAt: epochMs.nullable(),
  next: z
    .object({ stopId: int, stopName: z.string(), arrivalAt: epochMs, earliestAt: epochMs, latestAt: epochMs, basis: predictionBasis })
    .nullable()
    .optional()
    .describe("The trip's next stop and its predicted arrival (null when the trip has no prediction)"),
});

export const headwaysResponse = named(
  'HeadwaysResponse',
  z.object({
    at: epochMs,
    epoch: z.string(),
    version: int,
    config: z.object({ ghostAfterS: z.number(), bunchedRatio: z.number(), gappedRatio: z.number() }),
    routes: z.array(
      z.object({
        routeId: int,
        routeCode: nullableString,
        routeName: nullableString,
        directions: z.array(
          z.object({
            direction: z.string(),
            toward: nullableString,
            lengthM: z.number(),
            stops: z.array(z.object({ stopId: int, name: z.string(), stopOrder: int, m: z.number() })),
            buses: z.array(headwayBus),
            gaps: z.array(
              z.object({
                leaderTripId: int,
                followerTripId: int,
                distanceM: z.number(),
                headwayS: z.number(),
                paceMps: z.number(),
                paceSource: z.enum(['recent', 'scheduled']),
                scheduledS: nullableNumber,
                ratio: nullableNumber,
                cls: z.enum(['bunched', 'regular', 'gapped', 'unknown']),
              }),
            ),
            layover: z.array(headwayBus),
            offLine: z.array(headwayBus),
            ghosts: z.array(unpositionedTrip.extend({ reason: z.enum(['no-bus', 'never-located', 'not-located']), lastLocatedAt: epochMs.nullable(), scheduledM: nullableNumber })),
          }),
        ),
      }),
    ),
    unknownRoutes: z.array(z.string()),
  }) satisfies z.ZodType<HeadwaysResponse>,
  'Live headways per route and direction: buses by route-snapped progress, the gaps between them against the timetable, and ghost trips.',
);

/** The trip and bus a prediction is for: the same fields in a trip's predictions and in a stop's arrivals. */
const predictedTrip = z.object({
  tripId: int,
  routeId: nullableNumber,
  routeCode: nullableString,
  routeName: nullableString,
  direction: nullableString,
  headsign: nullableString,
  busId: nullableNumber,
  busName: nullableString,
});

export const tripPredictionsResponse = named(
  'TripPredictionsResponse',
  z.object({
    predictions: predictedTrip.extend({
      basis: predictionBasis,
      scheduleReason: z.enum(['no-gps', 'stale-fix', 'off-route', 'fix-before-trip']).nullable(),
      note: z.string(),
      delayMinutes: nullableNumber,
      plannedDepartureAt: epochMs.nullable(),
      at: epochMs,
      stops: z.array(
        z.object({
          stopId: int,
          stopName: z.string(),
          stopOrder: int,
          lat: z.number(),
          lon: z.number(),
          alongM: z.number(),
          arrivalAt: epochMs,
          earliestAt: epochMs.describe('About 1 arrival in 10 comes before it (p10)'),
          latestAt: epochMs.describe('About 1 arrival in 10 comes after it (p90)'),
          plannedAt: epochMs.nullable(),
        }),
      ),
    }),
  }) satisfies z.ZodType<TripPredictionsResponse>,
  "Predicted arrivals at a trip's remaining stops, with their p10–p90 range and what they rest on.",
);

export const stopArrivalsResponse = named(
  'StopArrivalsResponse',
  z.object({
    place: z.object({ name: z.string(), lat: z.number(), lon: z.number(), stopIds: z.array(int), routes: z.array(z.object({ routeId: int, code: nullableString, name: nullableString })) }),
    arrivals: z.array(
      predictedTrip.extend({
        stopId: int,
        arrivalAt: epochMs,
        earliestAt: epochMs,
        latestAt: epochMs,
        basis: predictionBasis,
      }),
    ),
    at: epochMs,
    pendingRoutes: int.describe('Routes serving the place whose stops the server has not loaded yet (their arrivals are missing)'),
  }) satisfies z.ZodType<StopArrivalsResponse>,
  'The next arrivals at a physical stop (route stops sharing a name within 30 m), soonest first.',
);
