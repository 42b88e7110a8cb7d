// The scale benchmark's viewers and soak parts (issue 34, "the server at 10,000" and "viewers that come and go"): viewers that follow
// /api/live's compact deltas as the browser does (bench/support/delta-viewers.ts), on one running stack.
//
// - holdViewers: one viewer for a window, then 1,000 for durationS. Per window: the viewers' polls (failed, latency
//   of each request to its last byte), the upstream requests a minute of the app's key (the simulator's count), and
//   every sampleS the app's own budget (/api/status: requests sent upstream in the last minute against limit ×
//   share; the lowest ratio is "the poller at its share throughout"), with that sample window's latencies, app CPU
//   and load, to tell when in the window a stall came. The generator's own CPU and event-loop delay are reported:
//   it runs in this process, and a stall of its loop lengthens the latencies it measures. Goals: 0 failed, p99 ≤ 250 ms, the poller ≥
//   0.95 of its share, upstream requests a minute within 2 % of the one-viewer window's.
// - serverSoak: 100 viewers for durationS; the app server's CPU (utime + stime over each sample window, % of one
//   core) and resident memory (VmRSS) every sampleS, summed over scripts/server/server.mjs and any process under it
//   (bench/support/proc-stats.ts). Goals: CPU ≤ 15 % of a core at steady state, RSS ≤ 400 MB after an hour, no
//   growth after the first hour (fitted over the samples after 60 min; a run shorter than 75 min does not measure it).
//
// The functions take a running BenchStack: bench/scale.ts runs them on its 10,000-bus stack
// (BENCH_SCALE_PARTS=viewers,soak runs those parts alone; its knobs set the windows).
import { loadavg } from 'node:os';
import type { BenchStack } from './support/app-stack';
import { startDeltaViewers, type DeltaViewerReport } from './support/delta-viewers';
import { sampleTree, type ProcSample } from './support/proc-stats';
import type { Figure } from './support/report';
import { percentile } from '../lib/stats/percentile';
import { median, sleep } from './support/stats';

/** The browsers' poll interval (lib/client/queries.ts LIVE_POLL_MS). */
const POLL_MS = 5_000;
export const VIEWER_GOALS = { failedPolls: 0, p99Ms: 250, minShareRatio: 0.95, upstreamWithinPercent: 2 };
export const SOAK_GOALS = { cpuPercent: 15, rssMBAfterHour: 400, growthMBPerHour: 0 };
/** The soak's samples after this are the "after the first hour" ones; a run shorter than GROWTH_MIN_S does not fit a growth. */
const HOUR_S = 3_600;
const GROWTH_MIN_S = 4_500;
const MB = 1e6;

/** The app's budget (/api/status): requests sent upstream in the last minute against its share of the limit. */
export interface BudgetSample {
  usedLastMinute: number;
  limit: number | null;
  share: number;
  /** usedLastMinute / (limit × share); null while the limit is unknown. */
  ratio: number | null;
  byKind: Record<string, number>;
}

/** What one sample window of a viewer window saw, to tell when in the window something happened. */
export interface WindowSample {
  elapsedS: number;
  /** null when /api/status did not answer. */
  budget: BudgetSample | null;
  /** The requests that ended since the sample before. */
  latencyMs: LatencySummary;
  /** The app server's CPU since the sample before, % of one core. */
  appCpuPercent: number;
  loadAverage: number;
}

export interface ViewerWindow {
  viewers: number;
  seconds: number;
  polls: Omit<DeltaViewerReport, 'latencyMs'>;
  latencyMs: LatencySummary;
  /** The app key's requests a minute over the window, counted by the simulator. */
  upstreamPerMinute: number;
  /** Every sampleS; the lowest budget ratio among them is minShareRatio (a sample without an answer is not counted). */
  samples: WindowSample[];
  minShareRatio: number | null;
  /** The app server's CPU over the window, % of one core, and its RSS at the end, MB. */
  appCpuPercent: number;
  appRssMB: number;
  /** The share of listed buses with a position in the newest snapshot the viewers held, at the window's start and end. */
  placedShare: { start: number | null; end: number | null };
  loadAverage: { start: number; end: number };
}

export interface HoldResult {
  oneViewer: ViewerWindow;
  hold: ViewerWindow;
  /** The hold's upstream requests a minute against the one viewer's, in per cent (positive: more). */
  upstreamDifferencePercent: number;
  goals: Record<string, { goal: number; measured: number | null; met: boolean }>;
}

interface Health {
  budget: { limit: number | null; usedLastMinute: number; share: number; byKind: Record<string, number> };
}

export interface LatencySummary {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

function latencySummary(ms: readonly number[]): LatencySummary {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? null };
}


const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

async function budgetSample(appUrl: string): Promise<BudgetSample | null> {
  try {
    const res = await fetch(`${appUrl}/api/status`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    const { budget } = (await res.json()) as Health;
    return { usedLastMinute: budget.usedLastMinute, limit: budget.limit, share: budget.share, ratio: budget.limit ? budget.usedLastMinute / (budget.limit * budget.share) : null, byKind: budget.byKind };
  } catch {
    return null;
  }
}

const placed = (s: { vehicles: readonly { lat: number | null }[] } | undefined) => (s && s.vehicles.length ? s.vehicles.filter((v) => v.lat !== null).length / s.vehicles.length : null);

/** `viewers` delta viewers for `durationS`, the app's budget sampled every `sampleS`. */
async function viewerWindow(bench: BenchStack, viewers: number, durationS: number, sampleS: number, log: (line: string) => void): Promise<ViewerWindow> {
  const loadStart = load1();
  const pid = bench.appPid();
  const stats0 = await bench.simStats();
  const proc0 = sampleTree(pid);
  const t0 = Date.now();
  const running = startDeltaViewers(bench.appUrl, { viewers, intervalMs: POLL_MS });
  const samples: WindowSample[] = [];
  let placedStart: number | null = null;
  let nextLog = 60;
  let lastProc = proc0;
  let latenciesRead = 0;
  for (let elapsed = 0; elapsed < durationS; ) {
    await sleep(Math.min(sampleS, durationS - elapsed) * 1000);
    elapsed = (Date.now() - t0) / 1000;
    placedStart ??= placed(running.newest());
    const proc = sampleTree(pid);
    const latencies = running.latencies();
    const sample: WindowSample = { elapsedS: elapsed, budget: null, latencyMs: latencySummary(latencies.slice(latenciesRead)), appCpuPercent: cpuPercent(lastProc, proc), loadAverage: load1() };
    latenciesRead = latencies.length;
    lastProc = proc;
    sample.budget = await budgetSample(bench.appUrl);
    samples.push(sample);
    if (elapsed >= nextLog) {
      const c = running.counts();
      const b = sample.budget;
      log(`    ${viewers} viewer${viewers === 1 ? '' : 's'}, ${elapsed.toFixed(0)} s: ${c.polls} polls, ${c.failed} failed, ${c.skipped} skipped; upstream ${b?.usedLastMinute ?? '?'} in the last minute (${b?.ratio?.toFixed(3) ?? '?'} of the share); load ${sample.loadAverage}`);
      nextLog += 60;
    }
  }
  const placedEnd = placed(running.newest());
  const report = await running.stop();
  const proc1 = sampleTree(pid);
  const stats1 = await bench.simStats();
  if (stats1.since !== stats0.since) throw new Error("the simulator's counts were reset during the window: its upstream rate cannot be read");
  const minutes = (Date.now() - t0) / 60_000;
  const upstream = (stats1.byKey[bench.appKeyMask] ?? 0) - (stats0.byKey[bench.appKeyMask] ?? 0);
  const { latencyMs, ...polls } = report;
  const ratios = samples.map((x) => x.budget?.ratio ?? null).filter((r): r is number => r !== null);
  return {
    viewers,
    seconds: report.seconds,
    polls,
    latencyMs: latencySummary(latencyMs),
    upstreamPerMinute: upstream / minutes,
    samples,
    minShareRatio: ratios.length ? Math.min(...ratios) : null,
    appCpuPercent: cpuPercent(proc0, proc1),
    appRssMB: proc1.rssBytes / MB,
    placedShare: { start: placedStart, end: placedEnd },
    loadAverage: { start: loadStart, end: load1() },
  };
}

function cpuPercent(a: ProcSample, b: ProcSample): number {
  return (100 * (b.cpuS - a.cpuS)) / ((b.at - a.at) / 1000);
}

function describeWindow(w: ViewerWindow): string {
  const ms = (x: number | null) => (x === null ? '–' : x.toFixed(0));
  return (
    `${w.viewers} viewer${w.viewers === 1 ? '' : 's'}, ${w.seconds.toFixed(0)} s: ${w.polls.polls} polls, ${w.polls.failed} failed (${w.polls.chainBreaks} broken chains), ${w.polls.divergent} versions reached unequal, ${w.polls.skipped} skipped, ` +
    `latency p50 ${ms(w.latencyMs.p50)} / p99 ${ms(w.latencyMs.p99)} / max ${ms(w.latencyMs.max)} ms; ${w.polls.fullAnswers} full, ${w.polls.deltaAnswers} deltas, ${w.polls.notModified} 304; ` +
    `${(w.polls.bytes / MB).toFixed(1)} MB received on ${w.polls.connections} connections; upstream ${w.upstreamPerMinute.toFixed(1)}/min, poller ≥ ${w.minShareRatio?.toFixed(3) ?? '–'} of its share; ` +
    `app ${w.appCpuPercent.toFixed(1)} % of a core, ${w.appRssMB.toFixed(0)} MB; generator ${w.polls.clientCpuPercent.toFixed(1)} % of a core, its event loop delayed ≤ ${w.polls.clientLoopDelayMs.max.toFixed(0)} ms (p99 ${w.polls.clientLoopDelayMs.p99.toFixed(0)}); load ${w.loadAverage.start} → ${w.loadAverage.end}`
  );
}

export interface HoldOptions {
  viewers: number;
  durationS: number;
  /** The one-viewer window (default: durationS). */
  oneViewerS?: number;
  /** How often the app's budget is read (default 10 s). */
  sampleS?: number;
  /** At most this long, waits for the poller to reach its share before the first window (default 180 s). */
  settleS?: number;
  log(line: string): void;
}

/**
 * Waits until the app's last minute of upstream requests reaches the goal's share of its budget, at most `maxS`:
 * a window begun sooner would count the poller's start (its last minute not yet a whole minute of polling).
 */
async function settle(appUrl: string, maxS: number, log: (line: string) => void): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const b = await budgetSample(appUrl);
    if ((b?.ratio ?? 0) >= VIEWER_GOALS.minShareRatio || Date.now() - t0 >= maxS * 1000) {
      log(`  the poller at ${b?.ratio?.toFixed(3) ?? '–'} of its share after ${((Date.now() - t0) / 1000).toFixed(0)} s of waiting`);
      return;
    }
    await sleep(5_000);
  }
}

/** One viewer for oneViewerS, then `viewers` for durationS, on `bench` as it runs. */
export async function holdViewers(bench: BenchStack, opts: HoldOptions): Promise<HoldResult> {
  const sampleS = opts.sampleS ?? 10;
  await settle(bench.appUrl, opts.settleS ?? 180, opts.log);
  opts.log(`  one viewer for ${opts.oneViewerS ?? opts.durationS} s`);
  const oneViewer = await viewerWindow(bench, 1, opts.oneViewerS ?? opts.durationS, sampleS, opts.log);
  opts.log(`  ${describeWindow(oneViewer)}`);
  opts.log(`  ${opts.viewers} viewers for ${opts.durationS} s`);
  const hold = await viewerWindow(bench, opts.viewers, opts.durationS, sampleS, opts.log);
  opts.log(`  ${describeWindow(hold)}`);
  const upstreamDifferencePercent = (100 * (hold.upstreamPerMinute - oneViewer.upstreamPerMinute)) / oneViewer.upstreamPerMinute;
  const g = VIEWER_GOALS;
  return {
    oneViewer,
    hold,
    upstreamDifferencePercent,
    goals: {
      failedPolls: { goal: g.failedPolls, measured: hold.polls.failed, met: hold.polls.failed <= g.failedPolls },
      p99Ms: { goal: g.p99Ms, measured: hold.latencyMs.p99, met: hold.latencyMs.p99 !== null && hold.latencyMs.p99 <= g.p99Ms },
      minShareRatio: { goal: g.minShareRatio, measured: hold.minShareRatio, met: hold.minShareRatio !== null && hold.minShareRatio >= g.minShareRatio },
      upstreamWithinPercent: { goal: g.upstreamWithinPercent, measured: upstreamDifferencePercent, met: Math.abs(upstreamDifferencePercent) <= g.upstreamWithinPercent },
    },
  };
}

export function holdFigures(r: HoldResult, at: string): Figure[] {
  const n = `${at}, ${r.hold.viewers.toLocaleString('en-US')} delta viewers`;
  return [
    { metric: `${n}: failed polls`, unit: '', fleetmap: r.hold.polls.failed, peer: null, better: 'lower' },
    { metric: `${n}: poll latency p50`, unit: 'ms', fleetmap: r.hold.latencyMs.p50, peer: null, better: 'lower' },
    { metric: `${n}: poll latency p99`, unit: 'ms', fleetmap: r.hold.latencyMs.p99, peer: null, better: 'lower' },
    { metric: `${n}: poll latency max`, unit: 'ms', fleetmap: r.hold.latencyMs.max, peer: null, better: 'lower' },
    { metric: `${n}: the poller's lowest share of its budget`, unit: '×', fleetmap: r.hold.minShareRatio, peer: null, better: 'higher' },
    { metric: `${n}: upstream requests/min`, unit: '/min', fleetmap: r.hold.upstreamPerMinute, peer: r.oneViewer.upstreamPerMinute, better: 'lower', peerName: 'one viewer' },
    { metric: `${n}: load generator CPU`, unit: '%', fleetmap: r.hold.polls.clientCpuPercent, peer: null, better: 'lower' },
    { metric: `${n}: load generator's event-loop delay, max`, unit: 'ms', fleetmap: r.hold.polls.clientLoopDelayMs.max, peer: null, better: 'lower' },
  ];
}

export interface SoakSample {
  elapsedS: number;
  /** The app's CPU over the window since the sample before, % of one core. */
  cpuPercent: number;
  rssMB: number;
}

export interface SoakResult {
  viewers: number;
  /** The app's history store (bench/scale.ts BENCH_SCALE_STORE); runs before it was recorded used the embedded one. */
  store?: 'embedded' | 'postgresql';
  /** The service day so far written to the store before the app started (bench/scale-prefill.ts); absent: empty. */
  prefill?: { hours: number; fixes: number; trips: number };
  seconds: number;
  /** The processes measured (the app server and any under it), at the end. */
  processes: { pid: number; command: string }[];
  samples: SoakSample[];
  warmupS: number;
  /** Median of the samples after the warm-up. */
  steadyCpuPercent: number | null;
  rssEndMB: number;
  /** The first sample at or after an hour; null for a shorter run. */
  rssAfterHourMB: number | null;
  /** Least-squares slope of RSS over the samples after the first hour; null (not measured) for a run shorter than 75 min. */
  growthMBPerHour: number | null;
  polls: Omit<DeltaViewerReport, 'latencyMs'>;
  latencyMs: LatencySummary;
  loadAverage: { start: number; end: number };
  goals: Record<string, { goal: number; measured: number | null; met: boolean | null }>;
}

export interface SoakOptions {
  viewers: number;
  durationS: number;
  sampleS: number;
  store: 'embedded' | 'postgresql';
  /** Samples before this are left out of the steady-state CPU (default: a fifth of the run, at most 5 min). */
  warmupS?: number;
  log(line: string): void;
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/** `viewers` delta viewers for durationS while the app server's CPU and RSS are read every sampleS. */
export async function serverSoak(bench: BenchStack, opts: SoakOptions): Promise<SoakResult> {
  const warmupS = opts.warmupS ?? Math.min(300, opts.durationS / 5);
  const loadStart = load1();
  const pid = bench.appPid();
  const running = startDeltaViewers(bench.appUrl, { viewers: opts.viewers, intervalMs: POLL_MS });
  const t0 = Date.now();
  let last = sampleTree(pid);
  const samples: SoakSample[] = [];
  let nextLog = 60;
  for (let elapsed = 0; elapsed < opts.durationS; ) {
    await sleep(Math.min(opts.sampleS, opts.durationS - elapsed) * 1000);
    elapsed = (Date.now() - t0) / 1000;
    const now = sampleTree(pid);
    samples.push({ elapsedS: elapsed, cpuPercent: cpuPercent(last, now), rssMB: now.rssBytes / MB });
    last = now;
    if (elapsed >= nextLog) {
      const c = running.counts();
      opts.log(`    soak, ${(elapsed / 60).toFixed(0)} min: app ${samples.at(-1)!.cpuPercent.toFixed(1)} % of a core, ${samples.at(-1)!.rssMB.toFixed(0)} MB; ${c.polls} polls, ${c.failed} failed`);
      nextLog += opts.durationS >= HOUR_S ? 600 : 60;
    }
  }
  const report = await running.stop();
  const { latencyMs, ...polls } = report;
  const steady = samples.filter((s) => s.elapsedS >= warmupS).map((s) => s.cpuPercent);
  const afterHour = samples.filter((s) => s.elapsedS >= HOUR_S);
  const seconds = (Date.now() - t0) / 1000;
  const steadyCpuPercent = median(steady);
  const rssEndMB = last.rssBytes / MB;
  const rssAfterHourMB = afterHour[0]?.rssMB ?? null;
  const fitted = seconds >= GROWTH_MIN_S ? slope(afterHour.map((s) => s.elapsedS / HOUR_S), afterHour.map((s) => s.rssMB)) : null;
  const g = SOAK_GOALS;
  const r: SoakResult = {
    viewers: opts.viewers,
    store: opts.store,
    seconds,
    processes: last.processes,
    samples,
    warmupS,
    steadyCpuPercent,
    rssEndMB,
    rssAfterHourMB,
    growthMBPerHour: fitted,
    polls,
    latencyMs: latencySummary(latencyMs),
    loadAverage: { start: loadStart, end: load1() },
    goals: {
      cpuPercent: { goal: g.cpuPercent, measured: steadyCpuPercent, met: steadyCpuPercent === null ? null : steadyCpuPercent <= g.cpuPercent },
      rssMBAfterHour: { goal: g.rssMBAfterHour, measured: rssAfterHourMB, met: rssAfterHourMB === null ? null : rssAfterHourMB <= g.rssMBAfterHour },
      growthMBPerHour: { goal: g.growthMBPerHour, measured: fitted, met: fitted === null ? null : fitted <= g.growthMBPerHour },
    },
  };
  opts.log(
    `  soak, ${opts.viewers} viewers, ${opts.store} store, ${(seconds / 60).toFixed(1)} min (${r.processes.map((p) => `pid ${p.pid}: ${p.command}`).join('; ')}): app CPU ${steadyCpuPercent?.toFixed(1) ?? '–'} % of a core (median after ${warmupS.toFixed(0)} s), ` +
      `RSS ${rssEndMB.toFixed(0)} MB at the end, ${rssAfterHourMB === null ? 'not measured after an hour' : `${rssAfterHourMB.toFixed(0)} MB after an hour`}, ` +
      `growth ${fitted === null ? `not measured (needs ${GROWTH_MIN_S / 60} min)` : `${fitted.toFixed(1)} MB/h after the first hour`}; ${polls.polls} polls, ${polls.failed} failed, ${polls.divergent} versions reached unequal; load ${r.loadAverage.start} → ${r.loadAverage.end}`,
  );
  return r;
}

export function soakFigures(r: SoakResult, at: string): Figure[] {
  const n = `${at}, ${r.viewers} delta viewers, ${r.store === 'postgresql' ? 'PostgreSQL store' : 'embedded store'}`;
  return [
    { metric: `${n}: app server CPU at steady state (% of one core)`, unit: '%', fleetmap: r.steadyCpuPercent, peer: null, better: 'lower' },
    { metric: `${n}: app server RSS at the end (${(r.seconds / 60).toFixed(0)} min)`, unit: 'MB', fleetmap: r.rssEndMB, peer: null, better: 'lower' },
    { metric: `${n}: app server RSS after an hour`, unit: 'MB', fleetmap: r.rssAfterHourMB, peer: null, better: 'lower' },
    { metric: `${n}: app server RSS growth after the first hour`, unit: 'MB/h', fleetmap: r.growthMBPerHour, peer: null, better: 'lower' },
  ];
}
