// Benchmark "scale-budget" (issue 34), the budget part: on an app already running on the simulator, what the feed
// spends its key on (requests per minute by kind, as the simulator counted them for the app's key, and the share
// that went to bus locations; goal ≥ 70 %), and what the stretched /trips/active walk of a big fleet costs in
// delay freshness: delay_minutes as /api/live shows it against the simulator's own delay of the same trip at the
// same moment (/__admin/truth trips).
//
// The app keeps no read time per trip: a trip's delay is the one of the last complete walk, read from one of its
// pages. Two ages are measured, both from outside the app:
// - held age: the simulator's request counts, read every second, give each walk's page times (a walk is a run of
//   /trips/active requests; a gap of WALK_GAP_MS or more starts another); at each sample the app holds the last
//   walk that ended at least a second before (the snapshot is rebuilt at most every second), every page carrying
//   an equal share of the trips, so the ages of what it holds are now − each page's time;
// - staleness: the time since the delay shown was last the truth (0 when it is the truth now), from the truth
//   sampled every few seconds.
// bench/scale.ts calls measureBudget on each fleet's stack (BENCH_SCALE_PARTS=budget runs that part alone).
import { loadavg } from 'node:os';
import { decodeCompactFull, decodeRoster, type CompactAnswer, type CompactRoster, type LiveSnapshot } from '../lib/model';
import type { BenchStack } from './support/app-stack';
import type { Distribution, Figure } from './support/report';
import { distribution, mean, percentile, sleep } from './support/stats';

const LOCATIONS_GOAL = 0.7;
/** Simulator operations (lib/sim/api.ts) as the README names them. */
const OPERATION_NAMES: Record<string, string> = {
  busLocation: 'locations',
  activeTrips: 'active trips walk',
  buses: 'buses list',
  routes: 'routes list',
  routeStops: 'route stops',
  trip: 'trip lookups (final)',
  status: 'status',
};
const STATS_EVERY_MS = 1_000;
/** /trips/active requests this far apart belong to two walks (pages of one walk come a few slots apart). */
const WALK_GAP_MS = 5_000;
/** The snapshot is rebuilt at most every second (lib/fleet/snapshot-builder.ts SNAPSHOT_MIN_INTERVAL_MS). */
const SNAPSHOT_LAG_MS = 1_000;
/** Complete walks seen before the window opens: the split is then at steady state. */
const WALKS_BEFORE = 2;

export interface BudgetOptions {
  durationS: number;
  log: (line: string) => void;
  /** Truth and /api/live are compared this often (default 5 s). */
  sampleMs?: number;
  /** Longest wait for the walks before the window (default 10 min). */
  warmupCapS?: number;
}

export interface DelayFigures {
  /** Trip-samples compared: a trip /api/live shows and the simulator lists as active. */
  compared: number;
  /** |shown − true| delay, minutes. */
  errorMin: Distribution | null;
  errorP90Min: number | null;
  exactShare: number | null;
  /** Seconds since the delay shown was last the truth (0 when it is). */
  staleS: Distribution | null;
  staleP90S: number | null;
  staleMeanS: number | null;
  /** Trip-samples whose shown delay was never the truth since the first truth sample (counted at that lower bound). */
  neverMatched: number;
  /** Seconds since the page of the last complete walk was read, over the pages it held at each sample. */
  heldAgeS: Distribution | null;
  heldAgeP90S: number | null;
  /** Trips active in the simulator that /api/live did not show, and trips it showed that had ended, per sample. */
  activeNotShown: number;
  shownNotActive: number;
}

export interface BudgetFigures {
  buses: number;
  durationS: number;
  /** Requests per minute over the window by simulator operation, the app's key. */
  perMinute: Record<string, number>;
  /** Each operation's share of the app key's requests. */
  shares: Record<string, number>;
  locationsShare: number;
  walks: { n: number; meanGapS: number | null; meanPages: number | null; meanDurationS: number | null };
  delay: DelayFigures;
  samples: number;
  loadAverage: { start: number; end: number };
}

interface Walk {
  /** Time of each page, epoch ms (the middle of the second its request was counted in). */
  pages: number[];
}

/** Reads the simulator's request counts every second: /trips/active page times, and the window's totals. */
class RequestLog {
  readonly pageTimes: number[] = [];
  private lastPages: number | null = null;
  private lastAt = 0;
  private running = true;
  private readonly done: Promise<void>;

  constructor(private readonly bench: BenchStack) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const t = Date.now();
      const s = await this.bench.simStats();
      const at = Date.now();
      const pages = s.byOperation.activeTrips ?? 0;
      if (this.lastPages !== null) for (let i = this.lastPages; i < pages; i++) this.pageTimes.push((this.lastAt + at) / 2);
      this.lastPages = pages;
      this.lastAt = at;
      await sleep(Math.max(0, STATS_EVERY_MS - (Date.now() - t)));
    }
  }

  /** The pages read so far, as walks. */
  walks(): Walk[] {
    const walks: Walk[] = [];
    for (const t of this.pageTimes) {
      const last = walks.at(-1);
      if (last && t - last.pages.at(-1)! < WALK_GAP_MS) last.pages.push(t);
      else walks.push({ pages: [t] });
    }
    return walks;
  }

  /** Walks whose last page is at least WALK_GAP_MS before `now` (a later page would have been part of them). */
  walksEndedBy(now: number): Walk[] {
    return this.walks().filter((w) => now - w.pages.at(-1)! >= WALK_GAP_MS);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

async function readCompact(appUrl: string): Promise<LiveSnapshot> {
  const res = await fetch(`${appUrl}/api/live?shape=compact`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`/api/live?shape=compact: HTTP ${res.status}`);
  const full = (await res.json()) as CompactAnswer & { kind: 'full' };
  // The buses' names are in the roster it names (lib/model/live-roster.ts).
  const roster = await fetch(`${appUrl}/api/live?shape=roster&roster=${encodeURIComponent(full.roster)}`, { headers: { accept: 'application/json' } });
  if (!roster.ok) throw new Error(`/api/live?shape=roster: HTTP ${roster.status}`);
  return decodeCompactFull(full, decodeRoster((await roster.json()) as CompactRoster));
}

/** Trip id → the delay shown, over buses placed and trips listed without a position. */
function shownDelays(s: LiveSnapshot): Map<number, number | null> {
  const shown = new Map<number, number | null>();
  for (const v of s.vehicles) if (v.trip) shown.set(v.trip.tripId, v.trip.delayMinutes);
  for (const t of s.unpositionedTrips) shown.set(t.tripId, t.delayMinutes);
  return shown;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The budget split and delay freshness of the app on `bench`, over `durationS` once the trips walk has gone round
 * WALKS_BEFORE times. The simulator's counts are read for the whole stack: the app's key must be the only one
 * spending in the window (it throws otherwise).
 */
export async function measureBudget(bench: BenchStack, opts: BudgetOptions): Promise<BudgetFigures> {
  const sampleMs = opts.sampleMs ?? 5_000;
  const warmupCapS = opts.warmupCapS ?? 600;
  const log = new RequestLog(bench);
  try {
    const t0 = Date.now();
    while (log.walksEndedBy(Date.now()).length < WALKS_BEFORE) {
      if (Date.now() - t0 > warmupCapS * 1000) throw new Error(`the trips walk did not go round ${WALKS_BEFORE} times within ${warmupCapS} s`);
      await sleep(STATS_EVERY_MS);
    }
    opts.log(`  budget: ${WALKS_BEFORE} trips walks seen after ${((Date.now() - t0) / 1000).toFixed(0)} s; measuring ${opts.durationS} s`);
    const loadStart = loadavg()[0]!;
    const before = await bench.simStats();
    const windowStart = Date.now();
    const errors: number[] = [];
    const stale: number[] = [];
    /** When each sample's /api/live answer came. */
    const liveTimes: number[] = [];
    let neverMatched = 0;
    let activeNotShown = 0;
    let shownNotActive = 0;
    let samples = 0;
    /** Trip id → the truth samples' (at, delay), oldest first. */
    const history = new Map<number, { at: number; delay: number | null }[]>();
    let firstTruthAt: number | null = null;
    let fleetSize = 0;
    while (Date.now() - windowStart < opts.durationS * 1000) {
      const tick = Date.now();
      const [truth, live] = await Promise.all([bench.truth(), readCompact(bench.appUrl)]);
      const liveAt = Date.now();
      samples++;
      firstTruthAt ??= truth.at;
      fleetSize = truth.buses.length;
      const shown = shownDelays(live);
      const active = new Set<number>();
      for (const t of truth.trips) {
        active.add(t.id);
        const h = history.get(t.id) ?? [];
        h.push({ at: truth.at, delay: t.delayMinutes });
        history.set(t.id, h);
        if (!shown.has(t.id)) {
          activeNotShown++;
          continue;
        }
        const d = shown.get(t.id)!;
        if (d === null || t.delayMinutes === null) continue;
        errors.push(Math.abs(d - t.delayMinutes));
        const matched = h.findLast((x) => x.delay === d);
        if (matched) stale.push((truth.at - matched.at) / 1000);
        else {
          neverMatched++;
          stale.push((truth.at - firstTruthAt) / 1000);
        }
      }
      for (const id of shown.keys()) if (!active.has(id)) shownNotActive++;
      liveTimes.push(liveAt);
      await sleep(Math.max(0, sampleMs - (Date.now() - tick)));
    }
    const after = await bench.simStats();
    const windowEnd = Date.now();
    const minutes = (windowEnd - windowStart) / 60_000;
    // A walk going on at the last sample ends within WALK_GAP_MS (or is one no more): then every walk is known.
    await sleep(WALK_GAP_MS + STATS_EVERY_MS);
    const walks = log.walks();
    const heldAges: number[] = [];
    for (const at of liveTimes) {
      const held = walks.findLast((w) => w.pages.at(-1)! <= at - SNAPSHOT_LAG_MS);
      if (held) for (const p of held.pages) heldAges.push((at - p) / 1000);
    }
    const total = after.total - before.total;
    const appRequests = (after.byKey[bench.appKeyMask] ?? 0) - (before.byKey[bench.appKeyMask] ?? 0);
    if (appRequests !== total) throw new Error(`other keys spent ${total - appRequests} of the simulator's ${total} requests in the window: the split by operation would not be the app's`);
    const perMinute: Record<string, number> = {};
    const shares: Record<string, number> = {};
    for (const [op, n] of Object.entries(after.byOperation)) {
      const d = n - (before.byOperation[op] ?? 0);
      if (d === 0) continue;
      perMinute[op] = round1(d / minutes);
      shares[op] = d / total;
    }
    const windowWalks = walks.filter((w) => w.pages[0]! >= windowStart && w.pages.at(-1)! <= windowEnd);
    const starts = windowWalks.map((w) => w.pages[0]!);
    const gaps = starts.slice(1).map((s, i) => (s - starts[i]!) / 1000);
    const meanOf = (xs: number[]) => {
      const m = mean(xs);
      return m === null ? null : round1(m);
    };
    return {
      buses: fleetSize,
      durationS: opts.durationS,
      perMinute,
      shares,
      locationsShare: shares.busLocation ?? 0,
      walks: { n: windowWalks.length, meanGapS: meanOf(gaps), meanPages: meanOf(windowWalks.map((w) => w.pages.length)), meanDurationS: meanOf(windowWalks.map((w) => (w.pages.at(-1)! - w.pages[0]!) / 1000)) },
      delay: {
        compared: errors.length,
        errorMin: distribution(errors),
        errorP90Min: percentile(errors, 0.9),
        exactShare: errors.length ? errors.filter((e) => e === 0).length / errors.length : null,
        staleS: distribution(stale),
        staleP90S: percentile(stale, 0.9),
        staleMeanS: mean(stale),
        neverMatched,
        heldAgeS: distribution(heldAges),
        heldAgeP90S: percentile(heldAges, 0.9),
        activeNotShown,
        shownNotActive,
      },
      samples,
      loadAverage: { start: round2(loadStart), end: round2(loadavg()[0]!) },
    };
  } finally {
    await log.stop();
  }
}

/** One line for the log: the split and the delay figures. */
export function describeBudget(f: BudgetFigures): string {
  const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);
  const byKind = Object.entries(f.perMinute)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${OPERATION_NAMES[op] ?? op} ${n.toFixed(0)}/min (${pct(f.shares[op])})`)
    .join(', ');
  const d = f.delay;
  return (
    `  ${f.buses} buses over ${f.durationS} s (load ${f.loadAverage.start} → ${f.loadAverage.end}): ${byKind}; locations ${pct(f.locationsShare)} (goal ≥ ${pct(LOCATIONS_GOAL)}); ` +
    `walks ${f.walks.n}, every ${f.walks.meanGapS ?? '–'} s, ${f.walks.meanPages ?? '–'} pages in ${f.walks.meanDurationS ?? '–'} s; ` +
    `delay shown vs truth over ${d.compared} trip-samples: |error| median ${d.errorMin?.median ?? '–'} min, p90 ${d.errorP90Min ?? '–'}, exact ${pct(d.exactShare)}; ` +
    `stale mean ${d.staleMeanS?.toFixed(2) ?? '–'} s, p90 ${d.staleP90S?.toFixed(1) ?? '–'}, max ${d.staleS?.max.toFixed(0) ?? '–'} (never matched ${d.neverMatched}); ` +
    `held age median ${d.heldAgeS?.median.toFixed(1) ?? '–'} s, p90 ${d.heldAgeP90S?.toFixed(1) ?? '–'}; active not shown ${d.activeNotShown}, shown after their end ${d.shownNotActive}`
  );
}

/** The figures at `big` against the default fleet's (the peer column), same code and key. */
export function budgetFigures(big: BudgetFigures, peer: BudgetFigures): Figure[] {
  const at = `${big.buses.toLocaleString('en-US')} buses`;
  const peerName = `${peer.buses} buses (default fleet)`;
  const pct = (x: number | null) => (x === null ? null : 100 * x);
  const ops = [...new Set([...Object.keys(big.perMinute), ...Object.keys(peer.perMinute)])].sort((a, b) => (big.perMinute[b] ?? 0) - (big.perMinute[a] ?? 0));
  return [
    { metric: `${at}: locations' share of the upstream requests (goal ≥ 70 %)`, unit: '%', fleetmap: pct(big.locationsShare), peer: pct(peer.locationsShare), peerName, better: 'higher' },
    ...ops.map((op): Figure => ({ metric: `${at}: ${OPERATION_NAMES[op] ?? op}, requests per minute`, unit: '/min', fleetmap: big.perMinute[op] ?? 0, peer: peer.perMinute[op] ?? 0, peerName, better: op === 'busLocation' ? 'higher' : 'lower' })),
    { metric: `${at}: trips walk, seconds between walks (mean)`, unit: 's', fleetmap: big.walks.meanGapS, peer: peer.walks.meanGapS, peerName, better: 'lower' },
    { metric: `${at}: delay_minutes held, age of its page (median)`, unit: 's', fleetmap: big.delay.heldAgeS?.median ?? null, peer: peer.delay.heldAgeS?.median ?? null, peerName, better: 'lower', distribution: { fleetmap: big.delay.heldAgeS, peer: peer.delay.heldAgeS } },
    { metric: `${at}: delay_minutes held, age of its page (p90)`, unit: 's', fleetmap: big.delay.heldAgeP90S, peer: peer.delay.heldAgeP90S, peerName, better: 'lower' },
    { metric: `${at}: delay shown, seconds since it was last the truth (mean)`, unit: 's', fleetmap: big.delay.staleMeanS, peer: peer.delay.staleMeanS, peerName, better: 'lower', distribution: { fleetmap: big.delay.staleS, peer: peer.delay.staleS } },
    { metric: `${at}: delay shown equal to the truth`, unit: '%', fleetmap: pct(big.delay.exactShare), peer: pct(peer.delay.exactShare), peerName, better: 'higher' },
    { metric: `${at}: |delay shown − true| (p90)`, unit: 'min', fleetmap: big.delay.errorP90Min, peer: peer.delay.errorP90Min, peerName, better: 'lower', distribution: { fleetmap: big.delay.errorMin, peer: peer.delay.errorMin } },
  ];
}
