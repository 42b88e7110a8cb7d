import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, text } from 'drizzle-orm/pg-core';

// What Fleetmap remembers (lib/history), one schema for PGlite and PostgreSQL. Every table is prefixed
// `history_` because other rooms (sign-in) keep their tables in the same database and migrations folder.
// Instants are epoch milliseconds in bigint columns, the app model's EpochMs: no timezone conversion happens
// between the feed and the store, and the agency's timezone is applied only where a service day is cut.

const epochMs = (name: string) => bigint(name, { mode: 'number' });

/** Every new fix of a bus, stored once per (bus, GPS time). */
export const busFixes = pgTable(
  'history_bus_fixes',
  {
    busId: integer('bus_id').notNull(),
    /** The GPS time, or the fetched time for a fix without one: the key a repeated fix collides on. */
    fixAt: epochMs('fix_at').notNull(),
    gpsAt: epochMs('gps_at'),
    fetchedAt: epochMs('fetched_at').notNull(),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    heading: real('heading'),
    speedKmh: real('speed_kmh'),
    accuracy: real('accuracy'),
    tripId: epochMs('trip_id'),
  },
  (t) => [
    primaryKey({ columns: [t.busId, t.fixAt] }),
    // "The fleet as Fleetmap knew it at a moment" reads each bus's last fix fetched before that moment; a bus's
    // track reads a window of it; retention prunes each bus's oldest through it (no index on the age alone: a
    // third of the table's size for a query that runs in the background).
    index('history_bus_fixes_bus_fetched').on(t.busId, t.fetchedAt),
  ],
);

/**
 * Every bus the fixes hold, with its first and last fetched time: "which buses" is one small read instead of a
 * walk of the fixes' index (a loose index scan costs a probe per bus, slow on PGlite). Kept by each batch.
 */
export const buses = pgTable('history_buses', {
  busId: integer('bus_id').primaryKey(),
  firstFetchedAt: epochMs('first_fetched_at').notNull(),
  lastFetchedAt: epochMs('last_fetched_at').notNull(),
});

/** Every trip seen on /trips/active, as last seen, with how it ended when /trips/{id} told. */
export const trips = pgTable(
  'history_trips',
  {
    tripId: bigint('trip_id', { mode: 'number' }).primaryKey(),
    routeId: integer('route_id'),
    routeCode: text('route_code'),
    routeName: text('route_name'),
    direction: text('direction'),
    busId: integer('bus_id'),
    plateNumber: text('plate_number'),
    busName: text('bus_name'),
    /** The upstream's trip_date (`YYYY-MM-DD`), the service date. */
    serviceDate: text('service_date'),
    tripType: text('trip_type'),
    serviceKind: text('service_kind'),
    plannedDepartureAt: epochMs('planned_departure_at'),
    plannedArrivalAt: epochMs('planned_arrival_at'),
    actualDepartureAt: epochMs('actual_departure_at'),
    actualArrivalAt: epochMs('actual_arrival_at'),
    /** The raw status as last known. */
    status: text('status'),
    delayMinutes: real('delay_minutes'),
    firstSeenAt: epochMs('first_seen_at').notNull(),
    lastSeenAt: epochMs('last_seen_at').notNull(),
    /** When the one /trips/{id} lookup after the trip left /trips/active answered; null before. */
    finalAt: epochMs('final_at'),
    /** False when that lookup answered 404. */
    finalFound: boolean('final_found'),
  },
  // No index holds a column a walk of /trips/active changes (last sighting, status, delay, final answer): every
  // walk updates each trip it lists, and an update that touches no indexed column stays on its page (a HOT
  // update, with the room the table's fillfactor leaves, see drizzle/0003) instead of writing every index again.
  // Reads by recency go through first_seen_at: a trip is listed for hours, never days.
  (t) => [index('history_trips_date_route').on(t.serviceDate, t.routeId), index('history_trips_first_seen').on(t.firstSeenAt), index('history_trips_bus_first_seen').on(t.busId, t.firstSeenAt)],
);

/** Each change of a trip's raw status, with when it was first seen. */
export const tripStatusChanges = pgTable(
  'history_trip_status_changes',
  { tripId: epochMs('trip_id').notNull(), at: epochMs('at').notNull(), status: text('status') },
  (t) => [primaryKey({ columns: [t.tripId, t.at] })],
);

/** Each change of a trip's delay (never a repeat of the same value). */
export const tripDelayChanges = pgTable(
  'history_trip_delay_changes',
  { tripId: epochMs('trip_id').notNull(), at: epochMs('at').notNull(), delayMinutes: real('delay_minutes') },
  (t) => [primaryKey({ columns: [t.tripId, t.at] })],
);

/** The feed's upstream health transitions. */
export const healthTransitions = pgTable(
  'history_health_transitions',
  { id: serial('id').primaryKey(), at: epochMs('at').notNull(), fromState: text('from_state').notNull(), toState: text('to_state').notNull(), message: text('message').notNull() },
  (t) => [index('history_health_at').on(t.at)],
);

/** Upstream requests per minute, by kind and lane: what the budget was spent on. */
export const budgetMinutes = pgTable(
  'history_budget_minutes',
  {
    /** Start of the minute, epoch ms. */
    minute: epochMs('minute').notNull(),
    kind: text('kind').notNull(),
    lane: text('lane').notNull(),
    requests: integer('requests').notNull(),
    failures: integer('failures').notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.kind, t.lane] })],
);

/** Times the recorder could not write: rows dropped and why, so a hole in the history is explained. */
export const recorderGaps = pgTable('history_recorder_gaps', {
  id: serial('id').primaryKey(),
  fromAt: epochMs('from_at').notNull(),
  toAt: epochMs('to_at').notNull(),
  droppedRows: integer('dropped_rows').notNull(),
  reason: text('reason').notNull(),
});

/**
 * Per route and service date, once the day has closed: the delay board's figures, and the histogram of final
 * delays they come from, so that medians and p90s over any period are exact. Kept after the trips are pruned.
 */
export const routeDays = pgTable(
  'history_route_days',
  {
    routeId: integer('route_id').notNull(),
    serviceDate: text('service_date').notNull(),
    routeCode: text('route_code'),
    routeName: text('route_name'),
    trips: integer('trips').notNull(),
    early: integer('early').notNull(),
    onTime: integer('on_time').notNull(),
    late: integer('late').notNull(),
    unknownDelay: integer('unknown_delay').notNull(),
    meanMin: doublePrecision('mean_min'),
    medianMin: doublePrecision('median_min'),
    p90Min: doublePrecision('p90_min'),
    worstMin: doublePrecision('worst_min'),
    onTimeShare: doublePrecision('on_time_share'),
    /** The thresholds the counts were made with. */
    lateMin: real('late_min').notNull(),
    earlyMin: real('early_min').notNull(),
    /** Final delay in minutes → trips, for the trips with a known delay. */
    delayHistogram: jsonb('delay_histogram').$type<Record<string, number>>().notNull(),
    /** Mean delay per local hour of planned departure: hour → [sum of delays, trips]. */
    hourProfile: jsonb('hour_profile').$type<Record<string, [number, number]>>().notNull(),
    computedAt: epochMs('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.routeId, t.serviceDate] }), index('history_route_days_date').on(t.serviceDate)],
);

/**
 * Headways over days (lib/history/regularity.ts): per service date, route, direction and local hour, the sums a
 * period's regularity figures are made of (lib/regularity/passing.ts's HeadwaySums) and the ghost trip-minutes, with
 * the day's totals beside them (hour -1: a route and direction's whole day; route -1: every route together). Any
 * period's figures are sums of rows.
 */
export const regularityHours = pgTable(
  'history_regularity_hours',
  {
    serviceDate: text('service_date').notNull(),
    routeId: integer('route_id').notNull(),
    direction: text('direction').notNull(),
    hour: integer('hour').notNull(),
    samples: integer('samples').notNull(),
    sumH: doublePrecision('sum_h').notNull(),
    sumH2: doublePrecision('sum_h2').notNull(),
    scheduled: integer('scheduled').notNull(),
    sumSched: doublePrecision('sum_sched').notNull(),
    sumSched2: doublePrecision('sum_sched2').notNull(),
    bunched: integer('bunched').notNull(),
    gapped: integer('gapped').notNull(),
    ghostMinutes: doublePrecision('ghost_minutes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.serviceDate, t.routeId, t.direction, t.hour] }),
    // A period's read sums the totals rows only (lib/history/regularity.ts withTotals): each route and direction's
    // whole day (hour -1), and every route together (route -1). Each has its own small index by date.
    index('history_regularity_whole_days').on(t.serviceDate, t.routeId).where(sql`hour = -1`),
    index('history_regularity_all_routes').on(t.serviceDate, t.hour).where(sql`route_id = -1`),
  ],
);

/**
 * The service dates whose regularity was derived, and when: a date in a period without a row here was recorded
 * before the derivation existed ("not derived", never zero). `complete` is false for a day still running.
 */
export const regularityDays = pgTable('history_regularity_days', {
  serviceDate: text('service_date').primaryKey(),
  computedAt: epochMs('computed_at').notNull(),
  complete: boolean('complete').notNull(),
});

/** Small facts the recorder keeps between runs (the time of the last complete trip walk). */
export const recorderState = pgTable('history_recorder_state', {
  key: text('key').primaryKey(),
  value: epochMs('value').notNull(),
});

/**
 * Which upstream this store belongs to (lib/history/upstream-identity.ts): one row, written at the store's first
 * start. Never the key: a one-way fingerprint of it.
 */
export const storeUpstream = pgTable('store_upstream', {
  id: integer('id').primaryKey(),
  /** The upstream's base URL, or `embedded simulator`. */
  upstream: text('upstream').notNull(),
  keyFingerprint: text('key_fingerprint').notNull(),
  recordedAt: epochMs('recorded_at').notNull(),
});
