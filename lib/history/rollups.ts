import 'server-only';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { tripDelayClass, type DelayFigures, type DelayThresholds } from '@/lib/model';
import { formatPartnerTimestamp, type TimeRule } from '@/lib/partner';
import { percentileOfCounts } from '@/lib/stats/percentile';
import { addDays } from '@/lib/time/calendar';
import { recorderState, routeDays, trips } from './schema';
import { rows, type HistoryDb } from './store';
import { WALK_AT_KEY } from './writes';

// Service days per route: the delay board's figures of a past day, computed when the day closes (in the agency's
// timezone) and kept after the trips are pruned. Each day keeps the histogram of its final delays, so that the
// figures of any period, and under any thresholds, are exact (a median of medians would not be).

export interface DelayHistogram {
  /** Final delay in minutes → trips. */
  histogram: Record<string, number>;
  /** Trips without a known delay. */
  unknown: number;
}

export interface RouteDay extends DelayHistogram {
  routeId: number;
  serviceDate: string;
  routeCode: string | null;
  routeName: string | null;
  /** Local hour of planned departure → [sum of delays, trips with a delay]. */
  hours: Record<string, [number, number]>;
}

export interface TripFacts {
  routeId: number | null;
  routeCode: string | null;
  routeName: string | null;
  serviceDate: string | null;
  plannedDepartureAt: number | null;
  delayMinutes: number | null;
}

/** The local date (`YYYY-MM-DD`) of an instant on the agency's clock. */
export function localDate(ms: number, rule: TimeRule): string {
  return formatPartnerTimestamp(ms, rule).slice(0, 10);
}

/** Every zone's offset is a whole number of quarter hours: within one UTC quarter hour the local hour is one. */
const QUARTER_HOUR_MS = 15 * 60_000;

/** The local hour of an instant, formatted once per UTC quarter hour (formatting is the slow part of a day's figures). */
export function localHours(rule: TimeRule): (ms: number) => string {
  const format = (ms: number) => String(Number(formatPartnerTimestamp(ms, rule).slice(11, 13)));
  if (rule.kind === 'offset' && rule.minutes % 15 !== 0) return format;
  const cache = new Map<number, string>();
  return (ms) => {
    const q = Math.floor(ms / QUARTER_HOUR_MS);
    let h = cache.get(q);
    if (h === undefined) cache.set(q, (h = format(q * QUARTER_HOUR_MS)));
    return h;
  };
}

/** One service date's trips, per route. Trips without a route are not a route's and are left out. */
export function routeDaysOf(facts: readonly TripFacts[], rule: TimeRule): RouteDay[] {
  const hourOf = localHours(rule);
  const byRoute = new Map<number, RouteDay>();
  for (const t of facts) {
    if (t.routeId === null || t.serviceDate === null) continue;
    let day = byRoute.get(t.routeId);
    if (!day) byRoute.set(t.routeId, (day = { routeId: t.routeId, serviceDate: t.serviceDate, routeCode: null, routeName: null, histogram: {}, unknown: 0, hours: {} }));
    day.routeCode ??= t.routeCode;
    day.routeName ??= t.routeName;
    if (t.delayMinutes === null || !Number.isFinite(t.delayMinutes)) {
      day.unknown++;
      continue;
    }
    const k = String(t.delayMinutes);
    day.histogram[k] = (day.histogram[k] ?? 0) + 1;
    if (t.plannedDepartureAt !== null) {
      const hour = hourOf(t.plannedDepartureAt);
      const h = (day.hours[hour] ??= [0, 0]);
      h[0] += t.delayMinutes;
      h[1] += 1;
    }
  }
  return [...byRoute.values()];
}

/**
 * The board's figures of several days' histograms together: the same figures delayFigures gives for the trips
 * themselves (the same classes, the same type-7 percentiles, the mean summed in the same ascending order), read
 * off the merged histogram without making one value per trip (a 30-day table holds a quarter of a million).
 */
export function figuresOf(days: readonly DelayHistogram[], thresholds: DelayThresholds): DelayFigures {
  const merged = new Map<number, number>();
  let unknown = 0;
  for (const d of days) {
    unknown += d.unknown;
    for (const [k, c] of Object.entries(d.histogram)) {
      const v = Number(k);
      if (!Number.isFinite(v)) {
        unknown += c;
        continue;
      }
      merged.set(v, (merged.get(v) ?? 0) + c);
    }
  }
  const values = [...merged.keys()].sort((a, b) => a - b);
  const counts = values.map((v) => merged.get(v)!);
  let n = 0;
  let sum = 0;
  const f = { early: 0, onTime: 0, late: 0 };
  values.forEach((v, i) => {
    const c = counts[i]!;
    n += c;
    for (let j = 0; j < c; j++) sum += v;
    const cls = tripDelayClass(v, thresholds);
    if (cls === 'early') f.early += c;
    else if (cls === 'late') f.late += c;
    else f.onTime += c;
  });
  const quantile = (p: number) => percentileOfCounts(values, counts, p);
  return {
    activeTrips: n + unknown,
    knownDelay: n,
    unknownDelay: unknown,
    ...f,
    meanMin: n ? sum / n : null,
    medianMin: quantile(0.5),
    p90Min: quantile(0.9),
    worstMin: n ? values[values.length - 1]! : null,
    onTimeShare: n ? f.onTime / n : null,
  };
}

const TRIP_FACTS = {
  routeId: trips.routeId,
  routeCode: trips.routeCode,
  routeName: trips.routeName,
  serviceDate: trips.serviceDate,
  plannedDepartureAt: trips.plannedDepartureAt,
  delayMinutes: trips.delayMinutes,
};

/** Route days computed from the stored trips (for days not closed yet, or to close them). */
export async function routeDaysFromTrips(db: HistoryDb, dates: readonly string[], rule: TimeRule): Promise<RouteDay[]> {
  if (dates.length === 0) return [];
  const facts = await db.select(TRIP_FACTS).from(trips).where(inArray(trips.serviceDate, [...dates]));
  const byDate = new Map<string, TripFacts[]>();
  for (const f of facts) (byDate.get(f.serviceDate!) ?? byDate.set(f.serviceDate!, []).get(f.serviceDate!)!).push(f);
  return [...byDate.values()].flatMap((f) => routeDaysOf(f, rule));
}

export async function storeRouteDays(db: HistoryDb, days: readonly RouteDay[], thresholds: DelayThresholds, now: number): Promise<void> {
  if (days.length === 0) return;
  const values = days.map((d) => {
    const f = figuresOf([d], thresholds);
    return {
      routeId: d.routeId,
      serviceDate: d.serviceDate,
      routeCode: d.routeCode,
      routeName: d.routeName,
      trips: f.activeTrips,
      early: f.early,
      onTime: f.onTime,
      late: f.late,
      unknownDelay: f.unknownDelay,
      meanMin: f.meanMin,
      medianMin: f.medianMin,
      p90Min: f.p90Min,
      worstMin: f.worstMin,
      onTimeShare: f.onTimeShare,
      lateMin: thresholds.lateMin,
      earlyMin: thresholds.earlyMin,
      delayHistogram: d.histogram,
      hourProfile: d.hours,
      computedAt: now,
    };
  });
  const excluded = (c: string) => sql.raw(`excluded.${c}`);
  await db
    .insert(routeDays)
    .values(values)
    .onConflictDoUpdate({
      target: [routeDays.routeId, routeDays.serviceDate],
      set: {
        routeCode: excluded('route_code'),
        routeName: excluded('route_name'),
        trips: excluded('trips'),
        early: excluded('early'),
        onTime: excluded('on_time'),
        late: excluded('late'),
        unknownDelay: excluded('unknown_delay'),
        meanMin: excluded('mean_min'),
        medianMin: excluded('median_min'),
        p90Min: excluded('p90_min'),
        worstMin: excluded('worst_min'),
        onTimeShare: excluded('on_time_share'),
        lateMin: excluded('late_min'),
        earlyMin: excluded('early_min'),
        delayHistogram: excluded('delay_histogram'),
        hourProfile: excluded('hour_profile'),
        computedAt: excluded('computed_at'),
      },
    });
}

/** How many days back a closed day is recomputed when a late answer (a final lookup) changed one of its trips. */
const RECHECK_DAYS = 3;

/**
 * Closes the service days that are over: a date before today (on the agency's clock) with no trip still open,
 * or any date before yesterday. A closed day is computed again when one of its trips changed afterwards (a final
 * lookup answering late). `backfill` also closes every older date that has trips and no figures (the first run
 * after the recorder was off across a midnight). Returns the dates written.
 */
export async function closeServiceDays(db: HistoryDb, opts: { now: number; rule: TimeRule; thresholds: DelayThresholds; backfill?: boolean }): Promise<string[]> {
  const today = localDate(opts.now, opts.rule);
  const yesterday = addDays(today, -1);
  const recent: string[] = [];
  for (let i = RECHECK_DAYS; i >= 1; i--) recent.push(addDays(today, -i));
  const [walk] = await db.select({ value: recorderState.value }).from(recorderState).where(eq(recorderState.key, WALK_AT_KEY));
  const walkAt = walk?.value ?? null;
  // Per recent date: when its trips last changed, whether one is still open, and when its figures were computed.
  const state = await rows<{ service_date: string; changed: string | number; open: boolean; computed: string | number | null }>(
    db,
    sql`SELECT t.service_date,
               MAX(GREATEST(t.last_seen_at, COALESCE(t.final_at, 0))) AS changed,
               BOOL_OR(${walkAt === null ? sql`false` : sql`t.last_seen_at >= ${walkAt} AND t.final_at IS NULL`}) AS open,
               (SELECT MIN(r.computed_at) FROM history_route_days r WHERE r.service_date = t.service_date) AS computed
          FROM history_trips t
         WHERE t.service_date IN (${sql.join(recent.map((d) => sql`${d}`), sql`, `)})
         GROUP BY t.service_date`,
  );
  const due = new Set<string>();
  for (const s of state) {
    const over = s.service_date < yesterday || (s.service_date === yesterday && !s.open);
    if (!over) continue;
    if (s.computed === null || Number(s.changed) > Number(s.computed)) due.add(s.service_date);
  }
  if (opts.backfill) {
    const missing = await rows<{ service_date: string }>(
      db,
      sql`SELECT DISTINCT t.service_date FROM history_trips t
           WHERE t.service_date < ${recent[0]!}
             AND NOT EXISTS (SELECT 1 FROM history_route_days r WHERE r.service_date = t.service_date)`,
    );
    for (const m of missing) due.add(m.service_date);
  }
  const dates = [...due].sort();
  for (const date of dates) await storeRouteDays(db, await routeDaysFromTrips(db, [date], opts.rule), opts.thresholds, opts.now);
  return dates;
}

/** Stored route days in a date range (inclusive), optionally for some routes. */
export async function storedRouteDays(db: HistoryDb, from: string, to: string, routeIds: readonly number[] | null): Promise<RouteDay[]> {
  const where = and(gte(routeDays.serviceDate, from), lt(routeDays.serviceDate, addDays(to, 1)), routeIds ? inArray(routeDays.routeId, [...routeIds]) : undefined);
  const got = await db
    .select({
      routeId: routeDays.routeId,
      serviceDate: routeDays.serviceDate,
      routeCode: routeDays.routeCode,
      routeName: routeDays.routeName,
      histogram: routeDays.delayHistogram,
      unknown: routeDays.unknownDelay,
      hours: routeDays.hourProfile,
    })
    .from(routeDays)
    .where(where);
  return got;
}
