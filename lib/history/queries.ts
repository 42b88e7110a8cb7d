import 'server-only';
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { BusTrackResponse, DelayThresholds, FleetMomentResponse, FleetMomentVehicle, HistoryFix, HistoryRoutesResponse, HistoryTripResponse } from '@/lib/model';
import type { TimeRule } from '@/lib/partner';
import { addDays } from '@/lib/time/calendar';
import type { StoreQueryTiming } from './query-timing';
import { periodRegularity, storedRegularity } from './regularity';
import { figuresOf, localDate, routeDaysFromTrips, storedRouteDays, type RouteDay } from './rollups';
import { budgetMinutes, recorderGaps, trips, tripDelayChanges, tripStatusChanges } from './schema';
import { rows, type HistoryDb } from './store';
import { fixFromRow, fixSelectList } from './fix-columns';
import { busIdsScan, num, tripFromRow } from './warm';

// The reads behind the history API and the ops pages. Each is bounded by what the API validated (a period of at
// most 400 days, a track of at most 24 h, one moment) and answers through an index.

/** How far back "the fleet at a moment" looks for a bus's last fix. */
export const FLEET_LOOKBACK_MS = 86_400_000;

export async function routesOverPeriod(
  db: HistoryDb,
  q: { from: string; to: string; routeIds: readonly number[] | null; thresholds: DelayThresholds; now: number; rule: TimeRule },
): Promise<HistoryRoutesResponse> {
  const today = localDate(q.now, q.rule);
  // The delay figures' days and the regularity rows: one indexed read each, by date, side by side.
  const [stored, regularity] = await Promise.all([storedRouteDays(db, q.from, q.to, q.routeIds), storedRegularity(db, q.from, q.to, q.routeIds)]);
  // Days not closed yet (today, yesterday until it closes, any day the recorder could not close) come from the
  // trips themselves, by the same rules.
  const closed = new Set(stored.map((d) => d.serviceDate));
  const open: string[] = [];
  for (let d = q.from; d <= q.to && open.length <= 400; d = addDays(d, 1)) if (!closed.has(d) && d >= addDays(today, -3)) open.push(d);
  const live = (await routeDaysFromTrips(db, open, q.rule)).filter((d) => !q.routeIds || q.routeIds.includes(d.routeId));
  const days: RouteDay[] = [...stored, ...live];

  const byRoute = new Map<number, RouteDay[]>();
  const byDate = new Map<string, RouteDay[]>();
  const hours = new Map<number, [number, number]>();
  for (const d of days) {
    (byRoute.get(d.routeId) ?? byRoute.set(d.routeId, []).get(d.routeId)!).push(d);
    (byDate.get(d.serviceDate) ?? byDate.set(d.serviceDate, []).get(d.serviceDate)!).push(d);
    for (const [h, [sum, n]] of Object.entries(d.hours)) {
      const acc = hours.get(Number(h)) ?? [0, 0];
      acc[0] += sum;
      acc[1] += n;
      hours.set(Number(h), acc);
    }
  }
  const datesByRoute = new Map([...byRoute].map(([id, ds]) => [id, new Set(ds.map((d) => d.serviceDate))]));
  const reg = periodRegularity(regularity, datesByRoute);
  const gaps = await db
    .select({ fromAt: recorderGaps.fromAt, toAt: recorderGaps.toAt, droppedRows: recorderGaps.droppedRows, reason: recorderGaps.reason })
    .from(recorderGaps)
    .where(and(lte(recorderGaps.fromAt, q.now), gte(recorderGaps.toAt, Date.parse(`${q.from}T00:00:00Z`) - 86_400_000)))
    .orderBy(asc(recorderGaps.fromAt))
    .limit(500);
  return {
    from: q.from,
    to: q.to,
    today,
    thresholds: q.thresholds,
    routes: [...byRoute.values()]
      .map((ds) => ({
        routeId: ds[0]!.routeId,
        routeCode: ds.find((d) => d.routeCode)?.routeCode ?? null,
        routeName: ds.find((d) => d.routeName)?.routeName ?? null,
        ...figuresOf(ds, q.thresholds),
        ...reg.route(ds[0]!.routeId),
      }))
      .sort((a, b) => a.routeId - b.routeId),
    days: [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, ds]) => ({ date, figures: figuresOf(ds, q.thresholds), regularity: reg.day(date) })),
    hours: [...hours.entries()].sort(([a], [b]) => a - b).map(([hour, [sum, n]]) => ({ hour, meanMin: sum / n, trips: n })),
    regularityHours: reg.hours(),
    gaps,
  };
}

/** Trips run longer than this are not real; it also bounds the trail's window. */
const TRIP_TRAIL_SLACK_MS = 30 * 60_000;

export async function recordedTrip(db: HistoryDb, id: number): Promise<HistoryTripResponse | null> {
  const [row] = await db.select().from(trips).where(eq(trips.tripId, id));
  if (!row) return null;
  const [delays, statuses] = await Promise.all([
    db.select({ at: tripDelayChanges.at, delayMinutes: tripDelayChanges.delayMinutes }).from(tripDelayChanges).where(eq(tripDelayChanges.tripId, id)).orderBy(asc(tripDelayChanges.at)),
    db.select({ at: tripStatusChanges.at, status: tripStatusChanges.status }).from(tripStatusChanges).where(eq(tripStatusChanges.tripId, id)).orderBy(asc(tripStatusChanges.at)),
  ]);
  let trail: HistoryFix[] = [];
  if (row.busId !== null) {
    const end = Math.max(row.lastSeenAt, row.finalAt ?? 0) + TRIP_TRAIL_SLACK_MS;
    const got = await rows<Record<string, unknown>>(
      db,
      sql`SELECT ${fixSelectList('f')} FROM history_bus_fixes f
           WHERE f.bus_id = ${row.busId} AND f.fetched_at >= ${row.firstSeenAt - TRIP_TRAIL_SLACK_MS} AND f.fetched_at <= ${end} AND f.trip_id = ${id}
           ORDER BY f.fetched_at LIMIT 5000`,
    );
    trail = got.map(fixFromRow);
  }
  return { trip: tripFromRow(row), firstSeenAt: row.firstSeenAt, lastSeenAt: row.lastSeenAt, finalAt: row.finalAt, finalFound: row.finalFound, delayChanges: delays, statusChanges: statuses, trail };
}

export async function busTrack(db: HistoryDb, busId: number, from: number, to: number): Promise<BusTrackResponse> {
  const got = await rows<Record<string, unknown>>(
    db,
    sql`SELECT ${fixSelectList('f')} FROM history_bus_fixes f
         WHERE f.bus_id = ${busId} AND f.fetched_at >= ${from} AND f.fetched_at <= ${to}
         ORDER BY f.fetched_at LIMIT 20000`,
  );
  return { busId, from, to, fixes: got.map(fixFromRow) };
}

/** A bus's last fix before the moment, with the trip and delay it had then. */
type FleetRowRaw = Record<string, unknown> & {
  known_trip: string | number | null;
  route_id: number | null;
  route_code: string | null;
  route_name: string | null;
  direction: string | null;
  status: string | null;
  delay_then: number | null;
};

/**
 * Every bus as Fleetmap knew it at `at`: one statement, so one round trip. The buses come from the bus list
 * (history_buses), each bus's last fix before `at` (within FLEET_LOOKBACK_MS) is one probe of the (bus, fetched)
 * index, its trip one probe of the trips' key and the trip's delay then one probe of the delay changes' key.
 */
export async function fleetAt(db: HistoryDb, at: number, routeIds: readonly number[] | null = null): Promise<FleetMomentResponse> {
  // The span the store keeps is read beside the moment (one round trip on a pool), not after it.
  const [got, recorded] = await Promise.all([
    rows<FleetRowRaw>(
      db,
      sql`SELECT ${fixSelectList('f')},
                 t.trip_id AS known_trip, t.route_id, t.route_code, t.route_name, t.direction, t.status, d.delay_minutes AS delay_then
            FROM (${busIdsScan(at, at - FLEET_LOOKBACK_MS)}) b
            CROSS JOIN LATERAL (
              SELECT * FROM history_bus_fixes f
               WHERE f.bus_id = b.bus_id AND f.fetched_at <= ${at} AND f.fetched_at > ${at - FLEET_LOOKBACK_MS}
               ORDER BY f.fetched_at DESC LIMIT 1) f
            LEFT JOIN history_trips t ON t.trip_id = f.trip_id
            LEFT JOIN LATERAL (
              SELECT c.delay_minutes FROM history_trip_delay_changes c
               WHERE c.trip_id = f.trip_id AND c.at <= ${at}
               ORDER BY c.at DESC LIMIT 1) d ON true
           ORDER BY f.bus_id`,
    ),
    recordedSpan(db),
  ]);
  const vehicles: FleetMomentVehicle[] = [];
  for (const r of got) {
    const tripId = num(r.known_trip);
    if (routeIds && (tripId === null || r.route_id === null || !routeIds.includes(r.route_id))) continue;
    vehicles.push({
      ...fixFromRow(r),
      trip: tripId === null ? null : { tripId, routeId: r.route_id, routeCode: r.route_code, routeName: r.route_name, direction: r.direction, status: r.status, delayMinutes: r.delay_then },
    });
  }
  return { at, vehicles, recorded };
}

/** From the oldest fix the store keeps to the newest; null before the first. One read of the bus list. */
async function recordedSpan(db: HistoryDb): Promise<FleetMomentResponse['recorded']> {
  const [span] = await rows<{ from_at: string | number | null; to_at: string | number | null }>(db, sql`SELECT min(first_fetched_at) AS from_at, max(last_fetched_at) AS to_at FROM history_buses`);
  return span?.from_at == null || span.to_at == null ? null : { from: Number(span.from_at), to: Number(span.to_at) };
}

// --- For the ops pages (/fleet, /status) -------------------------------------------------------------------

/** Each bus's last recorded trip (the one that started last) and when it was last seen on it. */
export async function lastOnTrip(db: HistoryDb, busIds: readonly number[]): Promise<Map<number, { tripId: number; routeCode: string | null; lastSeenAt: number }>> {
  if (busIds.length === 0) return new Map();
  const got = await rows<{ bus_id: number; trip_id: string | number; route_code: string | null; last_seen_at: string | number }>(
    db,
    sql`SELECT b.bus_id, t.trip_id, t.route_code, t.last_seen_at
          FROM unnest(ARRAY[${sql.join(busIds.map((b) => sql`${b}`), sql`, `)}]::int[]) AS b(bus_id)
          CROSS JOIN LATERAL (SELECT trip_id, route_code, last_seen_at FROM history_trips t
                               WHERE t.bus_id = b.bus_id ORDER BY t.first_seen_at DESC LIMIT 1) t`,
  );
  return new Map(got.map((r) => [Number(r.bus_id), { tripId: Number(r.trip_id), routeCode: r.route_code, lastSeenAt: Number(r.last_seen_at) }]));
}

/** Upstream requests per minute by kind and lane, in [from, to). */
export async function budgetPerMinute(db: HistoryDb, from: number, to: number) {
  return db
    .select()
    .from(budgetMinutes)
    .where(and(gte(budgetMinutes.minute, from), sql`${budgetMinutes.minute} < ${to}`))
    .orderBy(asc(budgetMinutes.minute), asc(budgetMinutes.kind), desc(budgetMinutes.lane))
    .limit(100_000);
}

// Each read the pages use, timed (lib/history/query-timing.ts: fleetmap_store_query_duration_seconds). Server start
// makes one set with the context's timing (the context's `storeReads`); the routes read through it.
export function timedReads(timing: StoreQueryTiming) {
  return {
    routesOverPeriod: timing.time('routes_over_period', routesOverPeriod),
    recordedTrip: timing.time('recorded_trip', recordedTrip),
    busTrack: timing.time('bus_track', busTrack),
    fleetAt: timing.time('fleet_at', fleetAt),
    lastOnTrip: timing.time('last_on_trip', lastOnTrip),
  };
}

export type StoreReads = ReturnType<typeof timedReads>;
