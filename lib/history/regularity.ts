import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { EpochMs, HistoryRegularity, RegularityConfig, RouteStop } from '@/lib/model';
import type { TimeRule } from '@/lib/partner';
import { addDays } from '@/lib/time/calendar';
import { deriveRouteDay, deriveRouteDaySince, type DayFix, type DayTrip, type DelayChange, type RegularityRow, type RouteDayInput } from '@/lib/regularity/days';
import { NO_SUMS, addSums, figuresOfSums, type HeadwaySums } from '@/lib/regularity/passing';
import { localDate, localHours } from './rollups';
import { regularityDays, regularityHours, routeDays, trips } from './schema';
import { rows, type HistoryDb } from './store';

// Headways over days, stored: each service day's regularity rows (lib/regularity/days.ts) per route, direction and
// local hour, so that any period's figures are sums of rows. Incremental:
//  - a closed day (history_route_days written by closeServiceDays) is derived once after it closes, and again when
//    its figures were computed again (a late final answer);
//  - the days still running (today, yesterday until it closes) are derived so far, at most every OPEN_EVERY_MS, and
//    only from where the last derivation settled (OpenDays): what happened more than SETTLE_MS ago is counted once
//    for good, what happened since is counted so far, from the trips active since CONTEXT_MS before that point. The
//    first derivation of a process reads the whole day so far; a closed day is derived whole again;
//  - a day closed before this existed has no row in history_regularity_days: "not derived", never zero.
// The route stops are the network's as the feed knows it now (the stops a direction's path runs through).

/** The recorder's fixes of a trip are looked for this long around when the trip was listed (as recordedTrip). */
const TRIP_SLACK_MS = 30 * 60_000;
/** How far back a closed day is derived when its delay figures are newer than its regularity (closeServiceDays's). */
const RECHECK_DAYS = 3;
/** Days still running are derived again at most this often. */
export const OPEN_EVERY_MS = 5 * 60_000;
/**
 * A running day's samples older than this are counted for good: by then a bus has been located again (at 10,000
 * buses on a 1,200/min key, every ten minutes or so) and its passings no longer move.
 */
export const SETTLE_MS = 30 * 60_000;
/**
 * The trips a running day's next derivation reads: those active since this long before where the last one settled,
 * so that the first samples after that point have their leaders. A headway longer than this, at a stop whose leader's
 * trip ended that long before, is left out of the day's figures until the day closes and is derived whole.
 */
export const CONTEXT_MS = 60 * 60_000;

/** Where a running day's derivation stands (deriveRouteDaySince's window): kept by the caller between derivations. */
export interface OpenDay {
  /** Samples before this are counted in `settled`. */
  until: EpochMs;
  /** The day's rows counted for good so far (no totals). */
  settled: RegularityRow[];
  ghostsDone: Set<number>;
}

/** The running days' states, by service date. */
export type OpenDays = Map<string, OpenDay>;

export interface DeriveOptions {
  now: EpochMs;
  rule: TimeRule;
  config: RegularityConfig;
  stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>;
}

type TripRow = { trip_id: string | number; first_seen_at: string | number; route_id: number; direction: string | null; trip_type: string | null; bus_id: number | null; planned_departure_at: string | number | null; planned_arrival_at: string | number | null; actual_departure_at: string | number | null; actual_arrival_at: string | number | null; delay_minutes: number | null; last_seen_at: string | number };
type DelayRow = { trip_id: string | number; at: string | number; delay_minutes: number | null };
type FixRow = { trip_id: string | number; at: string | number; lat: number; lon: number; heading: number | null; speed_kmh: number | null; accuracy: number | null };

const n = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** One service date's regularity rows, every route: computed from the stored trips and fixes. */
export async function regularityRowsOf(db: HistoryDb, date: string, opts: DeriveOptions & { complete: boolean }): Promise<RegularityRow[]> {
  const out: RegularityRow[] = [];
  for await (const input of routeDayInputs(db, date, opts, null)) out.push(...deriveRouteDay(input));
  return out;
}

/**
 * One service date's routes, each with its trips, their fixes and delay changes, one at a time (the event loop served
 * between them: PGlite runs in this thread). `since`: only the trips active since then (a running day's window).
 */
async function* routeDayInputs(db: HistoryDb, date: string, opts: DeriveOptions & { complete: boolean }, since: EpochMs | null): AsyncGenerator<RouteDayInput> {
  // A trip's last sign of activity: its last listing, or its final answer.
  const tActive = since === null ? sql`TRUE` : sql`GREATEST(t.last_seen_at, COALESCE(t.final_at, 0)) >= ${since}`;
  const tripRows = await rows<TripRow>(
    db,
    sql`SELECT trip_id, route_id, direction, trip_type, bus_id, planned_departure_at, planned_arrival_at, actual_departure_at, actual_arrival_at, delay_minutes, first_seen_at, last_seen_at
          FROM history_trips t WHERE service_date = ${date} AND route_id IS NOT NULL AND ${tActive}`,
  );
  if (tripRows.length === 0) return;
  const firstSeen = tripRows.reduce((m, t) => Math.min(m, Number(t.first_seen_at)), Infinity);
  // Whether the key read locations at all that day: a bus the store heard from since the day's first trip.
  const [heard] = await rows<{ one: number }>(db, sql`SELECT 1 AS one FROM history_buses WHERE last_fetched_at >= ${firstSeen - TRIP_SLACK_MS} LIMIT 1`);
  const locations = heard !== undefined;
  const hour = localHours(opts.rule);
  const hourOf = (ms: number) => Number(hour(ms));
  const byRoute = new Map<number, DayTrip[]>();
  for (const t of tripRows) {
    const trip: DayTrip = {
      tripId: Number(t.trip_id),
      busId: t.bus_id,
      direction: t.direction,
      plannedDepartureAt: n(t.planned_departure_at),
      plannedArrivalAt: n(t.planned_arrival_at),
      actualDepartureAt: n(t.actual_departure_at),
      actualArrivalAt: n(t.actual_arrival_at),
      delayMinutes: t.delay_minutes,
      lastSeenAt: n(t.last_seen_at),
      tripType: t.trip_type,
    };
    (byRoute.get(t.route_id) ?? byRoute.set(t.route_id, []).get(t.route_id)!).push(trip);
  }
  for (const [routeId, routeTrips] of [...byRoute].sort(([a], [b]) => a - b)) {
    await new Promise((resolve) => setImmediate(resolve));
    // Each trip's fixes: one probe of the fixes' (bus, fetched) index per trip.
    const fixRows = locations
      ? await rows<FixRow>(
          db,
          sql`SELECT f.trip_id, COALESCE(f.gps_at, f.fetched_at) AS at, f.lat, f.lon, f.heading, f.speed_kmh, f.accuracy
                FROM history_trips t
                CROSS JOIN LATERAL (
                  SELECT * FROM history_bus_fixes f
                   WHERE f.bus_id = t.bus_id AND f.fetched_at >= t.first_seen_at - ${TRIP_SLACK_MS}
                     AND f.fetched_at <= GREATEST(t.last_seen_at, COALESCE(t.final_at, 0)) + ${TRIP_SLACK_MS} AND f.trip_id = t.trip_id) f
               WHERE t.service_date = ${date} AND t.route_id = ${routeId} AND t.bus_id IS NOT NULL AND ${tActive}`,
        )
      : [];
    const fixesByTrip = new Map<number, DayFix[]>();
    for (const f of fixRows) {
      const id = Number(f.trip_id);
      (fixesByTrip.get(id) ?? fixesByTrip.set(id, []).get(id)!).push({ at: Number(f.at), lat: f.lat, lon: f.lon, heading: f.heading, speedKmh: f.speed_kmh, accuracy: f.accuracy });
    }
    // Each trip's delay changes (where a bus with no fix, or a long gap between fixes, spent its time): by its key.
    const delayRows = await rows<DelayRow>(
      db,
      sql`SELECT c.trip_id, c.at, c.delay_minutes FROM history_trips t JOIN history_trip_delay_changes c ON c.trip_id = t.trip_id
           WHERE t.service_date = ${date} AND t.route_id = ${routeId} AND ${tActive} ORDER BY c.trip_id, c.at`,
    );
    const delaysByTrip = new Map<number, DelayChange[]>();
    for (const c of delayRows) {
      const id = Number(c.trip_id);
      (delaysByTrip.get(id) ?? delaysByTrip.set(id, []).get(id)!).push({ at: Number(c.at), delayMinutes: c.delay_minutes });
    }
    yield { routeId, stops: opts.stopsByRoute.get(routeId), trips: routeTrips, fixesByTrip, delaysByTrip, locations, hourOf, config: opts.config, now: opts.complete ? undefined : opts.now };
  }
}

const rowKey = (r: RegularityRow) => `${r.routeId}\u0000${r.direction}\u0000${r.hour}`;

/** Rows summed by route, direction and hour. */
function sumRows(...lists: (readonly RegularityRow[])[]): RegularityRow[] {
  const out = new Map<string, RegularityRow>();
  for (const list of lists) {
    for (const r of list) {
      const key = rowKey(r);
      const had = out.get(key);
      out.set(key, had ? { routeId: r.routeId, direction: r.direction, hour: r.hour, ...addRow(had, r) } : { ...r });
    }
  }
  return [...out.values()];
}

/**
 * A running day's rows from where `state` stands (the whole day so far without one): the rows to store, and the
 * state to keep once they are stored.
 */
export async function openRegularityRowsOf(db: HistoryDb, date: string, opts: DeriveOptions, state: OpenDay | undefined): Promise<{ rows: RegularityRow[]; state: OpenDay }> {
  const from = state?.until ?? Number.NEGATIVE_INFINITY;
  const until = Math.max(from, opts.now - SETTLE_MS);
  const ghostsDone = new Set(state?.ghostsDone);
  const settled: RegularityRow[][] = [state?.settled ?? []];
  const open: RegularityRow[][] = [];
  for await (const input of routeDayInputs(db, date, { ...opts, complete: false }, Number.isFinite(from) ? from - CONTEXT_MS : null)) {
    const w = deriveRouteDaySince(input, { from, until, ghostsDone });
    settled.push(w.settled);
    open.push(w.open);
    for (const id of w.ghostsSettled) ghostsDone.add(id);
  }
  const settledRows = sumRows(...settled);
  return { rows: sumRows(settledRows, ...open), state: { until, settled: settledRows, ghostsDone } };
}

/** Derives one date and replaces what was stored for it, in one transaction. */
/** The stored rows' `hour` of a route and direction's whole day. */
export const WHOLE_DAY = -1;
/** The stored rows' `route_id` of every route together (direction ''). */
export const ALL_ROUTES = -1;

/**
 * A day's rows with the totals a period's read sums instead of every hour's row: each route and direction's whole
 * day (hour WHOLE_DAY), and every route together per hour and for the whole day (route ALL_ROUTES). Reading 30 days of
 * the whole network then sums a few thousand rows, not one per route, direction and hour.
 */
export function withTotals(derived: readonly RegularityRow[]): RegularityRow[] {
  const totals = new Map<string, RegularityRow>();
  const add = (routeId: number, direction: string, hour: number, r: RegularityRow) => {
    const key = `${routeId}\u0000${direction}\u0000${hour}`;
    const t = totals.get(key);
    totals.set(key, { routeId, direction, hour, ...addRow(t ?? NO_ROW_SUMS, r) });
  };
  for (const r of derived) {
    add(r.routeId, r.direction, WHOLE_DAY, r);
    add(ALL_ROUTES, '', r.hour, r);
    add(ALL_ROUTES, '', WHOLE_DAY, r);
  }
  return [...derived, ...totals.values()];
}

export async function storeRegularityDay(db: HistoryDb, date: string, opts: DeriveOptions & { complete: boolean }, rows?: readonly RegularityRow[]): Promise<number> {
  const derived = withTotals(rows ?? (await regularityRowsOf(db, date, opts)));
  await db.transaction(async (tx) => {
    await tx.delete(regularityHours).where(eq(regularityHours.serviceDate, date));
    // A few thousand rows at most (routes × 2 directions × 24 hours), in slices the drivers' parameter limit takes.
    for (let i = 0; i < derived.length; i += 2_000) {
      await tx.insert(regularityHours).values(derived.slice(i, i + 2_000).map((r) => ({ serviceDate: date, ...r })));
    }
    await tx
      .insert(regularityDays)
      .values({ serviceDate: date, computedAt: opts.now, complete: opts.complete })
      .onConflictDoUpdate({ target: regularityDays.serviceDate, set: { computedAt: opts.now, complete: opts.complete } });
  });
  return derived.length;
}

/**
 * The close-of-day step after closeServiceDays: every recent closed day whose regularity is missing, not complete
 * or older than its delay figures is derived (once); the days still running are derived so far when `open` is
 * set (the caller's cadence). Nothing is derived before the network is known (no stops: no passing times).
 * Returns the dates written.
 */
export async function deriveRegularityDays(db: HistoryDb, opts: DeriveOptions & { open: boolean; openDays?: OpenDays }): Promise<{ closed: string[]; open: string[] }> {
  if (opts.stopsByRoute.size === 0) return { closed: [], open: [] };
  const today = localDate(opts.now, opts.rule);
  const since = addDays(today, -RECHECK_DAYS);
  const due = await rows<{ service_date: string }>(
    db,
    sql`SELECT r.service_date FROM history_route_days r
          LEFT JOIN history_regularity_days g ON g.service_date = r.service_date
         WHERE r.service_date >= ${since} AND (g.service_date IS NULL OR NOT g.complete OR g.computed_at < r.computed_at)
         GROUP BY r.service_date ORDER BY r.service_date`,
  );
  const closed = due.map((d) => d.service_date);
  for (const date of closed) {
    await storeRegularityDay(db, date, { ...opts, complete: true });
    opts.openDays?.delete(date);
  }
  const open: string[] = [];
  if (opts.open) {
    const yesterday = addDays(today, -1);
    const [y] = await db.select({ d: routeDays.serviceDate }).from(routeDays).where(eq(routeDays.serviceDate, yesterday)).limit(1);
    for (const date of y ? [today] : [yesterday, today]) {
      const [any] = await db.select({ id: trips.tripId }).from(trips).where(eq(trips.serviceDate, date)).limit(1);
      if (!any) continue;
      if (opts.openDays) {
        const next = await openRegularityRowsOf(db, date, opts, opts.openDays.get(date));
        await storeRegularityDay(db, date, { ...opts, complete: false }, next.rows);
        opts.openDays.set(date, next.state);
      } else {
        await storeRegularityDay(db, date, { ...opts, complete: false });
      }
      open.push(date);
    }
    // Days no longer running (closed above, or gone by): their states go.
    for (const date of opts.openDays?.keys() ?? []) if (date < addDays(today, -1)) opts.openDays!.delete(date);
  }
  return { closed, open };
}

export interface StoredRegularity {
  /** The period's sums per route and direction, per date and per local hour. */
  byRoute: Map<number, Map<string, RowSums>>;
  byDate: Map<string, RowSums>;
  byHour: Map<number, RowSums>;
  /** Dates of the period that were derived (whole or so far). */
  derived: Set<string>;
}

type SumsRow = Record<'samples' | 'sum_h' | 'sum_h2' | 'scheduled' | 'sum_sched' | 'sum_sched2' | 'bunched' | 'gapped' | 'ghost_minutes', string | number | null>;

const sumsOfRow = (r: SumsRow): RowSums => ({
  samples: Number(r.samples),
  sumH: Number(r.sum_h),
  sumH2: Number(r.sum_h2),
  scheduled: Number(r.scheduled),
  sumSched: Number(r.sum_sched),
  sumSched2: Number(r.sum_sched2),
  bunched: Number(r.bunched),
  gapped: Number(r.gapped),
  ghostMinutes: Number(r.ghost_minutes),
});

/**
 * A period's regularity (dates inclusive) in one statement over the key (date first): per route and direction from
 * the whole-day rows, per date and per hour from the every-route rows (or, for some routes, from theirs), each
 * summed in the database; and which of its dates were derived.
 */
export async function storedRegularity(db: HistoryDb, from: string, to: string, routeIds: readonly number[] | null): Promise<StoredRegularity> {
  const some = routeIds ? sql`route_id IN (${sql.join(routeIds.map((id) => sql`${id}`), sql`, `)})` : null;
  const period = sql`service_date >= ${from} AND service_date <= ${to}`;
  const sums = sql`SUM(samples) AS samples, SUM(sum_h) AS sum_h, SUM(sum_h2) AS sum_h2, SUM(scheduled) AS scheduled, SUM(sum_sched) AS sum_sched,
                   SUM(sum_sched2) AS sum_sched2, SUM(bunched) AS bunched, SUM(gapped) AS gapped, SUM(ghost_minutes) AS ghost_minutes`;
  // Literals, not parameters: the planner matches them with the partial indexes' predicates (schema.ts).
  const wholeDay = sql.raw(String(WHOLE_DAY));
  const allRoutes = sql.raw(String(ALL_ROUTES));
  const scope = some ?? sql`route_id = ${allRoutes}`;
  const got = await rows<SumsRow & { kind: string; route_id: number | null; direction: string | null; service_date: string | null; hour: number | null }>(
    db,
    sql`SELECT 'r' AS kind, route_id, direction, NULL AS service_date, NULL::integer AS hour, ${sums}
          FROM history_regularity_hours WHERE ${period} AND hour = ${wholeDay} AND ${some ?? sql`route_id <> ${allRoutes}`} GROUP BY route_id, direction
        UNION ALL
        SELECT 'd', NULL, NULL, service_date, NULL, ${sums}
          FROM history_regularity_hours WHERE ${period} AND hour = ${wholeDay} AND ${scope} GROUP BY service_date
        UNION ALL
        SELECT 'h', NULL, NULL, NULL, hour, ${sums}
          FROM history_regularity_hours WHERE ${period} AND hour <> ${wholeDay} AND ${scope} GROUP BY hour
        UNION ALL
        SELECT 'x', NULL, NULL, service_date, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
          FROM history_regularity_days WHERE ${period}`,
  );
  const out: StoredRegularity = { byRoute: new Map(), byDate: new Map(), byHour: new Map(), derived: new Set() };
  for (const r of got) {
    if (r.kind === 'x') out.derived.add(String(r.service_date));
    else if (r.kind === 'd') out.byDate.set(String(r.service_date), sumsOfRow(r));
    else if (r.kind === 'h') out.byHour.set(Number(r.hour), sumsOfRow(r));
    else {
      const id = Number(r.route_id);
      (out.byRoute.get(id) ?? out.byRoute.set(id, new Map()).get(id)!).set(String(r.direction), sumsOfRow(r));
    }
  }
  return out;
}

type RowSums = HeadwaySums & { ghostMinutes: number };
const NO_ROW_SUMS: RowSums = { ...NO_SUMS, ghostMinutes: 0 };
const addRow = (a: RowSums, b: RowSums): RowSums => ({ ...addSums(a, b), ghostMinutes: a.ghostMinutes + b.ghostMinutes });

/** A period's figures from its rows' sums, given how many of its days with trips were not derived. */
export function regularityOf(sums: RowSums, daysWithTrips: number, daysNotDerived: number): HistoryRegularity {
  const derivation = daysNotDerived === 0 ? 'derived' : daysNotDerived >= daysWithTrips ? 'not-derived' : 'partial';
  if (derivation === 'not-derived') return { derivation, daysNotDerived, samples: null, cvH: null, awtS: null, swtS: null, ewtS: null, bunchedShare: null, gappedShare: null, ghostTripMinutes: null };
  return { derivation, daysNotDerived, ...figuresOfSums(sums), ghostTripMinutes: sums.ghostMinutes };
}

/**
 * What /api/history/routes carries of regularity: per route (and direction), per day and by hour, each a sum of
 * the period's stored rows. `datesByRoute`: the service dates each route has trips on (its delay figures' days).
 */
export function periodRegularity(stored: StoredRegularity, datesByRoute: ReadonlyMap<number, ReadonlySet<string>>) {
  const notDerived = (dates: Iterable<string>) => {
    let all = 0;
    let missing = 0;
    for (const d of dates) {
      all++;
      if (!stored.derived.has(d)) missing++;
    }
    return [all, missing] as const;
  };
  return {
    route(routeId: number): { regularity: HistoryRegularity; directions: { direction: string; regularity: HistoryRegularity }[] } {
      const [all, missing] = notDerived(datesByRoute.get(routeId) ?? []);
      const dirs = [...(stored.byRoute.get(routeId) ?? new Map<string, RowSums>())].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
      return {
        regularity: regularityOf(dirs.map(([, s]) => s).reduce(addRow, NO_ROW_SUMS), all, missing),
        directions: dirs.map(([direction, s]) => ({ direction, regularity: regularityOf(s, all, missing) })),
      };
    },
    day(date: string): HistoryRegularity {
      return regularityOf(stored.byDate.get(date) ?? NO_ROW_SUMS, 1, stored.derived.has(date) ? 0 : 1);
    },
    hours(): { hour: number; ewtS: number | null; samples: number }[] {
      return [...stored.byHour].sort(([a], [b]) => a - b).filter(([, s]) => s.samples > 0).map(([hour, s]) => ({ hour, ewtS: figuresOfSums(s).ewtS, samples: s.samples }));
    },
  };
}
