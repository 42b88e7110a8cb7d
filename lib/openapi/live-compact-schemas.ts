import { z } from 'zod';
import type { CompactDelta, CompactFull, CompactPositions, CompactSameRests, CompactStrings, CompactTrips, CompactUnpositioned, CompactVehicles } from '@/lib/model';
import { LIVE_COMPACT_SHAPE } from '@/lib/model';
import { epochMs, health, liveHealth, named, nullableNumber } from './schemas';

// The compact form of /api/live (`?shape=compact`, lib/model/live-compact.ts, docs/live-compact.md), as the OpenAPI
// document describes it: columns of equal length, checked against the model's types by the compiler.

const ints = z.array(z.number().int());
const nullableInts = z.array(z.number().int().nullable());
const strings = named(
  'CompactStrings',
  z.object({ x: z.string(), v: z.array(z.union([z.string(), z.number().int()]).nullable()) }) satisfies z.ZodType<CompactStrings>,
  'A column of strings: each is x followed by its rest in v, or null. A whole number >= 0 stands for its digits; a negative one, -k, for one more than the number of the row k rows before.',
);
const sameRests = named(
  'CompactSameRests',
  z.object({ x: z.string(), restsOf: z.literal('n') }) satisfies z.ZodType<CompactSameRests>,
  'A column of strings whose rests are those of the column restsOf names, row for row, each after this column\'s own x.',
);

const compactTrips = named(
  'CompactTrips',
  z.object({ r: ints, d: nullableInts, st: nullableInts, dm: z.array(nullableNumber), dc: ints, pd: nullableInts, pa: nullableInts, ad: nullableInts, aa: nullableInts }) satisfies z.ZodType<CompactTrips>,
  'Trip columns: route (index into r), direction and status (indices into s), delay minutes, delay class (0 early, 1 on-time, 2 late, 3 unknown), planned departure (s from t0), planned arrival (s from the planned departure), actual departure (s from the planned departure), actual arrival (s from the planned arrival); a time whose base is null counts from t0.',
);

const positionColumns = { id: ints, lat: nullableInts, lon: nullableInts, hd: nullableInts, sp: nullableInts, ac: nullableInts, g: nullableInts, f: nullableInts };

const compactPositions = named(
  'CompactPositions',
  z.object(positionColumns) satisfies z.ZodType<CompactPositions>,
  'Bus columns sorted by busId: id as the difference from the row before, lat and lon in 1e-5 degrees from the origin o, heading, speed (km/h) and accuracy whole, gpsAt in seconds from fetchedAt (from t0 when fetchedAt is null), fetchedAt in seconds from t0.',
);

const compactVehicles = named(
  'CompactVehicles',
  z.object({ ...positionColumns, p: strings, n: strings, c: z.union([strings, sameRests]), t: nullableInts, trips: compactTrips }) satisfies z.ZodType<CompactVehicles>,
  'Buses in full: their positions, plate, name, internal code and tripId (as the difference from the last non-null one before it); trips holds one row per non-null tripId, in order.',
);

const compactUnpositioned = named(
  'CompactUnpositioned',
  z.object({ id: ints, b: nullableInts, p: strings, n: strings, trips: compactTrips }) satisfies z.ZodType<CompactUnpositioned>,
  'Unpositioned trips sorted by tripId: id as the difference from the row before, bus id, plate and name, and their trip columns.',
);

const common = {
  shape: z.literal(LIVE_COMPACT_SHAPE),
  epoch: z.string(),
  version: z.number().int(),
  generatedAt: epochMs,
  t0: z.number().int().describe('The base second (epoch seconds) every time counts from'),
  o: z.tuple([z.number().int(), z.number().int()]).describe('The origin latitudes and longitudes count from, in 1e-5 degrees'),
  r: z.array(z.union([z.number(), z.string()]).nullable()).describe('Routes, flat: routeId, routeCode, routeName, then the next route'),
  s: z.array(z.string()).describe('Directions and statuses'),
  v: compactVehicles,
  u: compactUnpositioned,
  health: liveHealth,
  fullHealth: health.optional().describe('The full health, for administrators only'),
  thresholds: z.object({ lateMin: z.number(), earlyMin: z.number() }),
};

export const liveCompactFull = named(
  'LiveCompactFull',
  z.object({ kind: z.literal('full'), ...common }) satisfies z.ZodType<CompactFull>,
  'The whole live snapshot in the compact form (?shape=compact); its ETag is W/"<epoch>-<version>.c".',
);

export const liveCompactDelta = named(
  'LiveCompactDelta',
  z.object({ kind: z.literal('delta'), ...common, since: z.number().int(), m: compactPositions, removedBusIds: ints, removedTripIds: ints }) satisfies z.ZodType<CompactDelta>,
  'What changed since the version asked for, in the compact form: buses changed in full (v), buses that only moved (m, their trip and names unchanged), unpositioned trips changed (u), those removed.',
);
