// Benchmarks 2 and 3: how fresh and how right the positions are for the same budget. Fleetmap (the app, its
// own key), the round-robin peer and the shared-cache peer (in this process, each its own key with the same
// limit) poll ONE simulator at the same time, so all see the same buses at the same moments. The simulator and
// the app run on one clock (bench/support/app-stack.ts), so the app's scheduler sees true fix ages and speeds;
// the weights it used are read from its health at every sample and printed. Every few seconds the true
// positions (/__admin/truth) are compared with what each contender holds for every bus on an active trip.
// Then a viewer watches one bus (/api/live?watch=<id> every 5 s, the round robin told too) and that bus's age is
// sampled every second.
import { randomBytes } from 'node:crypto';
import { RoundRobinPoller } from './round-robin';
import { SharedCachePeer } from './shared-cache-peer';
import { readLive, startBenchStack, waitForLive, type BenchStack, type LiveBody, type TruthBus } from './support/app-stack';
import type { Benchmark, Distribution, Figure } from './support/report';
import { distanceM } from '../lib/geo/sphere';
import { distribution, max, mean, percentile, sleep } from './support/stats';
import { startViewers } from './support/viewers';
import { LiveEstimates } from './live-estimates';
import type { LiveSnapshot, NetworkResponse } from '../lib/model';

const BUSES = 500;
const RATE_LIMIT = 300;
/** Fleetmap's defaults (FEED_BUDGET_SHARE, FEED_TRIPS_INTERVAL_S), given to the peer as well. */
const SHARE = 0.8;
const TRIPS_INTERVAL_MS = 15_000;
const SAMPLE_MS = 5_000;
const WATCH_POLL_MS = 5_000;
/** Buses the upstream never places (404s) may stay unlocated; the warm-up waits for all but this share. */
const LOCATED_SHARE_MISSING = 0.01;

interface Held {
  lat: number | null;
  lon: number | null;
  fetchedAt: number | null;
}

interface Tally {
  ages: number[];
  errors: number[];
  /** Bus-samples on a trip for which the contender had no position at all. */
  missing: number;
}

const tally = (): Tally => ({ ages: [], errors: [], missing: 0 });

/**
 * Where a contender's location requests went: fixes that appeared between two samples, split by whether the
 * bus was on a trip (truth). Explains an age gap: budget spent on buses off trips is not spent on those on one.
 */
class Spend {
  onTrip = 0;
  offTrip = 0;
  private readonly seen = new Map<number, number>();
  private first = true;

  observe(fixes: Iterable<[number, number | null]>, onTrip: ReadonlySet<number>): void {
    for (const [busId, fetchedAt] of fixes) {
      if (fetchedAt === null || this.seen.get(busId) === fetchedAt) continue;
      this.seen.set(busId, fetchedAt);
      if (this.first) continue;
      if (onTrip.has(busId)) this.onTrip++;
      else this.offTrip++;
    }
    this.first = false;
  }

  shareOnTrip(): number | null {
    const total = this.onTrip + this.offTrip;
    return total === 0 ? null : (100 * this.onTrip) / total;
  }
}

const placed = (h: Held | undefined): h is Held => h !== undefined && h.lat !== null && h.lon !== null && h.fetchedAt !== null;

function record(t: Tally, held: Held | undefined, truth: TruthBus, at: number): void {
  if (!held || held.lat === null || held.lon === null || held.fetchedAt === null) {
    t.missing++;
    return;
  }
  t.ages.push((at - held.fetchedAt) / 1000);
  t.errors.push(distanceM(held.lon, held.lat, truth.lon, truth.lat));
}

function summary(t: Tally) {
  return {
    meanAgeS: mean(t.ages),
    p95AgeS: percentile(t.ages, 0.95),
    meanErrorM: mean(t.errors),
    p95ErrorM: percentile(t.errors, 0.95),
    ageS: distribution(t.ages),
    errorM: distribution(t.errors),
    busSamples: t.ages.length,
    missing: t.missing,
  };
}

/** Fleetmap against one peer over the bus-samples both hold a position for. */
class Pairing {
  readonly fleet = tally();
  readonly peer = tally();

  add(mine: Held | undefined, theirs: Held | undefined, truth: TruthBus, at: number): void {
    if (!placed(mine) || !placed(theirs)) return;
    record(this.fleet, mine, truth, at);
    record(this.peer, theirs, truth, at);
  }
}

type Weights = NonNullable<LiveBody['health']['freshness']['weightsKmh']>;

/** The spread of a weight quantile over the samples (each sample gives the scheduler's weights at that moment). */
function weightSummary(samples: Weights[]) {
  const of = (k: keyof Weights) => distribution(samples.map((w) => w[k]));
  return { samples: samples.length, p25: of('p25'), median: of('median'), p75: of('p75'), max: of('max'), atSpeedFloorShare: distribution(samples.map((w) => (100 * w.atSpeedFloor) / w.buses)) };
}

export const freshness: Benchmark = {
  name: 'freshness',
  title: '2–3. Freshness, watched bus',
  needsApp: true,
  async run(ctx) {
    const warmupS = ctx.quick ? 75 : 150;
    const measureS = ctx.quick ? 60 : 300;
    const watchS = ctx.quick ? 30 : 60;
    const peerKey = `rrob-${randomBytes(8).toString('hex')}`;
    const cacheKey = `ttlc-${randomBytes(8).toString('hex')}`;
    const bench = await startBenchStack({
      buses: BUSES,
      rateLimit: RATE_LIMIT,
      peerKeys: [
        { key: peerKey, limitPerMinute: RATE_LIMIT },
        { key: cacheKey, limitPerMinute: RATE_LIMIT },
      ],
    });
    const peer = new RoundRobinPoller({ baseUrl: bench.simBaseUrl, apiKey: peerKey, limitPerMinute: RATE_LIMIT, share: SHARE, tripsIntervalMs: TRIPS_INTERVAL_MS });
    const cache = new SharedCachePeer({ baseUrl: bench.simBaseUrl, apiKey: cacheKey, limitPerMinute: RATE_LIMIT, share: SHARE });
    try {
      peer.start();
      await cache.start();
      const warmupStart = Date.now();
      ctx.log(`  warm-up at least ${warmupS} s, until Fleetmap has located every bus once, then ${measureS} s of samples every ${SAMPLE_MS / 1000} s`);
      await sleep(warmupS * 1000);
      await waitForLive(bench.appUrl, 'positions flowing', (l) => l.health.state === 'ok' && l.vehicles.some((v) => v.lat !== null));
      // Fleetmap locates every bus once after its start, parked ones included (the round robin never asks for
      // those): a one-off pass that would otherwise fall into the samples. Measure the steady state after it.
      const located = await waitForLive(bench.appUrl, 'every bus located once', (l) => l.vehicles.filter((v) => v.fetchedAt === null).length <= LOCATED_SHARE_MISSING * l.vehicles.length, 300_000);
      // That pass took every other slot from the buses on trips, which come out of it older than steady state;
      // two turns over them at the full location rate bring their ages back before the samples start.
      const onTripNow = located.vehicles.filter((v) => v.trip !== null).length;
      const settleS = Math.ceil((2 * onTripNow) / ((SHARE * RATE_LIMIT) / 60));
      ctx.log(`  every bus located; ${settleS} s more for the ${onTripNow} buses on trips to come back to steady ages`);
      await sleep(settleS * 1000);
      const warmedUpS = Math.round((Date.now() - warmupStart) / 1000);

      await bench.resetSimStats();
      peer.takeCounts();
      cache.takeCounts();
      const started = Date.now();
      const fleet = tally();
      const rr = tally();
      const cached = tally();
      // Bus-samples where both contenders hold a position: means over the same samples. A bus that has just
      // started a trip is one Fleetmap holds an old fix of (from before the trip) and round robin has none of;
      // counting it for one side only would compare two different sets of buses.
      const vsRoundRobin = new Pairing();
      const vsCache = new Pairing();
      const onTripCounts: number[] = [];
      const fleetSpend = new Spend();
      const peerSpend = new Spend();
      const weights: Weights[] = [];
      let lastHealth: unknown = null;
      // The browser's estimates from the same snapshots, along the routes /api/network gives it.
      const estimates = new LiveEstimates();
      const network = (await (await fetch(`${bench.appUrl}/api/network`)).json()) as NetworkResponse;
      estimates.setNetwork(network);
      while (Date.now() - started < measureS * 1000) {
        const tick = Date.now();
        const [truth, live] = await Promise.all([bench.truth(), readLive(bench.appUrl)]);
        const at = Date.now();
        // On the simulator's clock (truth.at), as the snapshot's GPS and trip times are: the bench pins the simulator to
        // a fixed day, so the server's clock is months away from it.
        estimates.sample(live as unknown as LiveSnapshot, truth.buses.filter((b) => b.onTrip), truth.at);
        const vehicles = new Map(live.vehicles.map((v) => [v.busId, v]));
        const onTrip = truth.buses.filter((b) => b.onTrip);
        onTripCounts.push(onTrip.length);
        const onTripIds = new Set(onTrip.map((b) => b.id));
        fleetSpend.observe(live.vehicles.map((v) => [v.busId, v.fetchedAt]), onTripIds);
        peerSpend.observe([...peer.fixes].map(([id, fix]) => [id, fix.fetchedAt]), onTripIds);
        for (const b of onTrip) {
          const mine = vehicles.get(b.id);
          const theirs = peer.fixes.get(b.id);
          const fromCache = cache.fixes.get(b.id);
          record(fleet, mine, b, at);
          record(rr, theirs, b, at);
          record(cached, fromCache, b, at);
          vsRoundRobin.add(mine, theirs, b, at);
          vsCache.add(mine, fromCache, b, at);
        }
        if (live.health.freshness.weightsKmh) weights.push(live.health.freshness.weightsKmh);
        lastHealth = live.health;
        await sleep(Math.max(0, SAMPLE_MS - (Date.now() - tick)));
      }
      const minutes = (Date.now() - started) / 60_000;
      const stats = await bench.simStats();
      const peerCounts = peer.takeCounts();
      const cacheCounts = cache.takeCounts();
      const peerLocations = peerCounts.byOperation.busLocation ?? 0;
      const cacheLocations = cacheCounts.byOperation.busLocation ?? 0;
      // Only the three contenders use the simulator: the app's share of each operation is the rest.
      const fleetLocations = (stats.byOperation.busLocation ?? 0) - peerLocations - cacheLocations;
      const fleetPerMin = fleetLocations / minutes;
      const peerPerMin = peerLocations / minutes;
      const cachePerMin = cacheLocations / minutes;
      const busesOnTrip = mean(onTripCounts) ?? 0;
      // B/(2L): the mean age round robin reaches with L location requests a minute over B buses.
      const boundS = (l: number) => (l > 0 ? (busesOnTrip / (2 * l)) * 60 : null);
      const f = summary(vsRoundRobin.fleet);
      const p = summary(vsRoundRobin.peer);
      const fc = summary(vsCache.fleet);
      const c = summary(vsCache.peer);
      const fAll = summary(fleet);
      const pAll = summary(rr);
      const cAll = summary(cached);
      const fleetBound = boundS(fleetPerMin);
      const peerBound = boundS(peerPerMin);
      const weightSpread = weightSummary(weights);
      const w = (d: Distribution | null) => (d === null ? 'n/a' : `${d.median.toFixed(1)} (${d.min.toFixed(1)}–${d.max.toFixed(1)})`);
      ctx.log(
        `  scheduler weights (expected speed + 10 km/h prior) over ${weightSpread.samples} samples, median over samples (range): ` +
          `p25 ${w(weightSpread.p25)}, median ${w(weightSpread.median)}, p75 ${w(weightSpread.p75)}, max ${w(weightSpread.max)} km/h; ` +
          `at the speed floor ${w(weightSpread.atSpeedFloorShare)} % of tracked buses`,
      );

      const est = estimates.result();
      const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(0));
      ctx.log(`  estimates (${est.lastFix.n} bus-samples; ${network.pendingRoutes} routes still without stops): last fix ${fmt(est.lastFix.mean)} / ${fmt(est.lastFix.p95)} m, GPS-based ${fmt(est.gpsBased.mean)} / ${fmt(est.gpsBased.p95)} m, schedule-only ${fmt(est.scheduleOnly.mean)} / ${fmt(est.scheduleOnly.p95)} m (mean / p95)`);
      ctx.log(`  watched bus: ${watchS} s`);
      const watched = await watchOneBus(bench, peer, cache, watchS);

      const dist = (fleetmap: Distribution | null, peerSide: Distribution | null) => ({ fleetmap, peer: peerSide });
      const CACHE = 'shared TTL cache';
      const figures: Figure[] = [
        { metric: 'location age, mean', unit: 's', fleetmap: f.meanAgeS, peer: p.meanAgeS, better: 'lower', distribution: dist(f.ageS, p.ageS) },
        { metric: 'location age, p95', unit: 's', fleetmap: f.p95AgeS, peer: p.p95AgeS, better: 'lower' },
        { metric: 'position error, mean', unit: 'm', fleetmap: f.meanErrorM, peer: p.meanErrorM, better: 'lower', distribution: dist(f.errorM, p.errorM) },
        { metric: 'position error, p95', unit: 'm', fleetmap: f.p95ErrorM, peer: p.p95ErrorM, better: 'lower' },
        { metric: 'location requests/min sent', unit: '/min', fleetmap: fleetPerMin, peer: peerPerMin, better: 'higher' },
        {
          metric: 'mean age ÷ B/(2L) (L = own location rate)',
          unit: '×',
          fleetmap: f.meanAgeS !== null && fleetBound ? f.meanAgeS / fleetBound : null,
          peer: p.meanAgeS !== null && peerBound ? p.meanAgeS / peerBound : null,
          better: 'lower',
        },
        { metric: 'share of new fixes on buses on a trip', unit: '%', fleetmap: fleetSpend.shareOnTrip(), peer: peerSpend.shareOnTrip(), better: 'higher' },
        { metric: 'on-trip bus-samples without a position', unit: '', fleetmap: fAll.missing, peer: pAll.missing, better: 'lower' },
        { metric: 'estimates: last fix error, mean', unit: 'm', fleetmap: est.lastFix.mean, peer: null, better: 'lower' },
        { metric: 'estimates: last fix error, median', unit: 'm', fleetmap: est.lastFix.p50, peer: null, better: 'lower' },
        { metric: 'estimates: last fix error, p95', unit: 'm', fleetmap: est.lastFix.p95, peer: null, better: 'lower' },
        { metric: 'estimates: GPS-based error, mean', unit: 'm', fleetmap: est.gpsBased.mean, peer: null, better: 'lower' },
        { metric: 'estimates: GPS-based error, median', unit: 'm', fleetmap: est.gpsBased.p50, peer: null, better: 'lower' },
        { metric: 'estimates: GPS-based error, p95', unit: 'm', fleetmap: est.gpsBased.p95, peer: null, better: 'lower' },
        { metric: 'estimates: schedule-only error, mean', unit: 'm', fleetmap: est.scheduleOnly.mean, peer: null, better: 'lower' },
        { metric: 'estimates: schedule-only error, median', unit: 'm', fleetmap: est.scheduleOnly.p50, peer: null, better: 'lower' },
        { metric: 'estimates: schedule-only error, p95', unit: 'm', fleetmap: est.scheduleOnly.p95, peer: null, better: 'lower' },
        { metric: 'watched bus: first fresh fix after watch', unit: 's', fleetmap: watched.fleetmap.firstFixS, peer: null, better: 'lower' },
        { metric: 'watched bus: age, mean', unit: 's', fleetmap: watched.fleetmap.meanAgeS, peer: watched.peer.meanAgeS, better: 'lower' },
        { metric: 'watched bus: age, max', unit: 's', fleetmap: watched.fleetmap.maxAgeS, peer: watched.peer.maxAgeS, better: 'lower' },
        { metric: 'scheduler weight, median (km/h)', unit: '', fleetmap: weightSpread.median?.median ?? null, peer: null, better: 'higher' },
        { metric: 'scheduler weight, p25 → p75 spread (km/h)', unit: '', fleetmap: weightSpread.p75 && weightSpread.p25 ? weightSpread.p75.median - weightSpread.p25.median : null, peer: null, better: 'higher' },
        { metric: 'buses at the speed floor (weight 13 km/h)', unit: '%', fleetmap: weightSpread.atSpeedFloorShare?.median ?? null, peer: null, better: 'lower' },
        { metric: 'location age, mean', unit: 's', fleetmap: fc.meanAgeS, peer: c.meanAgeS, better: 'lower', peerName: CACHE, distribution: dist(fc.ageS, c.ageS) },
        { metric: 'location age, p95', unit: 's', fleetmap: fc.p95AgeS, peer: c.p95AgeS, better: 'lower', peerName: CACHE },
        { metric: 'position error, mean', unit: 'm', fleetmap: fc.meanErrorM, peer: c.meanErrorM, better: 'lower', peerName: CACHE, distribution: dist(fc.errorM, c.errorM) },
        { metric: 'position error, p95', unit: 'm', fleetmap: fc.p95ErrorM, peer: c.p95ErrorM, better: 'lower', peerName: CACHE },
        { metric: 'location requests/min sent', unit: '/min', fleetmap: fleetPerMin, peer: cachePerMin, better: 'higher', peerName: CACHE },
        { metric: 'on-trip bus-samples without a position', unit: '', fleetmap: fAll.missing, peer: cAll.missing, better: 'lower', peerName: CACHE },
        { metric: 'watched bus: age, mean', unit: 's', fleetmap: watched.fleetmap.meanAgeS, peer: watched.cache.meanAgeS, better: 'lower', peerName: CACHE },
      ];
      return {
        peer: 'round robin',
        conditions:
          `${BUSES} buses, SIM_SPEED 1, simulator and app on one clock (zone ${bench.zone}, 13:00 local at start), limit ${RATE_LIMIT}/min on each of three keys (one per contender, same simulator, run at the same time), ` +
          `poller share ${SHARE}, warm-up ${warmedUpS} s (at least ${warmupS} s, until Fleetmap had located every bus once, then two turns over the buses on trips at the full location rate), ${measureS} s of samples every ${SAMPLE_MS / 1000} s over every bus on an active trip (mean ${busesOnTrip.toFixed(0)}); ` +
          `age = sample time − when the contender fetched the fix; error = distance to /__admin/truth; ages and errors over the bus-samples where Fleetmap and that peer both hold a position; ` +
          `shared TTL cache: one refresh of every bus on a trip per TTL (${Math.round(cache.ttlMs / 1000)} s at the end, fitted to the same share of the limit); then one watched bus for ${watchS} s (the round robin told of it too), sampled every second`,
        figures,
        details: {
          buses: BUSES,
          rateLimit: RATE_LIMIT,
          share: SHARE,
          warmupS,
          warmedUpS,
          measureS,
          samples: onTripCounts.length,
          busesOnTripMean: busesOnTrip,
          fleetmap: { ...f, allSamples: fAll, locationRequestsPerMin: fleetPerMin, boundS: fleetBound, newFixes: { onTrip: fleetSpend.onTrip, offTrip: fleetSpend.offTrip }, selfReportedHealth: lastHealth },
          roundRobin: { ...p, allSamples: pAll, locationRequestsPerMin: peerPerMin, boundS: peerBound, newFixes: { onTrip: peerSpend.onTrip, offTrip: peerSpend.offTrip }, requests: peerCounts },
          sharedCache: { ...c, fleetmapOverSameSamples: fc, allSamples: cAll, locationRequestsPerMin: cachePerMin, ttlS: cache.ttlMs / 1000, requests: cacheCounts },
          schedulerWeightsKmh: weightSpread,
          zone: bench.zone,
          boundAtFullShareS: boundS(SHARE * RATE_LIMIT),
          simulator: stats,
          watched,
          estimates: { ...est, networkPendingRoutes: network.pendingRoutes },
        },
      };
    } finally {
      await Promise.all([peer.stop(), cache.stop()]);
      await bench.stop();
    }
  },
};

/** A bus on a trip that will not end during the watch, picked among those Fleetmap fetched longest ago. */
async function pickBusToWatch(bench: BenchStack, watchS: number): Promise<number> {
  const [truth, live] = await Promise.all([bench.truth(), readLive(bench.appUrl)]);
  const onTrip = new Set(truth.buses.filter((b) => b.onTrip && b.gps === 'ok').map((b) => b.id));
  const candidates = live.vehicles.filter(
    (v) => onTrip.has(v.busId) && v.fetchedAt !== null && v.trip?.plannedArrivalAt != null && v.trip.plannedArrivalAt - truth.at > (watchS + 120) * 1000,
  );
  if (candidates.length === 0) throw new Error('No bus on a long enough trip to watch.');
  candidates.sort((a, b) => a.fetchedAt! - b.fetchedAt!);
  return candidates[0]!.busId;
}

async function watchOneBus(bench: BenchStack, peer: RoundRobinPoller, cache: SharedCachePeer, watchS: number) {
  const busId = await pickBusToWatch(bench, watchS);
  const watchStart = Date.now();
  const viewer = startViewers(1, () => `${bench.appUrl}/api/live?watch=${busId}`, WATCH_POLL_MS);
  peer.watch(busId);
  const fleetAges: number[] = [];
  const peerAges: number[] = [];
  const cacheAges: number[] = [];
  let firstFixAt: number | null = null;
  try {
    while (Date.now() - watchStart < watchS * 1000) {
      const tick = Date.now();
      const live = await readLive(bench.appUrl);
      const at = Date.now();
      const v = live.vehicles.find((x) => x.busId === busId);
      if (v?.fetchedAt != null) {
        if (firstFixAt === null && v.fetchedAt >= watchStart) firstFixAt = v.fetchedAt;
        // The age while watched counts from the first fix the watch brought; before it, the age is the fleet's.
        if (firstFixAt !== null) {
          fleetAges.push((at - v.fetchedAt) / 1000);
          const fix = peer.fixes.get(busId);
          if (fix) peerAges.push((at - fix.fetchedAt) / 1000);
          const cached = cache.fixes.get(busId);
          if (cached) cacheAges.push((at - cached.fetchedAt) / 1000);
        }
      }
      await sleep(Math.max(0, 1000 - (Date.now() - tick)));
    }
  } finally {
    peer.watch(null);
    await viewer.stop();
  }
  return {
    busId,
    watchS,
    fleetmap: { firstFixS: firstFixAt === null ? null : (firstFixAt - watchStart) / 1000, meanAgeS: mean(fleetAges), maxAgeS: max(fleetAges), samples: fleetAges.length },
    peer: { meanAgeS: mean(peerAges), maxAgeS: max(peerAges), samples: peerAges.length },
    cache: { meanAgeS: mean(cacheAges), maxAgeS: max(cacheAges), samples: cacheAges.length },
  };
}
