import 'server-only';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { FixEvent, WarmState } from '@/lib/fleet';
import type { Trip } from '@/lib/model';
import { fixFromRow, fixSelectList } from './fix-columns';
import { recorderState, trips } from './schema';
import { rows, type HistoryDb } from './store';
import { WALK_AT_KEY } from './writes';

// What a restarted server serves before its first upstream answer: each bus's newest fix and the trips of the
// last complete walk, with their true times (the feed draws them as old as they are).

export const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** The buses with a fix fetched in (since, at]: a read of the small bus list the recorder keeps. */
export function busIdsScan(at: number, since: number) {
  return sql`SELECT bus_id FROM history_buses WHERE first_fetched_at <= ${at} AND last_fetched_at > ${since}`;
}

/**
 * The newest fix of every bus fetched at or before `at` and after `since`. The bus ids come from the bus list,
 * then each bus's newest fix is one probe of the (bus, fetched) index: a few milliseconds per thousand buses
 * however many days the store holds.
 */
export async function fixesAt(db: HistoryDb, at: number, since: number, busIds?: readonly number[]): Promise<FixEvent[]> {
  const buses = busIds
    ? sql`SELECT unnest(ARRAY[${sql.join(busIds.map((b) => sql`${b}`), sql`, `)}]::int[]) AS bus_id`
    : busIdsScan(at, since);
  if (busIds && busIds.length === 0) return [];
  const got = await rows<Record<string, unknown>>(
    db,
    sql`SELECT ${fixSelectList('f')} FROM (${buses}) b
          CROSS JOIN LATERAL (
            SELECT * FROM history_bus_fixes f
             WHERE f.bus_id = b.bus_id AND f.fetched_at <= ${at} AND f.fetched_at > ${since}
             ORDER BY f.fetched_at DESC LIMIT 1) f
         ORDER BY f.bus_id`,
  );
  return got.map(fixFromRow);
}

/** Longer than any trip stays on /trips/active: bounds a read by recency through the index on first sighting. */
export const TRIP_LISTED_AT_MOST_MS = 2 * 86_400_000;

/** Trips last seen at or after `at` (last_seen_at has no index, so that a walk's updates stay in place). */
function listedSince(at: number) {
  return and(gte(trips.firstSeenAt, at - TRIP_LISTED_AT_MOST_MS), gte(trips.lastSeenAt, at));
}

export function tripFromRow(r: typeof trips.$inferSelect): Trip {
  return {
    id: r.tripId,
    routeId: r.routeId,
    busId: r.busId,
    tripDate: r.serviceDate,
    direction: r.direction,
    tripType: r.tripType,
    serviceKind: r.serviceKind,
    plannedDepartureAt: r.plannedDepartureAt,
    plannedArrivalAt: r.plannedArrivalAt,
    actualDepartureAt: r.actualDepartureAt,
    actualArrivalAt: r.actualArrivalAt,
    status: r.status,
    delayMinutes: r.delayMinutes,
    routeName: r.routeName,
    routeCode: r.routeCode,
    plateNumber: r.plateNumber,
    busName: r.busName,
  };
}

export async function loadWarmState(db: HistoryDb, now: number, positionsDays: number): Promise<WarmState> {
  const fixes = await fixesAt(db, now, now - positionsDays * 86_400_000);
  const [walk] = await db.select({ value: recorderState.value }).from(recorderState).where(eq(recorderState.key, WALK_AT_KEY));
  if (!walk) return { fixes, trips: [], tripsFetchedAt: null };
  const open = await db.select().from(trips).where(listedSince(walk.value));
  // A trip whose final lookup already answered has left the list, even if the walk that missed it was not stored.
  return { fixes, trips: open.filter((t) => t.finalAt === null).map(tripFromRow), tripsFetchedAt: walk.value };
}

/** What the trips of the last hours were, for the recorder's change detection after a restart. */
export async function recentTripStates(db: HistoryDb, since: number) {
  return db.select({ tripId: trips.tripId, status: trips.status, delayMinutes: trips.delayMinutes, lastSeenAt: trips.lastSeenAt }).from(trips).where(listedSince(since));
}
