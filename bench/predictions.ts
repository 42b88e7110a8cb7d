// Benchmark 8: arrival predictions against the simulator's true passing times. The service-day replay of benchmark
// 7 (the simulator's world on a simulated clock, the app's location scheduler on the live app's budget of slots,
// stops, trips and locations read through lib/partner) hands over, every minute, every trip the app holds as
// active with the bus's recent fixes. Three predictors give an arrival time for every stop the bus has still to
// reach within 30 minutes:
//  - Fleetmap: lib/predictions (route-snapped progress from lib/estimate, the plan spread by distance with a dwell
//    allowance, the current delay carried forward), and the same with a pace profile learnt from an earlier day;
//  - baseline A: the planned departure and arrival interpolated by distance, plus the current delay_minutes (what a
//    client of the raw API can do);
//  - baseline B: the schedule alone.
// The truth is the simulator's: the instant the trip's progress reaches each stop (lib/sim/schedule's
// tripProgress, the function the simulator places its buses with). A pace profile is learnt from the replay of the
// day before (Tuesday, same hours): the fixes the app received, snapped by lib/estimate, give each segment's time
// against the flat plan, per route, direction and hour of departure. It is learnt by the very function the server
// seeds its profiles with at start from the recorder's trips of the last days (lib/predictions/pace-seed.ts).
import { createSimulator } from '../lib/sim';
import { tripProgress, type DaySchedule } from '../lib/sim/schedule';
import { stopsForDirection, type RecentFix, type RoutePath } from '../lib/estimate';
import type { Trip } from '../lib/model';
import { PaceLearner } from '../lib/predictions/pace-profile';
import { learnRun } from '../lib/predictions/pace-seed';
import { DEFAULT_PACE, predictTrip, type PaceTuning, type TripPrediction } from '../lib/predictions/predict';
import { replayServiceDay } from './estimation';
import { DAY_START, HOUR_MS } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { mean, percentile } from './support/stats';

const BINS = [
  { label: '0–2 min', from: 0, to: 2 },
  { label: '2–5 min', from: 2, to: 5 },
  { label: '5–10 min', from: 5, to: 10 },
  { label: '10–20 min', from: 10, to: 20 },
  { label: '20–30 min', from: 20, to: 30 },
] as const;
const PREDICT_EVERY_MS = 60_000;
/** How the delay is carried forward: the candidates scored beside the default (MAE over horizons from 2 min). */
const PACE_GRID: PaceTuning[] = [0, 0.03, 0.05, 0.08].flatMap((priorDrift) => [0, 0.25, 0.5, 0.75].map((ownWeight) => ({ priorDrift, ownWeight })));
const DAY_MS = 24 * HOUR_MS;

type Predictor = 'fleetmap' | 'fleetmapHistory' | 'fleetmapStandard' | 'baselineA' | 'baselineB';
const PREDICTORS: Predictor[] = ['fleetmap', 'fleetmapHistory', 'fleetmapStandard', 'baselineA', 'baselineB'];

interface Bin {
  abs: Record<Predictor, number[]>;
  /** truth − prediction, s (Fleetmap, and with the profile): the bands' calibration. */
  signed: number[];
  signedHistory: number[];
  covered: number;
  coveredHistory: number;
  coveredStandard: number;
}

const newBin = (): Bin => ({ abs: { fleetmap: [], fleetmapHistory: [], fleetmapStandard: [], baselineA: [], baselineB: [] }, signed: [], signedHistory: [], covered: 0, coveredHistory: 0, coveredStandard: 0 });

/** The instants a trip truly reaches each stop of its direction (null past its last stop: a short turn). */
export function trueArrivals(world: ReturnType<typeof createSimulator>['world'], s: DaySchedule, k: number): (number | null)[] {
  const d = world.net.routes[s.route[k]!]!.directions[s.dir[k]!]!;
  const off = d.offsetS;
  const T = s.arrS[k]! - s.depS[k]!;
  const depMs = s.baseMs + s.depS[k]! * 1000;
  const lo0 = s.d0[k]!;
  const hi0 = T + s.dEnd[k]!;
  const out: (number | null)[] = [];
  for (let i = 0; i < d.stops.length; i++) {
    if (i > s.lastStop[k]!) {
      out.push(null);
      continue;
    }
    if (i === 0) {
      out.push(depMs + lo0 * 1000);
      continue;
    }
    // First elapsed second whose progress reaches the stop's planned offset (progress only moves forward).
    let lo = lo0;
    let hi = hi0;
    for (let it = 0; it < 40 && hi - lo > 0.25; it++) {
      const mid = (lo + hi) / 2;
      const tau = tripProgress(s, k, mid)?.tau ?? T;
      if (tau >= off[i]!) hi = mid;
      else lo = mid;
    }
    out.push(depMs + hi * 1000);
  }
  return out;
}

/** Local hour of the day of an instant, for the replayed days (DAY_START is a local midnight). */
const hourOf = (t: number) => Math.floor((((t - DAY_START) % DAY_MS) + DAY_MS) % DAY_MS / HOUR_MS);

/**
 * Learns pace profiles from one replayed day, as the server seeds them at start from the trips the recorder kept
 * (lib/predictions/pace-seed.ts, the same learnRun): each trip with every fix the app received of its bus while on
 * it, placed by lib/estimate one after the other, per route, direction and hour of departure.
 */
function learnProfiles(fromH: number, toH: number, dayStart: number): PaceLearner {
  const learner = new PaceLearner(hourOf);
  const trips = new Map<number, { trip: Trip; path: RoutePath; fixes: Map<number, RecentFix> }>();
  replayServiceDay(
    fromH,
    toH,
    ({ trip, path, fixes }) => {
      if (!path || trip.routeId === null || trip.plannedDepartureAt === null || trip.plannedArrivalAt === null) return;
      let t = trips.get(trip.id);
      if (!t) trips.set(trip.id, (t = { trip, path, fixes: new Map() }));
      t.trip = trip;
      // The recorder keeps a bus's fixes on its trip: those since the trip left (or was first listed).
      for (const f of fixes) if (f.gpsAt !== null && f.gpsAt >= (trip.actualDepartureAt ?? trip.plannedDepartureAt)) t.fixes.set(f.gpsAt, f);
    },
    dayStart,
  );
  for (const { trip, path, fixes } of trips.values()) {
    learnRun(learner, { ...trip, routeId: trip.routeId!, plannedDepartureAt: trip.plannedDepartureAt!, plannedArrivalAt: trip.plannedArrivalAt! }, path, [...fixes.values()]);
  }
  return learner;
}

export const predictions: Benchmark = {
  name: 'predictions',
  title: '8. Arrival predictions (replay)',
  needsApp: false,
  async run(ctx) {
    const fromH = ctx.quick ? 7 : 5;
    const toH = ctx.quick ? 9 : 23;
    ctx.log(`  learning pace profiles from the day before, ${fromH}:00–${toH}:00`);
    const profiles = learnProfiles(fromH, toH, DAY_START - DAY_MS);
    ctx.log(`  ${profiles.size} profiles (route, direction, hour); predicting ${fromH}:00–${toH}:00`);
    const truthSim = createSimulator({ startAt: DAY_START, now: () => DAY_START });
    const world = truthSim.world;
    const truthCache = new Map<number, (number | null)[]>();
    const bins = BINS.map(() => newBin());
    const basisCount = new Map<string, number>();
    let trips = 0;
    let unpredicted = 0;
    let notPredictedStops = 0;
    const grid = PACE_GRID.map((pace) => ({ pace, errors: [] as number[] }));
    const run = replayServiceDay(fromH, toH, ({ now, trip, path, routeStops, fixes }) => {
      if ((now - DAY_START) % PREDICT_EVERY_MS !== 0) return;
      const ref = world.tripById(trip.id, now);
      if (!ref || !path || trip.plannedDepartureAt === null || trip.plannedArrivalAt === null) return;
      let truth = truthCache.get(trip.id);
      if (!truth) truthCache.set(trip.id, (truth = trueArrivals(world, ref.s, ref.k)));
      const split = stopsForDirection(routeStops, trip.direction);
      if (!split.ok) return;
      const dirStops = split.stops;
      trips++;
      const profile = profiles.profileFor(trip.routeId!, trip.direction, trip.plannedDepartureAt, dirStops.length);
      const f = predictTrip({ trip, routeStops, fixes, now });
      const h = predictTrip({ trip, routeStops, fixes, now, profile });
      const std = predictTrip({ trip, routeStops, fixes: [], now });
      if (!f.ok || !h.ok || !std.ok) {
        unpredicted++;
        return;
      }
      basisCount.set(f.scheduleReason ?? f.basis, (basisCount.get(f.scheduleReason ?? f.basis) ?? 0) + 1);
      const byStop = (p: TripPrediction) => new Map(p.ok ? p.stops.map((s) => [s.stop.id, s]) : []);
      const fs = byStop(f);
      const gridStops = grid.map((g) => byStop(predictTrip({ trip, routeStops, fixes, now, pace: g.pace })));
      const hs = byStop(h);
      const ss = byStop(std);
      const durationMs = trip.plannedArrivalAt - trip.plannedDepartureAt;
      const delayMs = (trip.delayMinutes ?? 0) * 60_000;
      const L = path.line.lengthM;
      dirStops.forEach((stop, i) => {
        const t = truth[i];
        if (t === null || t === undefined || t <= now) return;
        const horizonMin = (t - now) / 60_000;
        const b = BINS.findIndex((x) => horizonMin >= x.from && horizonMin < x.to);
        if (b < 0) return;
        const planned = trip.plannedDepartureAt! + (path.line.cum[i]! / L) * durationMs;
        // A stop a predictor believes passed is predicted "now".
        const at = (p: Map<number, { arrivalAt: number }>) => p.get(stop.id)?.arrivalAt ?? now;
        if (!fs.has(stop.id)) notPredictedStops++;
        const bin = bins[b]!;
        const err = (x: number) => Math.abs(x - t) / 1000;
        bin.abs.fleetmap.push(err(at(fs)));
        bin.abs.fleetmapHistory.push(err(at(hs)));
        bin.abs.fleetmapStandard.push(err(at(ss)));
        bin.abs.baselineA.push(err(planned + delayMs));
        bin.abs.baselineB.push(err(planned));
        bin.signed.push((t - at(fs)) / 1000);
        bin.signedHistory.push((t - at(hs)) / 1000);
        const inside = (p: Map<number, { earliestAt: number; latestAt: number }>) => {
          const s = p.get(stop.id);
          return s ? s.earliestAt <= t && t <= s.latestAt : false;
        };
        if (horizonMin >= 2) grid.forEach((g, j) => g.errors.push(err(at(gridStops[j]!))));
        if (inside(fs)) bin.covered++;
        if (inside(hs)) bin.coveredHistory++;
        if (inside(ss)) bin.coveredStandard++;
      });
    });
    void truthSim.close();

    const rows = BINS.map((x, i) => {
      const b = bins[i]!;
      const n = b.abs.fleetmap.length;
      const stat = (p: Predictor) => ({ mae: mean(b.abs[p]), p90: percentile(b.abs[p], 0.9) });
      return {
        bin: x.label,
        n,
        ...Object.fromEntries(PREDICTORS.map((p) => [p, stat(p)])),
        coveragePct: n ? (100 * b.covered) / n : null,
        coverageHistoryPct: n ? (100 * b.coveredHistory) / n : null,
        coverageStandardPct: n ? (100 * b.coveredStandard) / n : null,
        signedP10: percentile(b.signed, 0.1),
        signedP50: percentile(b.signed, 0.5),
        signedP90: percentile(b.signed, 0.9),
        signedHistoryP10: percentile(b.signedHistory, 0.1),
        signedHistoryP50: percentile(b.signedHistory, 0.5),
        signedHistoryP90: percentile(b.signedHistory, 0.9),
      } as { bin: string; n: number; coveragePct: number | null; coverageHistoryPct: number | null; coverageStandardPct: number | null; signedP10: number | null; signedP50: number | null; signedP90: number | null; signedHistoryP10: number | null; signedHistoryP50: number | null; signedHistoryP90: number | null } & Record<Predictor, { mae: number | null; p90: number | null }>;
    });
    const all = bins.reduce((n, b) => n + b.abs.fleetmap.length, 0);
    const covered = bins.reduce((n, b) => n + b.covered, 0);
    const fmt = (x: number | null) => (x === null ? '    –' : x.toFixed(0).padStart(5));
    ctx.log(`  error (s; MAE / p90)   n        Fleetmap     +history   Standard plan   baseline A   baseline B   p10–p90 coverage   truth−prediction p10/p50/p90`);
    for (const r of rows) {
      ctx.log(
        `    ${r.bin.padEnd(10)} ${String(r.n).padStart(7)}  ${PREDICTORS.map((p) => `${fmt(r[p].mae)} /${fmt(r[p].p90)}`).join('  ')}   ${r.coveragePct?.toFixed(1) ?? '–'} % (history ${r.coverageHistoryPct?.toFixed(1) ?? '–'} %, standard ${r.coverageStandardPct?.toFixed(1) ?? '–'} %)   ${fmt(r.signedP10)} /${fmt(r.signedP50)} /${fmt(r.signedP90)} (history ${fmt(r.signedHistoryP10)} /${fmt(r.signedHistoryP50)} /${fmt(r.signedHistoryP90)})`,
      );
    }
    const gridRows = grid.map((g) => ({ ...g.pace, mae: mean(g.errors) })).sort((a, b) => (a.mae ?? Infinity) - (b.mae ?? Infinity));
    ctx.log(`  carrying the delay forward (MAE from 2 min, s): ${gridRows.map((g) => `drift ${g.priorDrift} own ${g.ownWeight}: ${fmt(g.mae)}`).join(', ')}; in use: drift ${DEFAULT_PACE.priorDrift} own ${DEFAULT_PACE.ownWeight}`);
    ctx.log(`  bases: ${[...basisCount].map(([k, v]) => `${k} ${v}`).join(', ')}; trips not predicted ${unpredicted}; stops a trip's prediction had already passed ${notPredictedStops}`);

    // Fleetmap as it predicts once it has learnt pace profiles (from the day before); the flat plan is what it
    // predicts before it has (a server's first hours).
    const figures: Figure[] = [];
    for (const r of rows) {
      figures.push({ metric: `MAE ${r.bin}`, unit: 's', fleetmap: r.fleetmapHistory.mae, peer: r.baselineA.mae, peerName: 'baseline A', better: 'lower' });
      figures.push({ metric: `p90 error ${r.bin}`, unit: 's', fleetmap: r.fleetmapHistory.p90, peer: r.baselineA.p90, peerName: 'baseline A', better: 'lower' });
      figures.push({ metric: `MAE ${r.bin}`, unit: 's', fleetmap: r.fleetmapHistory.mae, peer: r.baselineB.mae, peerName: 'baseline B', better: 'lower' });
      figures.push({ metric: `p90 error ${r.bin}`, unit: 's', fleetmap: r.fleetmapHistory.p90, peer: r.baselineB.p90, peerName: 'baseline B', better: 'lower' });
    }
    const coveredHistory = bins.reduce((n, b) => n + b.coveredHistory, 0);
    figures.push({ metric: 'true arrivals inside p10–p90', unit: '%', fleetmap: all ? (100 * coveredHistory) / all : null, peer: null, better: 'higher' });
    for (const r of rows) figures.push({ metric: `before any profile is learnt (flat plan): MAE ${r.bin}`, unit: 's', fleetmap: r.fleetmap.mae, peer: r.baselineA.mae, peerName: 'baseline A', better: 'lower' });
    figures.push({ metric: 'before any profile is learnt: true arrivals inside p10–p90', unit: '%', fleetmap: all ? (100 * covered) / all : null, peer: null, better: 'higher' });
    for (const r of rows) figures.push({ metric: `Standard-plan key (schedule-based): MAE ${r.bin}`, unit: 's', fleetmap: r.fleetmapStandard.mae, peer: r.baselineA.mae, peerName: 'baseline A', better: 'lower' });
    return {
      peer: 'baseline A',
      conditions:
        `replay of the simulator's world as in 7 (${run.buses} buses, seed 42, Wednesday ${fromH}:00–${toH}:00 after a ${run.warmupMs / 60_000} min warm-up, ${run.slotsPerMinute} location slots/min, active trips every ${run.tripsIntervalMs / 1000} s); ` +
        `every ${PREDICT_EVERY_MS / 1000} s every active trip the app holds predicted for every stop it truly reaches within 30 min, binned by the true horizon; truth: the simulator's trip progress reaching each stop; ` +
        `baseline A: planned departure/arrival interpolated by distance + delay_minutes; baseline B: the same without the delay; pace profiles learnt from Tuesday's replay (same hours)`,
      figures,
      details: { ...run, predictEveryS: PREDICT_EVERY_MS / 1000, tripSamples: trips, unpredicted, stopsAlreadyPassedByPrediction: notPredictedStops, profiles: profiles.size, bases: Object.fromEntries(basisCount), bins: rows, paceGrid: gridRows, paceInUse: DEFAULT_PACE },
    };
  },
};
