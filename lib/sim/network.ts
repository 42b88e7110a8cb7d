import { z } from 'zod';
import { polyline, type Polyline } from '../geo/polyline';
import { distanceM } from '../geo/sphere';

// The network file format (lib/sim/data/manhattan-network.json) and its preparation for the simulator:
// route ids 1..N in file order, shapes turned into measured polylines, stop timing kept as GTFS gave it.

const stopSchema = z.object({
  stopId: z.string().min(1),
  name: z.string().min(1),
  lon: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  offsetS: z.number().int().nonnegative(),
  distM: z.number().nonnegative(),
});

const directionSchema = z.object({
  directionId: z.union([z.literal(0), z.literal(1)]),
  headsign: z.string(),
  shapeLengthM: z.number().positive(),
  shape: z.array(z.tuple([z.number(), z.number()])).min(2),
  stops: z.array(stopSchema).min(2),
  tripsPerHour: z.array(z.number().nonnegative()).length(24),
});

const routeSchema = z.object({
  routeId: z.string().min(1),
  shortName: z.string().min(1),
  longName: z.string(),
  color: z.string(),
  directions: z.array(directionSchema).min(1).max(2),
});

export const networkDataSchema = z.object({
  source: z.string(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  routes: z.array(routeSchema).min(1),
});

export type NetworkData = z.infer<typeof networkDataSchema>;
export type NetworkStop = z.infer<typeof stopSchema>;

export type ServiceKind = 'local' | 'limited' | 'select';

export interface SimStop {
  name: string;
  lon: number;
  lat: number;
}

export interface SimDirection {
  directionId: 0 | 1;
  headsign: string;
  line: Polyline;
  stops: SimStop[];
  /** Planned seconds from departure to each stop (GTFS offsets, never decreasing). */
  offsetS: Int32Array;
  /** Metres along the line of each stop (never decreasing, within the line). */
  distM: Float64Array;
  durationS: number;
  /** Weekday departures by local hour. */
  tripsPerHour: number[];
}

export interface SimRoute {
  /** Wire id: 1..N in the file's order. */
  id: number;
  index: number;
  code: string;
  name: string;
  color: string;
  serviceKind: ServiceKind;
  directions: SimDirection[];
}

export interface SimNetwork {
  source: string;
  bbox: [number, number, number, number];
  routes: SimRoute[];
  /** The quietest local hour of the day: service days run from it to the same hour next day. */
  serviceDayStartHour: number;
  /** The longest planned trip, seconds. */
  maxTripS: number;
}

function routeServiceKind(code: string, name: string): ServiceKind {
  // MTA marks Select Bus Service with "+"/"-SBS" and limited-stop routes with "LTD".
  if (/\+|SBS/i.test(code)) return 'select';
  if (/\bLTD\b/i.test(name) || /LTD/i.test(code)) return 'limited';
  return 'local';
}

function prepareDirection(d: NetworkData['routes'][number]['directions'][number]): SimDirection {
  const line = polyline(d.shape, d.shapeLengthM);
  const offsetS = new Int32Array(d.stops.length);
  const distM = new Float64Array(d.stops.length);
  let maxOffset = 0;
  let maxDist = 0;
  d.stops.forEach((s, i) => {
    // The data promises order; clamping keeps the simulator monotonic even if a future file slips.
    maxOffset = Math.max(maxOffset, s.offsetS - (d.stops[0]?.offsetS ?? 0));
    maxDist = Math.min(line.lengthM, Math.max(maxDist, s.distM));
    offsetS[i] = maxOffset;
    distM[i] = maxDist;
  });
  return {
    directionId: d.directionId,
    headsign: d.headsign,
    line,
    stops: d.stops.map((s) => ({ name: s.name, lon: s.lon, lat: s.lat })),
    offsetS: paceOffsets(offsetS, distM),
    distM,
    durationS: Math.max(60, offsetS[offsetS.length - 1]!),
    tripsPerHour: d.tripsPerHour.slice(),
  };
}

/** Fastest a bus is planned to go between stops (m/s, ~45 km/h), and the least time it spends at a stop. */
const MAX_PLANNED_SPEED_MS = 12.5;
const MIN_STOP_S = 10;

/**
 * GTFS times are often coarse at the ends of a route (several stops in the same minute), which would make a
 * bus jump hundreds of metres between fixes. Keep the trip's total time, but give every segment at least the
 * time it needs at MAX_PLANNED_SPEED_MS, taking it proportionally from the segments that have slack.
 */
export function paceOffsets(offsetS: Int32Array, distM: Float64Array): Int32Array {
  const n = offsetS.length;
  const total = offsetS[n - 1]!;
  const interval = Array.from({ length: n - 1 }, (_, i) => offsetS[i + 1]! - offsetS[i]!);
  const needed = interval.map((_, i) => (distM[i + 1]! - distM[i]!) / MAX_PLANNED_SPEED_MS + (i > 0 ? MIN_STOP_S : 0));
  const sumNeeded = needed.reduce((a, b) => a + b, 0);
  let paced: number[];
  if (sumNeeded >= total) {
    paced = needed.map((m) => (m * total) / sumNeeded);
  } else {
    // Find the share f of the original times such that sum(max(needed, f * interval)) == total.
    let lo = 0;
    let hi = 1;
    for (let it = 0; it < 50; it++) {
      const f = (lo + hi) / 2;
      const sum = interval.reduce((acc, x, i) => acc + Math.max(needed[i]!, f * x), 0);
      if (sum > total) hi = f;
      else lo = f;
    }
    paced = interval.map((x, i) => Math.max(needed[i]!, lo * x));
  }
  const out = new Int32Array(n);
  let acc = 0;
  for (let i = 1; i < n; i++) {
    acc += paced[i - 1]!;
    out[i] = Math.min(total, Math.round(acc));
  }
  out[n - 1] = total;
  return out;
}

/** Validates a network object and prepares it. Throws with the path of the first problems on bad data. */
export function prepareNetwork(data: unknown): SimNetwork {
  const parsed = networkDataSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`Invalid simulator network: ${problems.join('; ')}`);
  }
  const raw = parsed.data;
  const routes: SimRoute[] = raw.routes.map((r, index) => ({
    id: index + 1,
    index,
    code: r.shortName,
    name: r.longName || r.shortName,
    color: r.color,
    serviceKind: routeServiceKind(r.shortName, r.longName),
    directions: r.directions.map(prepareDirection).sort((a, b) => a.directionId - b.directionId),
  }));
  const byHour = Array.from({ length: 24 }, (_, h) => routes.reduce((n, r) => n + r.directions.reduce((m, d) => m + d.tripsPerHour[h]!, 0), 0));
  // Prefer the small hours on ties: a service day that starts at 03:00 is how transit agencies count.
  let quietest = 3;
  for (const h of [3, 4, 2, 5, 1, 0]) if (byHour[h]! < byHour[quietest]!) quietest = h;
  const maxTripS = Math.max(...routes.flatMap((r) => r.directions.map((d) => d.durationS)));
  return { source: raw.source, bbox: raw.bbox, routes, serviceDayStartHour: quietest, maxTripS };
}

/** Where a direction's trips end (its last stop), and where they start. */
export function terminalOf(d: SimDirection, which: 'start' | 'end'): SimStop {
  return which === 'start' ? d.stops[0]! : d.stops[d.stops.length - 1]!;
}

/** Seconds a bus needs to drive empty between two points in town (crow-flies at 18 km/h plus a margin). */
export function deadheadS(a: { lon: number; lat: number }, b: { lon: number; lat: number }): number {
  const m = distanceM(a.lon, a.lat, b.lon, b.lat);
  return m < 50 ? 0 : Math.round(m / 5 + 120);
}
