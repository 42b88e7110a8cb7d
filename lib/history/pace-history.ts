import 'server-only';
import { sql } from 'drizzle-orm';
import type { EpochMs } from '@/lib/model';
import { rows, type HistoryDb } from './store';

// The recorded runs of earlier trips, for the pace profiles of lib/predictions (pace-seed.ts): each trip that ran
// in a period with the fixes its bus sent on it. Read a page at a time (the newest trips first, by first sight, through
// history_trips_first_seen; each trip's fixes through the (bus, fetched) index of history_bus_fixes), so a server
// reads a week of them in the background without one long statement.

export interface RecordedRunFix {
  lat: number;
  lon: number;
  gpsAt: EpochMs;
  speedKmh: number | null;
  heading: number | null;
  accuracy: number | null;
}

/** A trip as last recorded, and its bus's fixes on it in time order. */
export interface RecordedRun {
  tripId: number;
  routeId: number;
  direction: string | null;
  plannedDepartureAt: EpochMs;
  plannedArrivalAt: EpochMs;
  actualDepartureAt: EpochMs | null;
  actualArrivalAt: EpochMs | null;
  delayMinutes: number | null;
  firstSeenAt: EpochMs;
  fixes: RecordedRunFix[];
}

/** Where the next page starts: before this trip in (first seen, trip id) order. */
export interface RunCursor {
  firstSeenAt: EpochMs;
  tripId: number;
}

/** A trip's fixes are looked for this long before its planned departure and after its planned arrival. */
const FIX_MARGIN_MS = 2 * 3_600_000;

type Row = {
  trip_id: string | number;
  route_id: number;
  direction: string | null;
  planned_departure_at: string | number;
  planned_arrival_at: string | number;
  actual_departure_at: string | number | null;
  actual_arrival_at: string | number | null;
  delay_minutes: number | null;
  first_seen_at: string | number;
  gps_at: string | number | null;
  lat: number | null;
  lon: number | null;
  speed_kmh: number | null;
  heading: number | null;
  accuracy: number | null;
};

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/**
 * Up to `limit` trips first seen in [from, to) before `before` (newest first), with a route, a bus and a planned departure and
 * arrival, each with its bus's fixes on it (GPS time known); trips with no fix come with none.
 */
export async function recordedRuns(db: HistoryDb, q: { from: EpochMs; to: EpochMs; before: RunCursor | null; limit: number }): Promise<RecordedRun[]> {
  const before = q.before ?? { firstSeenAt: q.to, tripId: Number.MIN_SAFE_INTEGER };
  const got = await rows<Row>(
    db,
    sql`WITH t AS (
          SELECT trip_id, route_id, direction, bus_id, planned_departure_at, planned_arrival_at, actual_departure_at,
                 actual_arrival_at, delay_minutes, first_seen_at
            FROM history_trips
           WHERE first_seen_at >= ${q.from} AND first_seen_at < ${q.to}
             AND (first_seen_at < ${before.firstSeenAt} OR (first_seen_at = ${before.firstSeenAt} AND trip_id < ${before.tripId}))
             AND route_id IS NOT NULL AND bus_id IS NOT NULL
             AND planned_departure_at IS NOT NULL AND planned_arrival_at > planned_departure_at
           ORDER BY first_seen_at DESC, trip_id DESC
           LIMIT ${q.limit})
        SELECT t.trip_id, t.route_id, t.direction, t.planned_departure_at, t.planned_arrival_at, t.actual_departure_at,
               t.actual_arrival_at, t.delay_minutes, t.first_seen_at,
               f.gps_at, f.lat, f.lon, f.speed_kmh, f.heading, f.accuracy
          FROM t
          LEFT JOIN history_bus_fixes f
            ON f.bus_id = t.bus_id AND f.trip_id = t.trip_id AND f.gps_at IS NOT NULL
           AND f.fetched_at >= t.planned_departure_at - ${FIX_MARGIN_MS}
           AND f.fetched_at <= t.planned_arrival_at + ${FIX_MARGIN_MS}
         ORDER BY t.first_seen_at DESC, t.trip_id DESC, f.gps_at`,
  );
  const out: RecordedRun[] = [];
  let run: RecordedRun | null = null;
  for (const r of got) {
    const tripId = Number(r.trip_id);
    if (!run || run.tripId !== tripId) {
      run = {
        tripId,
        routeId: r.route_id,
        direction: r.direction,
        plannedDepartureAt: Number(r.planned_departure_at),
        plannedArrivalAt: Number(r.planned_arrival_at),
        actualDepartureAt: num(r.actual_departure_at),
        actualArrivalAt: num(r.actual_arrival_at),
        delayMinutes: r.delay_minutes === null ? null : Number(r.delay_minutes),
        firstSeenAt: Number(r.first_seen_at),
        fixes: [],
      };
      out.push(run);
    }
    if (r.gps_at !== null && r.lat !== null && r.lon !== null) {
      run.fixes.push({ lat: Number(r.lat), lon: Number(r.lon), gpsAt: Number(r.gps_at), speedKmh: r.speed_kmh === null ? null : Number(r.speed_kmh), heading: r.heading === null ? null : Number(r.heading), accuracy: r.accuracy === null ? null : Number(r.accuracy) });
    }
  }
  return out;
}
