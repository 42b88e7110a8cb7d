// The headways benchmark: live headways against the truth. The service-day replay of benchmark 7 (the simulator's world on
// a simulated clock, Fleetmap's location scheduler on the default key's budget, trips, stops and locations read
// through lib/partner): every 10 s the app's snapshot (each bus's last fix and its trip) goes through the live
// headways (lib/regularity, placing buses with the map's placeBuses), and every minute each of Fleetmap's gaps is
// compared with the same pair's headway from the simulator's true positions: the true distance along the same path
// over the follower's true recent pace (its true progress over the last 10 minutes, at least 2; the trip's planned
// pace when it has none, as on Fleetmap's side), the errors also split by the pace each side divided by (recent or
// scheduled). Then the speed: every route's headways from one snapshot at the
// default fleet and at 10,000 buses, and one ladder update (a 60-stop direction with 30 buses) in Chromium.
// Headways over days: over the same replay, what the recorder would keep (every fix the app fetched, on the trip the
// last walk gave its bus; every trip as last listed, with its final lookup after it leaves the list) goes through
// the recorder's derivation (lib/regularity/days.ts), and each route's EWT is compared with the EWT of the
// simulator's true passing times (its trip progress reaching each stop, bench/predictions.ts) over the same trips
// (bench/headways-ewt.ts). BENCH_HEADWAYS_EWT_ONLY=1 runs that part alone (no live comparison, no speed),
// BENCH_HEADWAYS_HOURS=7-12 another window: for a run that cannot afford the whole day.
import { estimatePosition } from '../lib/estimate';
import { projectOnto } from '../lib/geo/polyline';
import { DEFAULT_REGULARITY, type DirectionHeadways, type LiveHealth, type LiveSnapshot, type RouteStop, type Trip, type Vehicle } from '../lib/model';
import { headwayClass, PACE_MIN_MPS, PACE_MIN_SPAN_MS, PACE_WINDOW_MS } from '../lib/regularity/headways';
import { LiveHeadways, type RouteNames } from '../lib/regularity/live';
import { createSimulator } from '../lib/sim';
import { locationRecord, tripRecord } from '../lib/sim/wire';
import { LADDER_GEOMETRY, layoutDirection, ForwardOnly } from '../lib/view/ladder';
import { measureLadderUpdate } from './ladder-update';
import { loadPartnerModules, replayServiceDay, type ReplaySample } from './estimation';
import { EWT_MIN_TRIPS, compareEwt, ewtOptions, ewtRecorder, periodReadMs } from './headways-ewt';
import { DAY_START, HOUR_MS, allowServerModules } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { distribution, median, percentile } from './support/stats';

const THRESHOLDS = { lateMin: 5, earlyMin: 1 };
const COMPARE_EVERY_MS = 60_000;
const HEALTH = { locations: true } as LiveHealth;

function vehicleTripOf() {
  allowServerModules();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
  return (require('../lib/fleet/snapshot-builder') as typeof import('../lib/fleet/snapshot-builder')).vehicleTrip;
}

type SnapshotParts = Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>;

/** The app's snapshot at a sample instant: each bus's last fix and its trip (no fix: placed by its schedule). */
function snapshotOf(samples: readonly Pick<ReplaySample, 'busId' | 'trip' | 'fixes'>[], vehicleTrip: ReturnType<typeof vehicleTripOf>): SnapshotParts {
  const vehicles: Vehicle[] = samples.map(({ busId, trip, fixes }) => {
    const f = fixes[fixes.length - 1];
    return { busId, plateNumber: null, busName: `#${busId}`, internalCode: null, lat: f?.lat ?? null, lon: f?.lon ?? null, heading: f?.heading ?? null, speedKmh: f?.speedKmh ?? null, accuracy: f?.accuracy ?? null, gpsAt: f?.gpsAt ?? null, fetchedAt: null, trip: vehicleTrip(trip, THRESHOLDS) };
  });
  return { vehicles, unpositionedTrips: [], health: HEALTH };
}

function routeNamesOf(): RouteNames {
  return new Map();
}

/** A bus's true progress along its direction's path, projected near where its schedule puts it (loops pass twice). */
function trueProgress(s: ReplaySample): number | null {
  if (!s.path) return null;
  const line = s.path.line;
  const near = estimatePosition({ path: s.path, trip: s.trip, fixes: [], now: s.now })?.progressM ?? null;
  const half = Math.max(1_000, 0.35 * line.lengthM);
  const p = (near !== null ? projectOnto(line, s.truth.lon, s.truth.lat, near - half, near + half) : null) ?? projectOnto(line, s.truth.lon, s.truth.lat);
  return p?.alongM ?? null;
}

/** Every route's headways from one snapshot of the whole fleet at `at`, built from the simulator's wire records. */
function fleetSnapshot(buses: number | undefined, at: number) {
  const sim = createSimulator({ startAt: at, now: () => at, ...(buses ? { buses } : {}) });
  const world = sim.world;
  const { schemas, map } = loadPartnerModules();
  const vehicleTrip = vehicleTripOf();
  const rule = { kind: 'zone' as const, zone: world.zone.timeZone };
  const samples: Array<Pick<ReplaySample, 'busId' | 'trip' | 'fixes'>> = [];
  for (const ref of world.activeTrips(at)) {
    const trip: Trip = map.tripFromWire(schemas.tripSchema.parse(tripRecord(world, ref, at, { drift: false })), rule);
    if (trip.busId === null) continue;
    const loc = map.busLocationFromWire(schemas.busLocationSchema.parse(locationRecord(world, world.fleet.buses[trip.busId - 1]!, at, { drift: false })), rule);
    samples.push({ busId: trip.busId, trip, fixes: loc.latitude === null ? [] : [{ lat: loc.latitude, lon: loc.longitude, gpsAt: loc.lastGpsAt, speedKmh: loc.speedKmh, heading: loc.heading, accuracy: loc.accuracy }] });
  }
  void sim.close();
  return { snapshot: snapshotOf(samples, vehicleTrip), fleet: world.fleet.buses.length, onTrips: samples.length };
}

function timeMs(runs: number, f: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    out.push(performance.now() - t0);
  }
  return out;
}

export const headways: Benchmark = {
  name: 'headways',
  title: 'Live headways against the truth (replay)',
  needsApp: false,
  async run(ctx) {
    const { ewtOnly, hours } = ewtOptions(ctx.quick);
    const fromH = hours?.[0] ?? (ctx.quick ? 7 : 6);
    const toH = hours?.[1] ?? (ctx.quick ? 8 : 22);
    const rec = ewtRecorder();
    const vehicleTrip = vehicleTripOf();
    const live = new LiveHeadways({ staleAfterS: 120, config: DEFAULT_REGULARITY });
    const names = routeNamesOf();
    /** True progress samples by bus, on its current trip, for the true recent pace. */
    const trueHistory = new Map<number, { tripId: number; samples: Array<{ at: number; m: number }> }>();
    const errorsS: number[] = [];
    const relErrors: number[] = [];
    let agree = 0;
    let compared = 0;
    const confusion = new Map<string, number>();
    /** The errors by the pace each side divided by: Fleetmap's (recent or scheduled) | the truth's. */
    const bySource = new Map<string, number[]>();
    let batch: ReplaySample[] = [];
    let routeStops: ReadonlyMap<number, readonly RouteStop[]> = new Map();
    let lastCompare = -Infinity;
    /**
     * Each compared gap, until its follower truly reaches the place its leader truly had: the time it then took is
     * what a rider at that place waited. Both Fleetmap's headway and the definition on true positions are compared
     * with it (a headway is a forecast: neither can know the traffic ahead).
     */
    let pending: Array<{ tripId: number; targetM: number; at: number; fleetmapS: number; definitionS: number }> = [];
    const travelErrorsS: number[] = [];
    /** Where the error lies: Fleetmap's distance over the truth's pace, and the true distance over Fleetmap's pace. */
    const distanceOnlyS: number[] = [];
    const paceOnlyS: number[] = [];
    /** Signed, to see a bias: Fleetmap's distance − the true one (m), Fleetmap's pace ÷ the true one, h − h_true (s). */
    const distanceBiasM: number[] = [];
    const paceRatio: number[] = [];
    const signedS: number[] = [];
    const definitionTravelErrorsS: number[] = [];
    const truePace = (busId: number, tripId: number): number | null => {
      const h = trueHistory.get(busId);
      if (!h || h.tripId !== tripId || h.samples.length < 2) return null;
      const last = h.samples[h.samples.length - 1]!;
      const first = h.samples.find((s) => last.at - s.at <= PACE_WINDOW_MS)!;
      const span = last.at - first.at;
      if (span < PACE_MIN_SPAN_MS) return null;
      const pace = (last.m - first.m) / (span / 1000);
      return pace >= PACE_MIN_MPS ? pace : null;
    };
    const flush = () => {
      if (batch.length === 0) return;
      const now = batch[0]!.now;
      const trueM = new Map<number, number>();
      for (const s of batch) {
        const m = trueProgress(s);
        if (m === null) continue;
        trueM.set(s.trip.id, m);
        let h = trueHistory.get(s.busId);
        if (!h || h.tripId !== s.trip.id) trueHistory.set(s.busId, (h = { tripId: s.trip.id, samples: [] }));
        h.samples.push({ at: now, m });
        while (h.samples.length > 2 && h.samples[1]!.at <= now - PACE_WINDOW_MS) h.samples.shift();
      }
      pending = pending.filter((p) => {
        const m = trueM.get(p.tripId);
        // A trip that ended (or left the replay) before reaching the place says nothing: dropped after an hour.
        if (m === undefined || m < p.targetM) return now - p.at < HOUR_MS;
        const tookS = (now - p.at) / 1000;
        travelErrorsS.push(Math.abs(p.fleetmapS - tookS));
        definitionTravelErrorsS.push(Math.abs(p.definitionS - tookS));
        return false;
      });
      const routes = live.place(snapshotOf(batch, vehicleTrip), routeStops, names, now);
      if (now - lastCompare < COMPARE_EVERY_MS) return;
      lastCompare = now;
      const byTrip = new Map(batch.map((s) => [s.trip.id, s]));
      const directions: DirectionHeadways[] = routes.flatMap((r) => r.directions);
      for (const d of directions) {
        for (const gap of d.gaps) {
          const a = trueM.get(gap.leaderTripId);
          const b = trueM.get(gap.followerTripId);
          const follower = byTrip.get(gap.followerTripId);
          if (a === undefined || b === undefined || !follower?.path || gap.scheduledS === null) continue;
          const t = follower.trip;
          const planned = t.plannedDepartureAt !== null && t.plannedArrivalAt !== null && t.plannedArrivalAt > t.plannedDepartureAt ? follower.path.line.lengthM / ((t.plannedArrivalAt - t.plannedDepartureAt) / 1000) : null;
          const recentTrue = truePace(follower.busId, t.id);
          const pace = recentTrue ?? planned;
          if (pace === null) continue;
          const trueS = Math.max(0, a - b) / pace;
          if (a > b) pending.push({ tripId: gap.followerTripId, targetM: a, at: now, fleetmapS: gap.headwayS, definitionS: trueS });
          errorsS.push(Math.abs(gap.headwayS - trueS));
          distanceOnlyS.push(Math.abs(gap.distanceM / pace - trueS));
          paceOnlyS.push(Math.abs(Math.max(0, a - b) / gap.paceMps - trueS));
          distanceBiasM.push(gap.distanceM - Math.max(0, a - b));
          paceRatio.push(gap.paceMps / pace);
          signedS.push(gap.headwayS - trueS);
          const sources = `${gap.paceSource}|${recentTrue !== null ? 'recent' : 'scheduled'}`;
          const list = bySource.get(sources) ?? [];
          if (list.length === 0) bySource.set(sources, list);
          list.push(Math.abs(gap.headwayS - trueS));
          if (trueS > 0) relErrors.push(Math.abs(gap.headwayS - trueS) / trueS);
          const trueCls = headwayClass(trueS / gap.scheduledS, DEFAULT_REGULARITY);
          compared++;
          if (trueCls === gap.cls) agree++;
          const key = `${gap.cls}|${trueCls}`;
          confusion.set(key, (confusion.get(key) ?? 0) + 1);
        }
      }
    };
    ctx.log(`  ${fromH}:00–${toH}:00 simulated after a 30 min warm-up`);
    const run = replayServiceDay(
      fromH,
      toH,
      (s) => {
        if (ewtOnly) return;
        if (batch.length > 0 && batch[0]!.now !== s.now) {
          flush();
          batch = [];
        }
        routeStops = s.allRouteStops;
        batch.push(s);
      },
      DAY_START,
      rec.hooks,
    );
    flush();
    const { dayRows, ...ewt } = compareEwt(rec, DAY_START + fromH * HOUR_MS, DAY_START + toH * HOUR_MS);
    const read = await periodReadMs(dayRows);
    ctx.log(`  30-day period read of the stored regularity (PGlite in memory, ${read.storedRows} rows): median ${read.medianMs?.toFixed(1)} ms`);
    const ewtConditions =
      `EWT: every fix the replay fetched on the trip the last walk gave its bus, every trip as last listed with its final lookup, and each change of a trip's delay at the walk that saw it, through the recorder's derivation (lib/regularity/days.ts); ` +
      `against EWT of the simulator's true passing times (trip progress reaching each stop) over the same trips, those that truly ran wholly within the window; routes with ≥ ${EWT_MIN_TRIPS} such trips; ` +
      `the 30-day read: storedRegularity over the replayed day's rows stored under 30 dates, PGlite in memory`;
    const ewtFigures: Figure[] = [
      { metric: `EWT within 10 % of the truth, routes with ≥ ${EWT_MIN_TRIPS} trips`, unit: '%', fleetmap: ewt.within10, peer: null, better: 'higher' },
      { metric: 'EWT relative error |EWT − EWT_true| / EWT_true, median over routes', unit: '%', fleetmap: ewt.relErrorMedian === null ? null : 100 * ewt.relErrorMedian, peer: null, better: 'lower' },
      { metric: 'EWT relative error, p90 over routes', unit: '%', fleetmap: ewt.relErrorP90 === null ? null : 100 * ewt.relErrorP90, peer: null, better: 'lower' },
      { metric: 'regularity of a 30-day period, stored rows read (PGlite, median of 5)', unit: 'ms', fleetmap: read.medianMs, peer: null, better: 'lower' },
    ];
    ctx.log(`  EWT: ${ewt.compared} routes with ≥ ${EWT_MIN_TRIPS} trips, ${ewt.within10?.toFixed(1)} % within 10 % of the truth; relative error median ${((ewt.relErrorMedian ?? NaN) * 100).toFixed(1)} %, p90 ${((ewt.relErrorP90 ?? NaN) * 100).toFixed(1)} %; |EWT − EWT_true| median ${ewt.absErrorMedianS?.toFixed(1)} s; derivation of ${ewt.fixes} fixes ${ewt.deriveMs.toFixed(0)} ms`);
    for (const r of ewt.routes.filter((x) => x.trips >= EWT_MIN_TRIPS)) {
      ctx.log(`    route ${r.routeId}: ${r.trips} trips, EWT ${r.fleetmapEwtS?.toFixed(1)} s (${r.samples} headways) against ${r.trueEwtS?.toFixed(1)} s (${r.trueSamples})`);
    }
    if (ewtOnly) {
      return {
        peer: null,
        conditions: `replay of the simulator's world as in 7 (${run.buses} buses, seed 42, Wednesday ${fromH}:00–${toH}:00 after a ${run.warmupMs / 60_000} min warm-up, ${run.slotsPerMinute} location slots/min), the EWT part alone; ${ewtConditions}`,
        figures: ewtFigures,
        details: { ...run, ewt, periodRead: read },
      };
    }

    // Speed: every route's headways from one snapshot, a fresh service (every bus placed) and the next one (the
    // map's placement cache holds the buses whose fix did not change).
    const at = DAY_START + 8 * HOUR_MS;
    const speed = (buses: number | undefined) => {
      const { snapshot, fleet, onTrips } = fleetSnapshot(buses, at);
      const stops = routeStops;
      const cold = timeMs(ctx.quick ? 5 : 20, () => new LiveHeadways({ staleAfterS: 120, config: DEFAULT_REGULARITY }).place(snapshot, stops, names, at));
      const warmService = new LiveHeadways({ staleAfterS: 120, config: DEFAULT_REGULARITY });
      warmService.place(snapshot, stops, names, at);
      // The server builds each version's vehicles anew: the next snapshot is a copy with the same content, 5 s on.
      const runs = ctx.quick ? 5 : 20;
      const copies = Array.from({ length: runs }, () => structuredClone(snapshot));
      let k = 0;
      const warm = timeMs(runs, () => warmService.place(copies[k++]!, stops, names, at + 5_000 * k));
      return { fleet, onTrips, cold: distribution(cold), warm: distribution(warm) };
    };
    const at855 = speed(undefined);
    const at10k = speed(10_000);

    // One ladder update: a direction of 60 stops with 30 buses, laid out for a new instant.
    const stops = Array.from({ length: 60 }, (_, i) => ({ stopId: i + 1, name: `Stop ${i + 1}`, stopOrder: i + 1, m: i * 300 }));
    const buses = Array.from({ length: 30 }, (_, i) => ({
      busId: i + 1,
      tripId: 100 + i,
      label: `#${i + 1}`,
      delayMinutes: i % 4 === 0 ? 7 : 1,
      delayClass: i % 4 === 0 ? ('late' as const) : ('on-time' as const),
      basis: 'gps-estimate' as const,
      stale: false,
      gpsAt: at,
      progressM: (i * 17_700) / 30 + (i % 3) * 20,
      motion: { fromM: (i * 17_700) / 30, fromAt: at, speedMps: 5, toM: 17_700 },
      scheduledM: (i * 17_700) / 30 + 500,
      layover: null,
      plannedDepartureAt: at,
    }));
    const d: DirectionHeadways = { direction: 'outbound', toward: 'Stop 60', lengthM: 17_700, stops, buses, gaps: [], layover: [], offLine: [], ghosts: [] };
    const hold = new ForwardOnly();
    let tick = at;
    const ladder = timeMs(ctx.quick ? 200 : 2_000, () => void layoutDirection(d, (tick += 1_000), { down: true, geometry: LADDER_GEOMETRY, hold }));
    ctx.log('  one ladder update in Chromium (60 stops, 30 buses)');
    const ladderBrowser = await measureLadderUpdate(ctx.quick ? 20 : 100);

    const agreement = compared ? (100 * agree) / compared : null;
    ctx.log(`  ${compared} gaps compared: class agreement ${agreement?.toFixed(1)} %, |h − h_true| median ${median(errorsS)?.toFixed(0)} s, p90 ${percentile(errorsS, 0.9)?.toFixed(0)} s`);
    // Where the error comes from: a side with only the planned pace while the other has a recent one errs most.
    const errorBySource = Object.fromEntries([...bySource].map(([k, errs]) => [k, { gaps: errs.length, medianS: median(errs), p90S: percentile(errs, 0.9) }]));
    ctx.log(`  the error from each part alone: Fleetmap's distance over the true pace, median ${median(distanceOnlyS)?.toFixed(1)} s; the true distance over Fleetmap's pace, median ${median(paceOnlyS)?.toFixed(1)} s`);
    ctx.log(`  signed: h − h_true median ${median(signedS)?.toFixed(1)} s (p10 ${percentile(signedS, 0.1)?.toFixed(0)}, p90 ${percentile(signedS, 0.9)?.toFixed(0)}); distance − true distance median ${median(distanceBiasM)?.toFixed(0)} m (p10 ${percentile(distanceBiasM, 0.1)?.toFixed(0)}, p90 ${percentile(distanceBiasM, 0.9)?.toFixed(0)}); pace ÷ true pace median ${median(paceRatio)?.toFixed(3)} (p10 ${percentile(paceRatio, 0.1)?.toFixed(3)}, p90 ${percentile(paceRatio, 0.9)?.toFixed(3)})`);
    ctx.log(`  by pace (Fleetmap's | the truth's): ${Object.entries(errorBySource).map(([k, e]) => `${k} ${e.gaps} gaps, median ${e.medianS?.toFixed(0)} s`).join('; ')}`);
    ctx.log(`  every route's headways from one snapshot: ${at855.onTrips} buses on trips of ${at855.fleet}: ${at855.cold?.median.toFixed(2)} ms (next snapshot ${at855.warm?.median.toFixed(2)} ms); ${at10k.onTrips} of ${at10k.fleet}: ${at10k.cold?.median.toFixed(2)} ms (next ${at10k.warm?.median.toFixed(2)} ms)`);
    ctx.log(`  one ladder update (60 stops, 30 buses): layout ${median(ladder)?.toFixed(3)} ms; in Chromium, main thread ${ladderBrowser.mainMs.median.toFixed(1)} ms median (p95 ${ladderBrowser.mainMs.p95.toFixed(1)}), React's render ${ladderBrowser.renderMs.median.toFixed(1)} ms`);
    ctx.log(`  against the time the follower then took (${travelErrorsS.length} gaps): Fleetmap median ${median(travelErrorsS)?.toFixed(0)} s, the definition on true positions ${median(definitionTravelErrorsS)?.toFixed(0)} s`);
    return {
      peer: null,
      conditions:
        `replay of the simulator's world as in 7 (${run.buses} buses, seed 42, Wednesday ${fromH}:00–${toH}:00 after a ${run.warmupMs / 60_000} min warm-up, ${run.slotsPerMinute} location slots/min); ` +
        `the app's snapshot every 10 s through lib/regularity; every ${COMPARE_EVERY_MS / 1000} s each gap against the same pair's headway from true positions (true distance on the same path ÷ the follower's true progress over the last ${PACE_WINDOW_MS / 60_000} min, or its planned pace); ` +
        `also against the time the follower then truly took to reach the place its leader truly had (the wait a rider there had), Fleetmap's headway and the definition on true positions alike; ` +
        `speed: median of ${ctx.quick ? 5 : 20} runs at 08:00 on this machine, in Node (the server's side), the next snapshot a copy of the same content 5 s on (the server builds each version's vehicles anew); ` +
        `ladder: the app's RouteLadder in Chromium (bench/ladder-page), main-thread task time from a new answer until two frames, and the layout alone (lib/view/ladder.ts) in Node; ` +
        ewtConditions,
      figures: [
        { metric: 'headway error |h − h_true|, median', unit: 's', fleetmap: median(errorsS), peer: null, better: 'lower', distribution: { fleetmap: distribution(errorsS), peer: null } },
        { metric: 'headway error, p90', unit: 's', fleetmap: percentile(errorsS, 0.9), peer: null, better: 'lower' },
        { metric: 'bunched/regular/gapped class agrees with the truth', unit: '%', fleetmap: agreement, peer: null, better: 'higher' },
        {
          metric: 'headway error against the time the follower then took, median',
          unit: 's',
          fleetmap: median(travelErrorsS),
          peer: median(definitionTravelErrorsS),
          peerName: 'the definition on true positions',
          better: 'lower',
        },
        { metric: `every route's headways, one snapshot, ${at855.fleet} buses`, unit: 'ms', fleetmap: at855.cold?.median ?? null, peer: null, better: 'lower' },
        { metric: `every route's headways, next snapshot, ${at855.fleet} buses`, unit: 'ms', fleetmap: at855.warm?.median ?? null, peer: null, better: 'lower' },
        { metric: `every route's headways, one snapshot, ${at10k.fleet} buses`, unit: 'ms', fleetmap: at10k.cold?.median ?? null, peer: null, better: 'lower' },
        { metric: `every route's headways, next snapshot, ${at10k.fleet} buses`, unit: 'ms', fleetmap: at10k.warm?.median ?? null, peer: null, better: 'lower' },
        { metric: 'one ladder update (60 stops, 30 buses), main thread in Chromium, median', unit: 'ms', fleetmap: ladderBrowser.mainMs.median, peer: null, better: 'lower' },
        { metric: 'one ladder update (60 stops, 30 buses), main thread in Chromium, p95', unit: 'ms', fleetmap: ladderBrowser.mainMs.p95, peer: null, better: 'lower' },
        { metric: 'one ladder update (60 stops, 30 buses), layout', unit: 'ms', fleetmap: median(ladder), peer: null, better: 'lower' },
        ...ewtFigures,
      ],
      details: {
        ...run,
        gapsCompared: compared,
        relativeErrorMedian: median(relErrors),
        confusion: Object.fromEntries(confusion),
        errorBySource,
        errorFromDistanceOnly: distribution(distanceOnlyS),
        errorFromPaceOnly: distribution(paceOnlyS),
        signed: { headwayS: distribution(signedS), distanceM: distribution(distanceBiasM), paceRatio: distribution(paceRatio) },
        speed: { at855, at10k },
        ladderLayoutMs: distribution(ladder),
        ladderBrowser,
        travel: { gaps: travelErrorsS.length, fleetmap: distribution(travelErrorsS), definition: distribution(definitionTravelErrorsS) },
        ewt,
        periodRead: read,
      },
    };
  },
};
