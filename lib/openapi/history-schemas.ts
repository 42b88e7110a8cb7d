import { z } from 'zod';
import type { BusTrackResponse, DelayFigures, FleetMomentResponse, HistoryFix, HistoryRegularity, HistoryRoutesResponse, HistoryTripResponse, LastTripsResponse } from '@/lib/model';
import { epochMs, named, nullableNumber, nullableString, thresholds, trip } from './schemas';

// The recorder's answers (/api/history/*, /api/buses/last-trips) as zod schemas, each checked against its lib/model
// type by the compiler and registered in COMPONENTS like those of schemas.ts.

export const lastTripsResponse = named(
  'LastTripsResponse',
  z.union([z.object({ recorded: z.literal(false) }), z.object({ recorded: z.literal(true), byBus: z.record(z.string(), z.object({ tripId: z.number().int(), routeCode: nullableString, lastSeenAt: epochMs })) })]) satisfies z.ZodType<LastTripsResponse>,
);

const delayFigures = z.object({
  activeTrips: z.number(),
  knownDelay: z.number(),
  unknownDelay: z.number(),
  early: z.number(),
  onTime: z.number(),
  late: z.number(),
  meanMin: nullableNumber,
  medianMin: nullableNumber,
  p90Min: nullableNumber,
  worstMin: nullableNumber,
  onTimeShare: nullableNumber,
}) satisfies z.ZodType<DelayFigures>;

export const historyFix = named(
  'HistoryFix',
  z.object({ busId: z.number().int(), gpsAt: epochMs.nullable(), fetchedAt: epochMs, lat: z.number(), lon: z.number(), heading: nullableNumber, speedKmh: nullableNumber, accuracy: nullableNumber, tripId: nullableNumber }) satisfies z.ZodType<HistoryFix>,
);

const historyRegularity = named(
  'HistoryRegularity',
  z.object({
    derivation: z.enum(['derived', 'partial', 'not-derived']),
    daysNotDerived: z.number().int(),
    samples: z.number().int().nullable(),
    cvH: nullableNumber,
    awtS: nullableNumber,
    swtS: nullableNumber,
    ewtS: nullableNumber,
    bunchedShare: nullableNumber,
    gappedShare: nullableNumber,
    ghostTripMinutes: nullableNumber,
  }) satisfies z.ZodType<HistoryRegularity>,
  'Headway regularity over a period from the recorded passing times (cv_h, AWT, SWT, EWT in seconds, bunched and gapped shares, ghost trip-minutes). Days recorded before the derivation existed are not derived: null, never zero.',
);

export const historyRoutesResponse = named(
  'HistoryRoutesResponse',
  z.object({
    from: z.string(),
    to: z.string(),
    today: z.string(),
    thresholds,
    routes: z.array(
      delayFigures.extend({
        routeId: z.number().int(),
        routeCode: nullableString,
        routeName: nullableString,
        regularity: historyRegularity,
        directions: z.array(z.object({ direction: z.string(), regularity: historyRegularity })),
      }),
    ),
    days: z.array(z.object({ date: z.string(), figures: delayFigures, regularity: historyRegularity })),
    hours: z.array(z.object({ hour: z.number().int(), meanMin: z.number(), trips: z.number() })),
    regularityHours: z.array(z.object({ hour: z.number().int(), ewtS: nullableNumber, samples: z.number().int() })),
    gaps: z.array(z.object({ fromAt: epochMs, toAt: epochMs, droppedRows: z.number(), reason: z.string() })),
  }) satisfies z.ZodType<HistoryRoutesResponse>,
);

export const historyTripResponse = named(
  'HistoryTripResponse',
  z.object({
    trip,
    firstSeenAt: epochMs,
    lastSeenAt: epochMs,
    finalAt: epochMs.nullable(),
    finalFound: z.boolean().nullable(),
    delayChanges: z.array(z.object({ at: epochMs, delayMinutes: nullableNumber })),
    statusChanges: z.array(z.object({ at: epochMs, status: nullableString })),
    trail: z.array(historyFix),
  }) satisfies z.ZodType<HistoryTripResponse>,
);

export const busTrackResponse = named('BusTrackResponse', z.object({ busId: z.number().int(), from: epochMs, to: epochMs, fixes: z.array(historyFix) }) satisfies z.ZodType<BusTrackResponse>);

export const fleetMomentResponse = named(
  'FleetMomentResponse',
  z.object({
    at: epochMs,
    vehicles: z.array(
      historyFix.extend({
        trip: z
          .object({ tripId: z.number().int(), routeId: nullableNumber, routeCode: nullableString, routeName: nullableString, direction: nullableString, status: nullableString, delayMinutes: nullableNumber })
          .nullable(),
      }),
    ),
    recorded: z.object({ from: epochMs, to: epochMs }).nullable(),
  }) satisfies z.ZodType<FleetMomentResponse>,
);
