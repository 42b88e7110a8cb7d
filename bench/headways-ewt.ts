// The headways benchmark's part on headways over days (bench/headways.ts runs it over its replay): what the recorder
// would keep of the replayed day, through the recorder's derivation (lib/regularity/days.ts), against the simulator's
// true passing times; and the board's 30-day read of the stored rows.
import { pathForTrip } from '../lib/estimate';
import { DEFAULT_REGULARITY, type RouteStop, type Trip } from '../lib/model';
import { deriveRouteDay, type DayFix, type DayTrip, type DelayChange, type RegularityRow } from '../lib/regularity/days';
import { NO_SUMS, addSums, figuresOfSums, headwaySamples, plannedPassings, sumsOf, type TripPassings } from '../lib/regularity/passing';
import type { createSimulator } from '../lib/sim';
import { tripRecord } from '../lib/sim/wire';
import { loadPartnerModules, type ReplayHooks } from './estimation';
import { trueArrivals } from './predictions';
import { DAY_START, HOUR_MS, allowServerModules, loadServerModules } from './scheduler-replay';
import { median, percentile } from './support/stats';

/** Routes with at least this many trips over the replayed window have their EWT compared (the goal). */
export const EWT_MIN_TRIPS = 20;

type World = ReturnType<typeof createSimulator>['world'];

/**
 * What the recorder keeps of the replay: each trip as last listed (its final lookup once it left), each fix on its
 * trip, and each change of a trip's delay at the walk that saw it (lib/history/recorder.ts's seeTrip and onFinal).
 */
export function ewtRecorder() {
  const { schemas, map } = loadPartnerModules();
  // Ticks at every walk of /trips/active (they start on one): a delay change is kept at the walk that saw it.
  const tickMs = loadServerModules().config.appConfig({}).feed.tripsIntervalMs;
  let world: World | null = null;
  let stopsByRoute: ReadonlyMap<number, readonly RouteStop[]> = new Map();
  const trips = new Map<number, DayTrip & { routeId: number | null }>();
  const listed = new Set<number>();
  const tripOfBus = new Map<number, number>();
  const fixes = new Map<number, DayFix[]>();
  const lastGps = new Map<number, number>();
  const delays = new Map<number, DelayChange[]>();
  const delayChange = (t: Trip, at: number) => {
    const seen = delays.get(t.id);
    const prev = seen?.[seen.length - 1];
    if (prev ? prev.delayMinutes !== t.delayMinutes : t.delayMinutes !== null) (seen ?? delays.set(t.id, []).get(t.id)!).push({ at, delayMinutes: t.delayMinutes });
  };
  const keep = (t: Trip, now: number) => trips.set(t.id, { tripId: t.id, routeId: t.routeId, busId: t.busId, direction: t.direction, plannedDepartureAt: t.plannedDepartureAt, plannedArrivalAt: t.plannedArrivalAt, actualDepartureAt: t.actualDepartureAt, actualArrivalAt: t.actualArrivalAt, delayMinutes: t.delayMinutes, lastSeenAt: now, tripType: t.tripType });
  const hooks: ReplayHooks = {
    tickMs,
    start(sim, stops) {
      world = sim.world;
      stopsByRoute = stops;
    },
    tick(now, active) {
      const rule = { kind: 'zone' as const, zone: world!.zone.timeZone };
      const ids = new Set(active.map((t) => t.id));
      // The recorder's final lookup of a trip that left the list: how it ended.
      for (const id of listed) {
        if (ids.has(id)) continue;
        const ref = world!.tripById(id, now);
        if (!ref) continue;
        const final = map.tripFromWire(schemas.tripSchema.parse(tripRecord(world!, ref, now, { drift: false })), rule);
        keep(final, trips.get(id)!.lastSeenAt!);
        delayChange(final, now);
      }
      listed.clear();
      tripOfBus.clear();
      for (const t of active) {
        keep(t, now);
        delayChange(t, now);
        listed.add(t.id);
        if (t.busId !== null) tripOfBus.set(t.busId, t.id);
      }
    },
    location(busId, fix) {
      const tripId = tripOfBus.get(busId);
      if (tripId === undefined || fix.lat === null || fix.lon === null || fix.gpsAt === null || fix.gpsAt === lastGps.get(busId)) return;
      lastGps.set(busId, fix.gpsAt);
      (fixes.get(tripId) ?? fixes.set(tripId, []).get(tripId)!).push({ at: fix.gpsAt, lat: fix.lat, lon: fix.lon, heading: fix.heading, speedKmh: fix.speedKmh, accuracy: fix.accuracy });
    },
  };
  return { hooks, trips, fixes, delays, world: () => world!, stops: () => stopsByRoute };
}

interface RouteEwt {
  routeId: number;
  trips: number;
  fleetmapEwtS: number | null;
  trueEwtS: number | null;
  samples: number;
  trueSamples: number;
}

/**
 * Per route, EWT from the recorded data (the recorder's derivation) against EWT from the true passing times, over
 * the trips that truly ran wholly within the window (the same trips on both sides).
 */
export function compareEwt(rec: ReturnType<typeof ewtRecorder>, fromMs: number, toMs: number) {
  const world = rec.world();
  const byRoute = new Map<number, { trips: DayTrip[]; truth: Map<string, { stopsM: number[]; passings: TripPassings[] }> }>();
  let unmatchedDirections = 0;
  for (const t of rec.trips.values()) {
    if (t.routeId === null) continue;
    const ref = world.tripById(t.tripId, fromMs);
    const stops = rec.stops().get(t.routeId);
    const tp = stops ? pathForTrip(stops, t.direction) : null;
    if (!ref || !tp?.ok) continue;
    const arrivals = trueArrivals(world, ref.s, ref.k);
    const known = arrivals.filter((a): a is number => a !== null);
    if (known.length === 0 || known[0]! < fromMs || known[known.length - 1]! > toMs) continue;
    // The simulator's stops of the direction are the feed's, in order: the path's placed stop i is its stop i.
    const simStops = world.net.routes[ref.s.route[ref.k]!]!.directions[ref.s.dir[ref.k]!]!.stops;
    const placed = tp.path.stops;
    if (placed.length !== simStops.length || placed.some((p, i) => Math.abs(p.longitude - simStops[i]!.lon) > 1e-5 || Math.abs(p.latitude - simStops[i]!.lat) > 1e-5)) {
      unmatchedDirections++;
      continue;
    }
    let r = byRoute.get(t.routeId);
    if (!r) byRoute.set(t.routeId, (r = { trips: [], truth: new Map() }));
    r.trips.push(t);
    const stopsM = Array.from(tp.path.line.cum);
    const key = t.direction ?? '';
    let d = r.truth.get(key);
    if (!d) r.truth.set(key, (d = { stopsM, passings: [] }));
    d.passings.push({ tripId: t.tripId, actual: arrivals, planned: plannedPassings(stopsM, t.plannedDepartureAt, t.plannedArrivalAt) });
  }
  const routes: RouteEwt[] = [];
  const dayRows: RegularityRow[] = [];
  let deriveMs = 0;
  for (const [routeId, r] of byRoute) {
    const t0 = performance.now();
    const rows = deriveRouteDay({ routeId, stops: rec.stops().get(routeId), trips: r.trips, fixesByTrip: rec.fixes, delaysByTrip: rec.delays, locations: true, hourOf: (t) => Math.floor((t - DAY_START) / HOUR_MS), config: DEFAULT_REGULARITY });
    deriveMs += performance.now() - t0;
    dayRows.push(...rows);
    const fm = figuresOfSums(rows.reduce(addSums, NO_SUMS));
    const truth = figuresOfSums([...r.truth.values()].map((d) => sumsOf(headwaySamples(d.passings, d.stopsM.length, DEFAULT_REGULARITY))).reduce(addSums, NO_SUMS));
    routes.push({ routeId, trips: r.trips.length, fleetmapEwtS: fm.ewtS, trueEwtS: truth.ewtS, samples: fm.samples, trueSamples: truth.samples });
  }
  routes.sort((a, b) => a.routeId - b.routeId);
  const compared = routes.filter((r) => r.trips >= EWT_MIN_TRIPS && r.fleetmapEwtS !== null && r.trueEwtS !== null);
  const rel = compared.map((r) => Math.abs(r.fleetmapEwtS! - r.trueEwtS!) / Math.abs(r.trueEwtS!));
  const abs = compared.map((r) => Math.abs(r.fleetmapEwtS! - r.trueEwtS!));
  return {
    routes,
    compared: compared.length,
    within10: compared.length ? (100 * rel.filter((x) => x <= 0.1).length) / compared.length : null,
    relErrorMedian: median(rel),
    relErrorP90: percentile(rel, 0.9),
    absErrorMedianS: median(abs),
    unmatchedDirections,
    deriveMs,
    fixes: [...rec.fixes.values()].reduce((n, f) => n + f.length, 0),
    dayRows,
  };
}

/**
 * The board's read of a 30-day period's regularity (lib/history/regularity.ts storedRegularity, the statement
 * /api/history/routes adds) on an in-memory PGlite holding the replayed day's rows under 30 dates: median of 5.
 */
export async function periodReadMs(dayRows: readonly RegularityRow[]): Promise<{ medianMs: number | null; storedRows: number }> {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the marker is in the cache */
  const { openStore, analyzeStore } = require('../lib/history/store') as typeof import('../lib/history/store');
  const { storedRegularity, withTotals } = require('../lib/history/regularity') as typeof import('../lib/history/regularity');
  const { regularityDays, regularityHours } = require('../lib/history/schema') as typeof import('../lib/history/schema');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const store = await openStore({ databaseUrl: null, dataDir: null });
  try {
    const rows = withTotals(dayRows);
    const dates = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 1, 3 + i)).toISOString().slice(0, 10));
    for (const date of dates) {
      for (let i = 0; i < rows.length; i += 2_000) await store.db.insert(regularityHours).values(rows.slice(i, i + 2_000).map((r) => ({ serviceDate: date, ...r })));
      await store.db.insert(regularityDays).values({ serviceDate: date, computedAt: 0, complete: true });
    }
    await analyzeStore(store.db);
    await storedRegularity(store.db, dates[0]!, dates[29]!, null);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await storedRegularity(store.db, dates[0]!, dates[29]!, null);
      times.push(performance.now() - t0);
    }
    return { medianMs: median(times), storedRows: rows.length * 30 };
  } finally {
    await store.close();
  }
}

/**
 * BENCH_HEADWAYS_EWT_ONLY=1 (the EWT part alone) and BENCH_HEADWAYS_HOURS=<from>-<to> (another window) are for
 * --quick runs, whose figures go to bench/results/partial.json.tmp: a partial run must not replace the entry in
 * latest.json.
 */
export function ewtOptions(quick: boolean): { ewtOnly: boolean; hours: [number, number] | null } {
  const ewtOnly = process.env.BENCH_HEADWAYS_EWT_ONLY === '1';
  const raw = process.env.BENCH_HEADWAYS_HOURS;
  const m = raw ? /^(\d{1,2})-(\d{1,2})$/.exec(raw) : null;
  if (raw && (!m || Number(m[1]) >= Number(m[2]) || Number(m[2]) > 24)) throw new Error(`BENCH_HEADWAYS_HOURS must be <from>-<to> in hours, got ${raw}`);
  if ((ewtOnly || raw) && !quick) throw new Error('BENCH_HEADWAYS_EWT_ONLY and BENCH_HEADWAYS_HOURS make a partial run: add --quick');
  return { ewtOnly, hours: m ? [Number(m[1]), Number(m[2])] : null };
}
