import 'server-only';
import { sql } from 'drizzle-orm';
import { rows, type HistoryDb } from './store';
import { busIdsScan, TRIP_LISTED_AT_MOST_MS } from './warm';

// Retention: positions older than HISTORY_POSITIONS_DAYS, trips (with their changes), health transitions,
// budget minutes and gaps older than HISTORY_TRIPS_DAYS go, a small batch at a time with a pause between
// batches. PGlite runs in the server's own thread, so one long DELETE would stall the poller and every viewer;
// a batch of a few thousand rows takes milliseconds. A trip goes only once its service day has its figures.

export const DAY_MS = 86_400_000;
const BATCH = 2_000;

export interface RetentionOptions {
  now: number;
  positionsDays: number;
  tripsDays: number;
  /** Pause between batches. */
  pauseMs?: number;
  /** Stop early (a closing recorder). */
  signal?: AbortSignal;
}

export interface PruneCounts {
  fixes: number;
  trips: number;
  other: number;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

async function inBatches(deleteBatch: () => Promise<number>, opts: RetentionOptions): Promise<number> {
  let total = 0;
  for (;;) {
    if (opts.signal?.aborted) return total;
    const n = await deleteBatch();
    total += n;
    if (n < BATCH) return total;
    await pause(opts.pauseMs ?? 50);
  }
}

export async function pruneHistory(db: HistoryDb, opts: RetentionOptions): Promise<PruneCounts> {
  const positionsCut = opts.now - opts.positionsDays * DAY_MS;
  const tripsCut = opts.now - opts.tripsDays * DAY_MS;
  const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number | string }>(db, q)).length;
  const fixes = await inBatches(
    () =>
      // Each bus's oldest fixes through the (bus, fetched) index, for the buses whose first fix is that old.
      count(
        sql`DELETE FROM history_bus_fixes WHERE ctid = ANY(ARRAY(
              SELECT f.ctid FROM (${busIdsScan(positionsCut, -1)}) b
               CROSS JOIN LATERAL (SELECT ctid FROM history_bus_fixes f WHERE f.bus_id = b.bus_id AND f.fetched_at < ${positionsCut} LIMIT ${BATCH}) f
               LIMIT ${BATCH}))
            RETURNING 1 AS n`,
      ),
    opts,
  );
  if (!opts.signal?.aborted) {
    // The bus list follows: a bus's first fix kept is now no older than the cut, and a bus with none kept leaves
    // it. The next prune then probes only buses with fixes to prune, and "recorded since" (the replay) is true.
    await db.execute(sql`DELETE FROM history_buses WHERE last_fetched_at < ${positionsCut}`);
    await db.execute(sql`UPDATE history_buses SET first_fetched_at = ${positionsCut} WHERE first_fetched_at < ${positionsCut}`);
  }
  const trips = await inBatches(async () => {
    const gone = await rows<{ trip_id: string | number }>(
      db,
      sql`DELETE FROM history_trips WHERE trip_id IN (
            SELECT t.trip_id FROM history_trips t
             WHERE t.first_seen_at < ${tripsCut - TRIP_LISTED_AT_MOST_MS} AND t.last_seen_at < ${tripsCut}
               AND (t.service_date IS NULL OR t.route_id IS NULL
                    OR EXISTS (SELECT 1 FROM history_route_days r WHERE r.service_date = t.service_date AND r.route_id = t.route_id))
             LIMIT ${BATCH})
          RETURNING trip_id`,
    );
    if (gone.length) {
      const ids = sql.join(gone.map((g) => sql`${Number(g.trip_id)}`), sql`, `);
      await db.execute(sql`DELETE FROM history_trip_status_changes WHERE trip_id IN (${ids})`);
      await db.execute(sql`DELETE FROM history_trip_delay_changes WHERE trip_id IN (${ids})`);
    }
    return gone.length;
  }, opts);
  let other = 0;
  for (const [table, column] of [
    ['history_health_transitions', 'at'],
    ['history_budget_minutes', 'minute'],
    ['history_recorder_gaps', 'to_at'],
  ] as const) {
    other += await inBatches(
      () => count(sql`DELETE FROM ${sql.raw(table)} WHERE ctid IN (SELECT ctid FROM ${sql.raw(table)} WHERE ${sql.raw(column)} < ${tripsCut} LIMIT ${BATCH}) RETURNING 1 AS n`),
      opts,
    );
  }
  return { fixes, trips, other };
}
