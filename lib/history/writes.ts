import 'server-only';
import { sql } from 'drizzle-orm';
import type { Batch, TripRow } from './batch';
import { FIX_COLUMNS, FIX_TABLE, fixValue } from './fix-columns';
import { budgetMinutes, healthTransitions, recorderState, trips } from './schema';
import type { HistoryDb } from './store';

// One batch, one transaction: either all of it is stored or none (so a failed batch can be retried whole).
// The rows that come by the thousand (fixes, status and delay changes, trips seen again) go in as one array per
// column (INSERT ... SELECT FROM unnest(...), UPDATE ... WHERE trip_id = ANY(...)): a statement of a handful of
// parameters whatever the rows, which both targets parse at once and the ORM does not have to build row by row.

export const WALK_AT_KEY = 'trips_walk_at';

/** Every trip column but the first sighting and the final lookup's, taken from the incoming row. */
const TRIP_UPDATE = {
  routeId: sql`excluded.route_id`,
  routeCode: sql`excluded.route_code`,
  routeName: sql`excluded.route_name`,
  direction: sql`excluded.direction`,
  busId: sql`excluded.bus_id`,
  plateNumber: sql`excluded.plate_number`,
  busName: sql`excluded.bus_name`,
  serviceDate: sql`excluded.service_date`,
  tripType: sql`excluded.trip_type`,
  serviceKind: sql`excluded.service_kind`,
  plannedDepartureAt: sql`excluded.planned_departure_at`,
  plannedArrivalAt: sql`excluded.planned_arrival_at`,
  actualDepartureAt: sql`excluded.actual_departure_at`,
  actualArrivalAt: sql`excluded.actual_arrival_at`,
  status: sql`excluded.status`,
  delayMinutes: sql`excluded.delay_minutes`,
  lastSeenAt: sql`GREATEST(${trips.lastSeenAt}, excluded.last_seen_at)`,
};

type ColumnType = 'int' | 'bigint' | 'float8' | 'real' | 'text';

/** INSERT INTO table (columns) SELECT FROM unnest(one array per column), then `onConflict` (default: nothing). */
function insertColumns(table: string, columns: readonly (readonly [name: string, type: ColumnType, values: readonly unknown[]])[], onConflict = sql`ON CONFLICT DO NOTHING`) {
  const names = sql.raw(columns.map(([n]) => n).join(', '));
  const arrays = sql.join(
    columns.map(([, type, values]) => sql`${sql.param(values)}::${sql.raw(type)}[]`),
    sql`, `,
  );
  return sql`INSERT INTO ${sql.raw(table)} (${names}) SELECT * FROM unnest(${arrays}) ${onConflict}`;
}

/** A trip's columns as arrays, in the order of its row. */
function tripColumns(rows: readonly TripRow[]) {
  const col = <T>(f: (r: TripRow) => T) => rows.map((r) => f(r) ?? null);
  return [
    ['trip_id', 'bigint', col((r) => r.tripId)],
    ['route_id', 'int', col((r) => r.routeId)],
    ['route_code', 'text', col((r) => r.routeCode)],
    ['route_name', 'text', col((r) => r.routeName)],
    ['direction', 'text', col((r) => r.direction)],
    ['bus_id', 'int', col((r) => r.busId)],
    ['plate_number', 'text', col((r) => r.plateNumber)],
    ['bus_name', 'text', col((r) => r.busName)],
    ['service_date', 'text', col((r) => r.serviceDate)],
    ['trip_type', 'text', col((r) => r.tripType)],
    ['service_kind', 'text', col((r) => r.serviceKind)],
    ['planned_departure_at', 'bigint', col((r) => r.plannedDepartureAt)],
    ['planned_arrival_at', 'bigint', col((r) => r.plannedArrivalAt)],
    ['actual_departure_at', 'bigint', col((r) => r.actualDepartureAt)],
    ['actual_arrival_at', 'bigint', col((r) => r.actualArrivalAt)],
    ['status', 'text', col((r) => r.status)],
    ['delay_minutes', 'real', col((r) => r.delayMinutes)],
    ['first_seen_at', 'bigint', col((r) => r.firstSeenAt)],
    ['last_seen_at', 'bigint', col((r) => r.lastSeenAt)],
  ] as const;
}

/** Every column but the first sighting's (and the final lookup's, set apart) from the incoming row. */
const TRIP_UPSERT = sql.raw(
  `ON CONFLICT (trip_id) DO UPDATE SET ${[
    'route_id',
    'route_code',
    'route_name',
    'direction',
    'bus_id',
    'plate_number',
    'bus_name',
    'service_date',
    'trip_type',
    'service_kind',
    'planned_departure_at',
    'planned_arrival_at',
    'actual_departure_at',
    'actual_arrival_at',
    'status',
    'delay_minutes',
  ]
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}, last_seen_at = GREATEST(history_trips.last_seen_at, excluded.last_seen_at), final_at = NULL, final_found = NULL`,
);

export async function writeBatch(db: HistoryDb, b: Batch): Promise<void> {
  await db.transaction(async (tx) => {
    const fixes = [...b.fixes.values()];
    if (fixes.length) {
      await tx.execute(
        insertColumns(
          FIX_TABLE,
          FIX_COLUMNS.map((c) => [c.name, c.type, fixes.map((f) => fixValue(f, c.field))] as const),
        ),
      );
      await tx.execute(
        sql`INSERT INTO history_buses (bus_id, first_fetched_at, last_fetched_at)
            SELECT bus_id, min(fetched_at), max(fetched_at) FROM unnest(${sql.param(fixes.map((f) => f.busId))}::int[], ${sql.param(fixes.map((f) => f.fetchedAt))}::bigint[]) AS x(bus_id, fetched_at)
             GROUP BY bus_id
            ON CONFLICT (bus_id) DO UPDATE SET first_fetched_at = LEAST(history_buses.first_fetched_at, excluded.first_fetched_at),
                                               last_fetched_at = GREATEST(history_buses.last_fetched_at, excluded.last_fetched_at)`,
      );
    }
    // A trip on /trips/active has not ended: a final answer it had was premature (it was missing from one walk,
    // the lookup found it still running), and is forgotten.
    if (b.tripUpserts.size) await tx.execute(insertColumns('history_trips', tripColumns([...b.tripUpserts.values()]), TRIP_UPSERT));
    // Unchanged trips seen again, grouped by the walk that saw them: one UPDATE per walk.
    const byWalk = new Map<number, number[]>();
    for (const [id, at] of b.tripSeen) (byWalk.get(at) ?? byWalk.set(at, []).get(at)!).push(id);
    for (const [at, ids] of byWalk) {
      await tx.execute(sql`UPDATE history_trips SET last_seen_at = GREATEST(last_seen_at, ${at}) WHERE trip_id = ANY(${sql.param(ids)}::bigint[]) AND last_seen_at < ${at}`);
    }
    for (const f of b.finals.values()) {
      if (f.trip) {
        const row: TripRow = f.trip;
        await tx
          .insert(trips)
          .values({ ...row, finalAt: f.fetchedAt, finalFound: true })
          .onConflictDoUpdate({ target: trips.tripId, set: { ...TRIP_UPDATE, lastSeenAt: sql`${trips.lastSeenAt}`, finalAt: sql`excluded.final_at`, finalFound: sql`true` } });
      } else {
        await tx.update(trips).set({ finalAt: f.fetchedAt, finalFound: false }).where(sql`${trips.tripId} = ${f.tripId}`);
      }
    }
    if (b.statusChanges.length) {
      const c = b.statusChanges;
      await tx.execute(insertColumns('history_trip_status_changes', [['trip_id', 'bigint', c.map((r) => r.tripId)], ['at', 'bigint', c.map((r) => r.at)], ['status', 'text', c.map((r) => r.value)]]));
    }
    if (b.delayChanges.length) {
      const c = b.delayChanges;
      await tx.execute(insertColumns('history_trip_delay_changes', [['trip_id', 'bigint', c.map((r) => r.tripId)], ['at', 'bigint', c.map((r) => r.at)], ['delay_minutes', 'real', c.map((r) => r.value)]]));
    }
    if (b.health.length) await tx.insert(healthTransitions).values(b.health);
    const budget = [...b.budget.values()];
    if (budget.length) {
      await tx
        .insert(budgetMinutes)
        .values(budget)
        .onConflictDoUpdate({
          target: [budgetMinutes.minute, budgetMinutes.kind, budgetMinutes.lane],
          set: { requests: sql`${budgetMinutes.requests} + excluded.requests`, failures: sql`${budgetMinutes.failures} + excluded.failures` },
        });
    }
    if (b.walkAt !== null) {
      await tx
        .insert(recorderState)
        .values({ key: WALK_AT_KEY, value: b.walkAt })
        .onConflictDoUpdate({ target: recorderState.key, set: { value: sql`GREATEST(${recorderState.value}, excluded.value)` } });
    }
  });
}
