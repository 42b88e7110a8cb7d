// Benchmark 7: where the map puts each bus against where it truly is. The service-day replay of benchmark 2b (the
// simulator's world on a simulated clock, no HTTP, Fleetmap's location scheduler on the same budget of slots)
// with the app's own view of the data: route stops, active trips and locations go through the simulator's wire
// records and lib/partner's schemas and mapping, as the feed reads them. Every 10 s, every bus the app holds an
// active trip for is compared with its true position three ways: (1) its last fix as is, (2) the GPS-based
// estimate (lib/estimate with the bus's recent fixes), (3) the schedule-only estimate (the same module with no
// fix, as a Standard-plan key sees it). The replay also scores the horizon candidates (how long after a fix the
// advance may go on) and a naive advance with no back-off rule, to show where the rule keeps the fix.
import { createSimulator } from '../lib/sim';
import { locationRecord, routeStopIdBase, routeStopRecords, tripRecord } from '../lib/sim/wire';
import { DEFAULT_TUNING, RECENT_FIXES_NEEDED, estimatePosition, pathForTrip, type Estimate, type RecentFix, type RoutePath } from '../lib/estimate';
import { pointAlong, projectOnto } from '../lib/geo/polyline';
import { distanceM } from '../lib/geo/sphere';
import type { RouteStop, Trip } from '../lib/model';
import { DAY_START, HOUR_MS, LIMIT_PER_MINUTE, SAMPLE_MS, TRIPS_PER_PAGE, allowServerModules, loadServerModules } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { mean, median, percentile } from './support/stats';

export function loadPartnerModules() {
  allowServerModules();
  return {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
    schemas: require('../lib/partner/schemas') as typeof import('../lib/partner/schemas'),
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
    map: require('../lib/partner/map') as typeof import('../lib/partner/map'),
  };
}

/** Fix ages (s) the figures are split by: bucket i holds ages from AGE_EDGES_S[i] up to the next edge. */
const AGE_EDGES_S = [0, 30, 60, 90, 120, 180, 300, 600, 900] as const;
/** Horizons tried (s): the chosen one is the shortest whose mean error is within 1 % of the best. */
const HORIZONS_S = [0, 30, 60, 90, 120, 180, 300, 600, 900, 1800] as const;
const WIRE = { drift: false };

interface Errors {
  fix: number[];
  gps: number[];
  schedule: number[];
  naive: number[];
}

const errors = (): Errors => ({ fix: [], gps: [], schedule: [], naive: [] });

const summary = (xs: number[]) => ({ n: xs.length, mean: mean(xs), p50: median(xs), p95: percentile(xs, 0.95) });

export function ageBucket(ageS: number): string {
  let i = AGE_EDGES_S.length - 1;
  while (i > 0 && ageS < AGE_EDGES_S[i]!) i--;
  const from = AGE_EDGES_S[i]!;
  const to = AGE_EDGES_S[i + 1];
  return to === undefined ? `${from}+ s` : `${from}–${to} s`;
}

/** The peer of the back-off rows: the fix snapped anywhere on the path and advanced at the trip's pace for its whole age. */
function naiveAdvance(path: RoutePath, trip: Trip, fix: RecentFix & { lat: number; lon: number; gpsAt: number }, now: number): { lon: number; lat: number } | null {
  if (trip.plannedDepartureAt === null || trip.plannedArrivalAt === null || trip.plannedArrivalAt <= trip.plannedDepartureAt) return null;
  const p = projectOnto(path.line, fix.lon, fix.lat);
  if (!p) return null;
  const pace = path.line.lengthM / (trip.plannedArrivalAt - trip.plannedDepartureAt);
  return pointAlong(path.line, p.alongM + pace * Math.max(0, now - fix.gpsAt));
}

export interface ReplaySample {
  now: number;
  busId: number;
  trip: Trip;
  /** The path of the trip's direction, or null when the rule cannot tell it. */
  path: RoutePath | null;
  /** The route's stops, all directions, as the feed reads /routes/{id}/stops. */
  routeStops: readonly RouteStop[];
  /** The bus's last few distinct fixes as the browser holds them, oldest first. */
  fixes: readonly RecentFix[];
  truth: { lon: number; lat: number; onTrip: boolean };
  /** Every route's stops as the feed reads them (one map for the whole replay). */
  allRouteStops: ReadonlyMap<number, RouteStop[]>;
}

export interface ReplayRun {
  buses: number;
  fromH: number;
  toH: number;
  warmupMs: number;
  slotsPerMinute: number;
  tripsIntervalMs: number;
  samples: number;
}

/** What else a replay tells (the exceptions benchmark): the simulator, every location fetched, and a tick. */
/** What a hook may ask of the replay's feed. */
export interface ReplayControl {
  /** As lib/fleet's Feed.watch: the bus's next location comes first, for the feed's watch TTL from `now`. */
  watch(busId: number, now: number): void;
}

export interface ReplayHooks {
  start?(sim: ReturnType<typeof createSimulator>, stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>, control: ReplayControl): void;
  /** A location answer as the feed reads it, fetched at `now`. */
  location?(busId: number, fix: RecentFix, now: number): void;
  /** Every tickMs from the start of the measured span: the active trips of the last walk, each bus's or none. */
  tick?(now: number, trips: readonly Trip[]): void;
  tickMs?: number;
}

/**
 * Replays the service day from `fromH` to `toH` (local hours, after a 30-minute warm-up) and hands every bus the
 * app holds an active trip for to `onSample` every SAMPLE_MS. `dayStart`: another day's local midnight.
 */
/** What /routes/{id}/stops answers for each of the simulator's routes, read as the feed reads it. */
export function routeStopsOf(world: ReturnType<typeof createSimulator>['world']): Map<number, RouteStop[]> {
  const { schemas, map } = loadPartnerModules();
  const idBase = routeStopIdBase(world.net.routes);
  return new Map<number, RouteStop[]>(
    world.net.routes.map((r) => [r.id, map.routeStopsFromWire(schemas.routeStopsDataSchema.parse({ route: { id: r.id }, items: routeStopRecords(r, idBase[r.index]!, WIRE) })).stops]),
  );
}

export function replayServiceDay(fromH: number, toH: number, onSample: (s: ReplaySample) => void, dayStart = DAY_START, hooks: ReplayHooks = {}): ReplayRun {
  const { scheduler: schedulerModule, config } = loadServerModules();
  const { schemas, map } = loadPartnerModules();
  const { LocationScheduler, newTrack, recordFix } = schedulerModule;
  const { budgetShare, tripsIntervalMs, parkedFloorMs, watchTtlMs } = config.appConfig({}).feed;
  const warmupMs = 30 * 60_000;
  let now = dayStart + fromH * HOUR_MS - warmupMs;
  const sim = createSimulator({ startAt: now, now: () => now });
  const world = sim.world;
  const buses = world.fleet.buses;
  const rule = { kind: 'zone' as const, zone: world.zone.timeZone };
  const slotsPerMinute = Math.floor(budgetShare * LIMIT_PER_MINUTE);
  const slotMs = 60_000 / slotsPerMinute;

  const stopsByRoute = routeStopsOf(world);

  const tracks = buses.map((b) => newTrack(b.id));
  hooks.start?.(sim, stopsByRoute, {
    watch: (busId, at) => {
      const t = tracks[busId - 1];
      if (!t) return;
      if (t.watchedUntil <= at) t.watchedSince = at;
      t.watchedUntil = at + watchTtlMs;
    },
  });
  const scheduler = new LocationScheduler();
  const recent = new Map<number, RecentFix[]>();
  let tripsByBus = new Map<number, Trip>();
  let trips: Trip[] = [];
  const measureFrom = dayStart + fromH * HOUR_MS;
  const end = dayStart + toH * HOUR_MS;
  let nextSlot = now;
  let nextTrips = now;
  let nextSample = measureFrom;
  const tickMs = hooks.tick ? (hooks.tickMs ?? SAMPLE_MS) : Number.POSITIVE_INFINITY;
  let nextTick = hooks.tick ? measureFrom : Number.POSITIVE_INFINITY;
  let walkSlotsLeft = 0;
  let samples = 0;
  while (now < end) {
    now = Math.min(nextSlot, nextTrips, nextSample, nextTick);
    if (now === nextTrips) {
      // What /trips/active lists now; its pages take location slots, as in the feed.
      tripsByBus = new Map();
      trips = [];
      for (const ref of world.activeTrips(now)) {
        const trip = map.tripFromWire(schemas.tripSchema.parse(tripRecord(world, ref, now, WIRE)), rule);
        trips.push(trip);
        if (trip.busId !== null) tripsByBus.set(trip.busId, trip);
      }
      for (const t of tracks) t.onTrip = tripsByBus.has(t.busId);
      walkSlotsLeft += Math.max(1, Math.ceil(tripsByBus.size / TRIPS_PER_PAGE));
      nextTrips += tripsIntervalMs;
    }
    if (now === nextSlot) {
      if (walkSlotsLeft > 0) walkSlotsLeft--;
      else {
        const id = scheduler.pick(tracks, now, { parkedFloorMs, watchRefreshMs: 5_000, slotMs })?.busId ?? null;
        if (id !== null) {
          const loc = map.busLocationFromWire(schemas.busLocationSchema.parse(locationRecord(world, buses[id - 1]!, now, WIRE)), rule);
          const fix: RecentFix = { lat: loc.latitude, lon: loc.longitude, gpsAt: loc.lastGpsAt, speedKmh: loc.speedKmh, heading: loc.heading, accuracy: loc.accuracy };
          recordFix(tracks[id - 1]!, fix, now);
          hooks.location?.(id, fix, now);
          // The browser keeps the last few distinct fixes of each bus it has seen.
          const held = (recent.get(id) ?? []).filter((f) => f.gpsAt !== fix.gpsAt);
          if (fix.lat !== null && fix.lon !== null && fix.gpsAt !== null) held.push(fix);
          recent.set(id, held.slice(-RECENT_FIXES_NEEDED));
        }
      }
      nextSlot += slotMs;
    }
    if (now === nextSample) {
      samples++;
      for (const [busId, trip] of tripsByBus) {
        const truth = world.busState(buses[busId - 1]!, now);
        const routeStops = trip.routeId === null ? [] : (stopsByRoute.get(trip.routeId) ?? []);
        const tripPath = trip.routeId === null ? null : pathForTrip(routeStops, trip.direction);
        onSample({ now, busId, trip, path: tripPath?.ok ? tripPath.path : null, routeStops, fixes: recent.get(busId) ?? [], truth, allRouteStops: stopsByRoute });
      }
      nextSample += SAMPLE_MS;
    }
    if (now === nextTick) {
      hooks.tick!(now, trips);
      nextTick += tickMs;
    }
  }
  void sim.close();
  return { buses: buses.length, fromH, toH, warmupMs, slotsPerMinute, tripsIntervalMs, samples };
}

/** Where the advance of a GPS-based estimate would have stopped with another horizon. */
export function withHorizon(e: Estimate, horizonS: number, now: number): { lon: number; lat: number } {
  const m = e.motion;
  if (e.basis !== 'gps-estimate' || !m) return e;
  const toM = Math.min(m.line.lengthM, m.fromM + m.speedMps * horizonS);
  return pointAlong(m.line, Math.min(toM, m.fromM + (m.speedMps * Math.max(0, now - m.fromAt)) / 1000));
}

export const estimation: Benchmark = {
  name: 'estimation',
  title: '7. Position estimates (replay)',
  needsApp: false,
  async run(ctx) {
    const fromH = ctx.quick ? 7 : 5;
    const toH = ctx.quick ? 9 : 23;
    const paired = errors();
    const byAge = new Map<string, Errors>();
    // By what the estimator chose and why: its error, the last fix's on the same samples, and how often the truth
    // lay within its radius.
    const byKind = new Map<string, { errors: number[]; fixErrors: number[]; covered: number }>();
    const tally = (key: string, e: Estimate, error: number, fixError: number | null) => {
      const k = byKind.get(key) ?? { errors: [], fixErrors: [], covered: 0 };
      k.errors.push(error);
      if (fixError !== null) k.fixErrors.push(fixError);
      if (error <= e.radiusM) k.covered++;
      byKind.set(key, k);
    };
    const backedOff = new Map<string, { rule: number[]; naive: number[] }>();
    const horizon = HORIZONS_S.map((h) => ({ h, errors: [] as number[] }));
    const noFix = { schedule: [] as number[], unplaced: 0 };
    // Fixes past the stale limit: what advancing them (up to the horizon) would have given instead of the schedule.
    const stale = { schedule: [] as number[], advanced: [] as number[] };
    let noPath = 0;
    let truthOffTrip = 0;
    ctx.log(`  ${fromH}:00–${toH}:00 simulated after a 30 min warm-up`);
    const run = replayServiceDay(fromH, toH, ({ now, trip, path, fixes, truth }) => {
      if (!truth.onTrip) truthOffTrip++;
      if (!path) noPath++;
      const err = (e: { lon: number; lat: number } | null) => (e === null ? null : distanceM(e.lon, e.lat, truth.lon, truth.lat));
      const fromSchedule = estimatePosition({ path, trip, fixes: [], now });
      const last = fixes[fixes.length - 1] as (RecentFix & { lat: number; lon: number; gpsAt: number }) | undefined;
      if (!last) {
        if (fromSchedule) {
          noFix.schedule.push(err(fromSchedule)!);
          tally(`${fromSchedule.basis} (${fromSchedule.reason})`, fromSchedule, err(fromSchedule)!, null);
        } else noFix.unplaced++;
        return;
      }
      const est = estimatePosition({ path, trip, fixes, now })!;
      const naive = path ? naiveAdvance(path, trip, last, now) : null;
      const fixErr = err(last)!;
      const estErr = err(est)!;
      const schedErr = err(fromSchedule);
      const naiveErr = err(naive) ?? fixErr;
      paired.fix.push(fixErr);
      paired.gps.push(estErr);
      paired.naive.push(naiveErr);
      if (schedErr !== null) {
        paired.schedule.push(schedErr);
        tally('schedule-only, buses with a fix', fromSchedule!, schedErr, fixErr);
      }
      const bucket = ageBucket((now - last.gpsAt) / 1000);
      if (!byAge.has(bucket)) byAge.set(bucket, errors());
      const a = byAge.get(bucket)!;
      a.fix.push(fixErr);
      a.gps.push(estErr);
      a.naive.push(naiveErr);
      if (schedErr !== null) a.schedule.push(schedErr);
      tally(`${est.basis} (${est.reason})`, est, estErr, fixErr);
      if (est.basis === 'fix') {
        const o = backedOff.get(est.reason) ?? { rule: [], naive: [] };
        o.rule.push(estErr);
        o.naive.push(naiveErr);
        backedOff.set(est.reason, o);
      }
      for (const c of horizon) c.errors.push(err(withHorizon(est, c.h, now))!);
      if (est.reason === 'stale-fix') {
        stale.schedule.push(estErr);
        stale.advanced.push(err(estimatePosition({ path, trip, fixes, now }, { ...DEFAULT_TUNING, staleFixS: Number.POSITIVE_INFINITY }))!);
      }
    });
    const horizonRows = horizon.map((c) => ({ horizonS: c.h, ...summary(c.errors) }));
    const best = Math.min(...horizonRows.map((r) => r.mean ?? Infinity));
    const chosenHorizon = horizonRows.find((r) => (r.mean ?? Infinity) <= best * 1.01)!.horizonS;
    const ages = [...byAge.entries()]
      .sort((a, b) => parseFloat(a[0]) - parseFloat(b[0]))
      .map(([bucket, e]) => ({ bucket, n: e.fix.length, fix: summary(e.fix), gps: summary(e.gps), schedule: summary(e.schedule), naive: summary(e.naive) }));
    const kinds = Object.fromEntries(
      [...byKind].sort((a, b) => b[1].errors.length - a[1].errors.length).map(([k, v]) => [k, { ...summary(v.errors), fixMean: mean(v.fixErrors), withinRadiusPct: (100 * v.covered) / v.errors.length }]),
    );
    const backOff = Object.fromEntries([...backedOff].map(([k, v]) => [k, { n: v.rule.length, rule: summary(v.rule), naive: summary(v.naive) }]));

    const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(0).padStart(5));
    ctx.log(`  error by the fix's age (m; mean / p95):           n     last fix      GPS-based   schedule-only  naive advance`);
    for (const a of ages) ctx.log(`    ${a.bucket.padEnd(12)} ${String(a.n).padStart(36)}  ${fmt(a.fix.mean)} /${fmt(a.fix.p95)}  ${fmt(a.gps.mean)} /${fmt(a.gps.p95)}  ${fmt(a.schedule.mean)} /${fmt(a.schedule.p95)}  ${fmt(a.naive.mean)} /${fmt(a.naive.p95)}`);
    ctx.log(`  GPS-based estimate by horizon (m; mean / p95): ${horizonRows.map((r) => `${r.horizonS} s ${fmt(r.mean)} /${fmt(r.p95)}`).join(', ')}; shortest within 1 % of the best: ${chosenHorizon} s (in use: ${DEFAULT_TUNING.horizonS} s)`);
    for (const [k, v] of Object.entries(kinds)) ctx.log(`  ${k}: n ${v.n}, mean ${fmt(v.mean)} m (last fix ${fmt(v.fixMean)} m), p95 ${fmt(v.p95)} m, truth within the radius ${v.withinRadiusPct.toFixed(0)} %`);
    ctx.log(`  past the stale limit (${stale.schedule.length} samples): the schedule ${fmt(mean(stale.schedule))} m mean against ${fmt(mean(stale.advanced))} m advancing the old fix`);
    for (const [k, v] of Object.entries(backOff)) ctx.log(`  kept the fix (${k}): n ${v.n}, mean ${fmt(v.rule.mean)} m against ${fmt(v.naive.mean)} m for a naive advance (p95 ${fmt(v.rule.p95)} / ${fmt(v.naive.p95)})`);

    const fix = summary(paired.fix);
    const gps = summary(paired.gps);
    const sched = summary(paired.schedule);
    const keptRule = [...backedOff.values()].flatMap((v) => v.rule);
    const keptNaive = [...backedOff.values()].flatMap((v) => v.naive);
    const vsFix = (metric: string, value: number | null, fixValue: number | null): Figure => ({ metric, unit: 'm', fleetmap: value, peer: fixValue, better: 'lower' });
    const noFixSched = summary(noFix.schedule);
    return {
      peer: 'last fix',
      conditions:
        `replay of the simulator's world as in 2b (${run.buses} buses, seed 42, Wednesday ${fromH}:00–${toH}:00 after a ${run.warmupMs / 60_000} min warm-up, ${run.slotsPerMinute} location slots/min, active trips every ${run.tripsIntervalMs / 1000} s), ` +
        `stops, trips and locations read through lib/partner; every ${SAMPLE_MS / 1000} s every bus the app holds an active trip for and a fix of (mean ${Math.round(paired.fix.length / run.samples)}) compared with /__admin/truth's position: its last fix, the GPS-based estimate (last ${RECENT_FIXES_NEEDED} fixes), the schedule-only estimate (no fix); horizon ${DEFAULT_TUNING.horizonS} s, stale fix after ${DEFAULT_TUNING.staleFixS} s`,
      figures: [
        { metric: 'last fix: error, mean', unit: 'm', fleetmap: fix.mean, peer: null, better: 'lower' },
        { metric: 'last fix: error, median', unit: 'm', fleetmap: fix.p50, peer: null, better: 'lower' },
        { metric: 'last fix: error, p95', unit: 'm', fleetmap: fix.p95, peer: null, better: 'lower' },
        vsFix('GPS-based estimate: error, mean', gps.mean, fix.mean),
        vsFix('GPS-based estimate: error, median', gps.p50, fix.p50),
        vsFix('GPS-based estimate: error, p95', gps.p95, fix.p95),
        vsFix('schedule-only estimate: error, mean', sched.mean, fix.mean),
        vsFix('schedule-only estimate: error, median', sched.p50, fix.p50),
        vsFix('schedule-only estimate: error, p95', sched.p95, fix.p95),
        { metric: 'schedule-only, buses with no fix: error, median', unit: 'm', fleetmap: noFixSched.p50, peer: null, better: 'lower' },
        { metric: 'samples where the rule kept the fix', unit: '%', fleetmap: (100 * keptRule.length) / paired.fix.length, peer: null, better: 'lower' },
        { metric: 'where it kept the fix: error, mean', unit: 'm', fleetmap: mean(keptRule), peer: null, better: 'lower' },
        { metric: 'there, a naive advance: error, mean', unit: 'm', fleetmap: mean(keptNaive), peer: null, better: 'lower' },
      ],
      details: {
        ...run,
        pairedBusSamples: paired.fix.length,
        busSamplesWithoutPath: noPath,
        busSamplesTruthOffTrip: truthOffTrip,
        noFix: { ...noFixSched, unplaced: noFix.unplaced },
        lastFix: fix,
        gpsBased: gps,
        scheduleOnly: { ...sched, busSamplesPlaced: paired.schedule.length },
        naiveAdvance: summary(paired.naive),
        byAge: ages,
        byKind: kinds,
        keptFixByReason: backOff,
        pastStaleLimit: { schedule: summary(stale.schedule), advancedFix: summary(stale.advanced) },
        horizon: { candidates: horizonRows, chosenS: chosenHorizon, inUseS: DEFAULT_TUNING.horizonS },
        tuning: DEFAULT_TUNING,
      },
    };
  },
};
