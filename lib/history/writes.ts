import 'server-only';
import { sql } from 'drizzle-orm';
import type { Batch, TripRow } from './batch';
import { budgetMinutes, busFixes, healthTransitions, recorderState, tripDelayChanges, trips, tripStatusChanges } from './schema';
import type { HistoryDb } from './store';

// One batch, one transaction: either all of it is stored or none (so a failed batch can be retried whole).

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters at ten columns a row. */
const CHUNK = 1_000;

export const WALK_AT_KEY = 'trips_walk_at';

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

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

export async function writeBatch(db: HistoryDb, b: Batch): Promise<void> {
  await db.transaction(async (tx) => {
    for (const part of chunks([...b.fixes.values()])) await tx.insert(busFixes).values(part).onConflictDoNothing();
    // A trip on /trips/active has not ended: a final answer it had was premature (it was missing from one walk,
    // the lookup found it still running), and is forgotten.
    for (const part of chunks([...b.tripUpserts.values()])) {
      await tx
        .insert(trips)
        .values(part)
        .onConflictDoUpdate({ target: trips.tripId, set: { ...TRIP_UPDATE, finalAt: sql`NULL`, finalFound: sql`NULL` } });
    }
    // Unchanged trips seen again, grouped by the walk that saw them: one UPDATE per walk.
    const byWalk = new Map<number, number[]>();
    for (const [id, at] of b.tripSeen) (byWalk.get(at) ?? byWalk.set(at, []).get(at)!).push(id);
    for (const [at, ids] of byWalk) {
      for (const part of chunks(ids)) {
        await tx.execute(sql`UPDATE history_trips SET last_seen_at = GREATEST(last_seen_at, ${at}) WHERE trip_id IN (${sql.join(part.map((id) => sql`${id}`), sql`, `)})`);
      }
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
    for (const part of chunks(b.statusChanges)) {
      await tx.insert(tripStatusChanges).values(part.map((c) => ({ tripId: c.tripId, at: c.at, status: c.value }))).onConflictDoNothing();
    }
    for (const part of chunks(b.delayChanges)) {
      await tx.insert(tripDelayChanges).values(part.map((c) => ({ tripId: c.tripId, at: c.at, delayMinutes: c.value }))).onConflictDoNothing();
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
