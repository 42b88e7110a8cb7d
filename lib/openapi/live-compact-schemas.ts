import { z } from 'zod';
import type { CompactBusTrips, CompactDelta, CompactFull, CompactNamedVehicles, CompactPositions, CompactRoster, CompactSameRests, CompactStrings, CompactTrips, CompactUnpositioned, CompactVehicles } from '@/lib/model';
import { LIVE_COMPACT_SHAPE, LIVE_ROSTER_SHAPE } from '@/lib/model';
import { epochMs, health, liveHealth, named, nullableNumber } from './schemas';

// The compact form of /api/live (`?shape=compact`, lib/model/live-compact.ts, docs/live-compact.md) and its roster
// (`?shape=roster`, lib/model/live-roster.ts), as the OpenAPI document describes them: columns of equal length, checked against the model's types by the compiler.

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

const tripColumns = { r: ints, d: nullableInts, st: nullableInts, dm: z.array(nullableNumber), dc: ints, pd: nullableInts, pa: nullableInts, ad: nullableInts, aa: nullableInts };
const TRIP_COLUMNS =
  'route (index into r), direction and status (indices into s), delay minutes, delay class (0 early, 1 on-time, 2 late, 3 unknown), planned departure (s from the last non-null one of the rows before, the first from t0), planned arrival (s from the planned departure), actual departure (s from the planned departure), actual arrival (s from the planned arrival); a time whose base is null counts from t0';

const compactTrips = named('CompactTrips', z.object(tripColumns) satisfies z.ZodType<CompactTrips>, `Trip columns, rows sorted by tripId: ${TRIP_COLUMNS}.`);

const compactBusTrips = named(
  'CompactBusTrips',
  z.object({ ...tripColumns, id: ints, b: ints }) satisfies z.ZodType<CompactBusTrips>,
  `Buses' trips, rows sorted by tripId: id as the difference from the row before, b the row of its bus in the bus columns, then ${TRIP_COLUMNS}.`,
);

const positionColumns = { id: ints, lat: nullableInts, lon: nullableInts, hd: nullableInts, sp: nullableInts, ac: nullableInts, g: nullableInts, f: nullableInts };

const compactPositions = named(
  'CompactPositions',
  z.object(positionColumns) satisfies z.ZodType<CompactPositions>,
  'Bus columns sorted by busId: id as the difference from the row before, lat and lon in 1e-5 degrees from the origin o, heading, speed (km/h) and accuracy whole, g the age in seconds of the fix when fetched (gpsAt before fetchedAt, before t0 when fetchedAt is null), f the age in seconds of the fetch at t0 (fetchedAt before t0).',
);

const compactVehicles = named(
  'CompactVehicles',
  z.object({ ...positionColumns, trips: compactBusTrips }) satisfies z.ZodType<CompactVehicles>,
  "A full answer's buses: their positions and their trips (one row per bus on a trip); their plates and names are the roster's.",
);

const nameColumns = { p: strings, n: strings, c: z.union([strings, sameRests]) };

const compactNamedVehicles = named(
  'CompactNamedVehicles',
  z.object({ ...positionColumns, ...nameColumns, trips: compactBusTrips }) satisfies z.ZodType<CompactNamedVehicles>,
  "A delta's buses new or changed, in full: their positions, plate, name, internal code and trips.",
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
  u: compactUnpositioned,
  health: liveHealth,
  fullHealth: health.optional().describe('The full health, for administrators only'),
  thresholds: z.object({ lateMin: z.number(), earlyMin: z.number() }),
};

export const liveCompactFull = named(
  'LiveCompactFull',
  z.object({ kind: z.literal('full'), ...common, roster: z.string().describe('The version of the roster (?shape=roster) that holds every bus\'s plate and names'), v: compactVehicles }) satisfies z.ZodType<CompactFull>,
  'The whole live snapshot in the compact form (?shape=compact), its buses\' plates and names left to the roster it names; its ETag is W/"<epoch>-<version>.c".',
);

export const liveCompactDelta = named(
  'LiveCompactDelta',
  z.object({ kind: z.literal('delta'), ...common, since: z.number().int(), v: compactNamedVehicles, m: compactPositions, removedBusIds: ints, removedTripIds: ints }) satisfies z.ZodType<CompactDelta>,
  'What changed since the version asked for, in the compact form: buses changed in full (v), buses that only moved (m, their trip and names unchanged), unpositioned trips changed (u), those removed.',
);

export const liveRoster = named(
  'LiveRoster',
  z.object({ shape: z.literal(LIVE_ROSTER_SHAPE), version: z.string(), id: ints, ...nameColumns }) satisfies z.ZodType<CompactRoster>,
  'What belongs to each bus of the live view and not to the moment (?shape=roster): plate, name and internal code, one row per bus sorted by busId (id as the difference from the row before). A full compact answer names its version; roster=<version> asks for that one while the server keeps it, else the newest is answered. Its ETag is W/"r-<version>".',
);
