// Benchmark "scale-pages" (issue 34, the browser at 10,000 buses): the live pages in Chromium on a big fleet. Each
// of /, /wall, /fleet and /ladder?route=<the route with most buses> is opened cold and left open `openS` seconds
// after it is ready (the first bus drawn on the maps; the first bus row on /fleet; the ladder's drawing on /ladder),
// and measured there: long tasks (a PerformanceObserver of 'longtask' installed before the page's own scripts),
// their count, the longest, and how many last over 100 ms after the first paint; and the renderer main thread's
// script and task time per second over the open window (CDP Performance.getMetrics ScriptDuration and
// TaskDuration deltas). Then the first bus on / at this fleet against the bare MapLibre peer (bench/first-bus.ts's
// wait, bench/support/bare-map.ts's page), visit for visit in the same run. measurePages takes a running stack so
// that the scale benchmark can measure the pages on its own stacks (BENCH_SCALE_PARTS=pages runs that part alone).
// BENCH_PAGES_PROFILE=<dir> adds, after the measured visits, a second visit of each page under the CDP sampling
// profiler and a trace (not measured: both slow the page), writes its .cpuprofile there, and logs the functions that
// took most main-thread time and what the tasks over 100 ms spent themselves on (script, GC, layout, or waiting for
// a WebGL canvas to be read back: without a GPU each map frame is drawn in software and the commit waits for it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../scripts/test/find-chromium.mjs';
import { VIEWPORT, waitForFirstBus } from './first-bus';
import { readLive, type BenchStack } from './support/app-stack';
import { bareFirstBusMs, startBareMapPeer, waitForBareBus } from './support/bare-map';
import type { Figure } from './support/report';
import { max, median } from './support/stats';

/** A long task longer than this after the first paint is what the goal forbids. */
const LONG_TASK_GOAL_MS = 100;
const READY_TIMEOUT_MS = 120_000;
const PEER_STATIC = 'bare MapLibre';
const PEER_FED = 'bare MapLibre fed every 5 s';
/** The peer feeds its source as often as the browser polls /api/live (lib/client/queries.ts LIVE_POLL_MS). */
const PEER_FEED_MS = 5_000;

export interface PageFigures {
  path: string;
  /** Navigation → ready (first bus drawn, first row, the ladder drawn), ms. */
  readyMs: number;
  /** First paint (Paint Timing 'first-paint'), ms from navigation. */
  firstPaintMs: number | null;
  longTasks: { count: number; longestMs: number; overGoalAfterFirstPaint: number; longestAfterReadyMs: number; durationsMs: number[] };
  /** Renderer main thread, over the open window: ms of script (and of all tasks) per second. */
  scriptMsPerS: number;
  taskMsPerS: number;
  openS: number;
}

export interface PagesFigures {
  buses: number;
  listed: number;
  placedShare: number;
  route: string;
  pages: PageFigures[];
  /**
   * The bare MapLibre peer left open as the pages were: as drawn once (PEER_STATIC), and fed every 5 s
   * (PEER_FED). Without a GPU its map frames are long tasks too; runs before it was measured lack it.
   */
  peerPages?: PageFigures[];
  firstBus: { fleetmapMs: number[]; peerMs: number[]; peerBuses: number };
}

export interface MeasurePagesOptions {
  openS: number;
  log(line: string): void;
  /** Counted first-bus visits of / and of the peer, each (after one warm-up of both). */
  firstBusVisits?: number;
  /** Where to write a CPU profile of a second visit of each page (none when absent). */
  profileDir?: string;
}

interface LongTaskEntry {
  startTime: number;
  duration: number;
}

declare global {
  interface Window {
    __longTasks?: LongTaskEntry[];
  }
}

/** Installed before any of the page's scripts: every long task of the page's life is kept. */
function observeLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks!.push({ startTime: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** Waits until the page at `path` is ready to use; navigation → ready, ms. */
async function waitForReady(page: Page, path: string): Promise<number> {
  if (path === '/' || path.startsWith('/wall')) return waitForFirstBus(page);
  const selector = path.startsWith('/fleet') ? '[role="table"][aria-label="Fleet"] [role="row"][aria-rowindex="2"]' : 'svg[aria-label^="Ladder of "]';
  const handle = await page.waitForFunction((sel) => (document.querySelector(sel) ? performance.now() : false), selector, { polling: 'raf', timeout: READY_TIMEOUT_MS });
  return (await handle.jsonValue()) as number;
}

async function mainThreadSeconds(cdp: CDPSession): Promise<{ script: number; task: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { script: of('ScriptDuration'), task: of('TaskDuration') };
}

/** Opens `url` cold, waits for `ready` and leaves it open `openS` seconds; `path` names it in the figures. */
async function openPage(browser: Browser, url: string, path: string, openS: number, ready: (page: Page) => Promise<number>): Promise<PageFigures> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(observeLongTasks);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'commit' });
    const readyMs = await ready(page);
    const t0 = await mainThreadSeconds(cdp);
    const w0 = Date.now();
    await page.waitForTimeout(openS * 1000);
    const t1 = await mainThreadSeconds(cdp);
    const seconds = (Date.now() - w0) / 1000;
    const seen = await page.evaluate(() => ({
      tasks: window.__longTasks ?? [],
      firstPaint: performance.getEntriesByType('paint').find((e) => e.name === 'first-paint')?.startTime ?? null,
    }));
    if (errors.length) throw new Error(`${path} failed in the browser: ${errors.join('; ')}`);
    const durations = seen.tasks.map((t) => t.duration);
    const afterPaint = seen.firstPaint === null ? seen.tasks : seen.tasks.filter((t) => t.startTime >= seen.firstPaint!);
    return {
      path,
      readyMs,
      firstPaintMs: seen.firstPaint,
      longTasks: {
        count: durations.length,
        longestMs: max(durations) ?? 0,
        overGoalAfterFirstPaint: afterPaint.filter((t) => t.duration > LONG_TASK_GOAL_MS).length,
        longestAfterReadyMs: max(seen.tasks.filter((t) => t.startTime >= readyMs).map((t) => t.duration)) ?? 0,
        durationsMs: durations.map((d) => Math.round(d)),
      },
      scriptMsPerS: ((t1.script - t0.script) * 1000) / seconds,
      taskMsPerS: ((t1.task - t0.task) * 1000) / seconds,
      openS: seconds,
    };
  } finally {
    await context.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** The functions that took most time in a CPU profile: self time, and time with their callees. */
function topFunctions(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, n: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const nameOf = (node: ProfileNode) => {
    const f = node.callFrame;
    const file = f.url ? f.url.replace(/^.*\//, '') : '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
  };
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id)!;
    if (['(idle)', '(program)', '(garbage collector)'].includes(node.callFrame.functionName)) {
      self.set(node.callFrame.functionName, (self.get(node.callFrame.functionName) ?? 0) + us);
      return;
    }
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + us);
    }
  });
  const top = (m: Map<string, number>, what: string) =>
    [...m.entries()]
      .filter(([name]) => name !== '(idle)' && !name.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `    ${what} ${(us / 1000).toFixed(0)} ms  ${name}`);
  return [...top(self, 'self'), ...top(total, 'total')];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** What a main-thread task spent itself on, by the trace events inside it. */
const TASK_KINDS: Array<{ kind: string; events: string[] }> = [
  // The compositor's commit reads each changed WebGL canvas back (software compositing) and waits for it to be drawn.
  { kind: 'waiting on a WebGL canvas read back (software GL)', events: ['GLES2::ReadPixels'] },
  { kind: 'garbage collection', events: ['MajorGC', 'MinorGC', 'V8.GCIncrementalMarking'] },
  { kind: 'script', events: ['FunctionCall', 'TimerFire', 'FireAnimationFrame', 'EvaluateScript', 'v8.callFunction', 'v8.run'] },
  { kind: 'style, layout and paint', events: ['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint'] },
];

/** The renderer main thread's tasks over LONG_TASK_GOAL_MS in a trace, counted by what took most of each. */
function longTaskKinds(events: TraceEvent[]): Record<string, number> {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return {};
  const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const counts: Record<string, number> = {};
  for (const task of on.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur! > LONG_TASK_GOAL_MS * 1000)) {
    const inside = on.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    // The outermost event of each kind counts once (a kind's events nest: FunctionCall within TimerFire).
    const spent = TASK_KINDS.map(({ kind, events: names }) => ({ kind, us: Math.max(0, ...inside.filter((e) => names.includes(e.name)).map((e) => e.dur!)) }));
    const top = spent.sort((a, b) => b.us - a.us)[0]!;
    const kind = top.us > task.dur! / 2 ? top.kind : 'other';
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * A second visit of the page under the CDP sampling profiler and a trace: the profile is written to `dir` and its
 * most expensive functions logged, with the long tasks counted by what they spent their time on.
 */
async function profilePage(browser: Browser, appUrl: string, path: string, openS: number, dir: string, log: (line: string) => void): Promise<void> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
    const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,gpu,v8', transferMode: 'ReportEvents' });
    await cdp.send('Profiler.start');
    await page.goto(`${appUrl}${path}`, { waitUntil: 'commit' });
    await waitForReady(page, path);
    await page.waitForTimeout(openS * 1000);
    const { profile } = await cdp.send('Profiler.stop');
    await cdp.send('Tracing.end');
    await traced;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${path.replace(/[^\w]+/g, '_') || 'root'}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const kinds = Object.entries(longTaskKinds(events)).map(([kind, n]) => `${n} ${kind}`);
    log(`  ${path} (profiled visit): tasks over ${LONG_TASK_GOAL_MS} ms: ${kinds.join(', ') || 'none'}`);
    log(`  ${path}: profile written to ${file}; most main-thread time:`);
    for (const line of topFunctions(profile as unknown as Parameters<typeof topFunctions>[0], 12)) log(line);
  } finally {
    await context.close();
  }
}

/** The route code with the most buses on a trip in the app's snapshot now. */
async function busiestRoute(appUrl: string): Promise<string> {
  const live = (await readLive(appUrl)) as unknown as { vehicles: Array<{ trip: { routeCode: string | null } | null }> };
  const counts = new Map<string, number>();
  for (const v of live.vehicles) if (v.trip?.routeCode) counts.set(v.trip.routeCode, (counts.get(v.trip.routeCode) ?? 0) + 1);
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error('no bus in the snapshot is on a route');
  return best[0];
}

/** The live pages of a running app, measured in one Chromium; see the file's header. */
export async function measurePages(bench: BenchStack, opts: MeasurePagesOptions): Promise<PagesFigures> {
  const live = await readLive(bench.appUrl);
  const placedShare = live.vehicles.filter((v) => v.lat !== null).length / Math.max(1, live.vehicles.length);
  const route = await busiestRoute(bench.appUrl);
  const paths = ['/', '/wall', '/fleet', `/ladder?route=${encodeURIComponent(route)}`];
  const browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
  try {
    const pages: PageFigures[] = [];
    for (const path of paths) {
      // The first visit warms the server (route modules, the network GeoJSON, the answers' caches); it is not counted.
      const ready = (page: Page) => waitForReady(page, path);
      await openPage(browser, `${bench.appUrl}${path}`, path, 0, ready);
      const f = await openPage(browser, `${bench.appUrl}${path}`, path, opts.openS, ready);
      opts.log(
        `  ${path}: ready ${f.readyMs.toFixed(0)} ms; ${f.longTasks.count} long tasks, longest ${f.longTasks.longestMs.toFixed(0)} ms, ${f.longTasks.overGoalAfterFirstPaint} over ${LONG_TASK_GOAL_MS} ms after the first paint; ` +
          `script ${f.scriptMsPerS.toFixed(0)} ms/s, tasks ${f.taskMsPerS.toFixed(0)} ms/s over ${f.openS.toFixed(0)} s`,
      );
      pages.push(f);
    }
    const visits = opts.firstBusVisits ?? 3;
    const peer = await startBareMapPeer(bench.appUrl);
    const fleetmapMs: number[] = [];
    const peerMs: number[] = [];
    const peerPages: PageFigures[] = [];
    try {
      const firstBusOf = async (read: (page: Page) => Promise<number>) => {
        const context = await browser.newContext({ viewport: VIEWPORT });
        try {
          return await read(await context.newPage());
        } finally {
          await context.close();
        }
      };
      const appVisit = () => firstBusOf(async (page) => (await page.goto(`${bench.appUrl}/`, { waitUntil: 'commit' }), waitForFirstBus(page)));
      const peerVisit = () => firstBusOf((page) => bareFirstBusMs(page, peer.url));
      await peerVisit();
      // The peer's own long tasks, left open as the app's pages were: as drawn once, and fed every 5 s as a live page is.
      for (const [label, query] of [[PEER_STATIC, ''], [PEER_FED, `?feed=${PEER_FEED_MS}`]] as const) {
        const f = await openPage(browser, `${peer.url}${query}`, label, opts.openS, waitForBareBus);
        opts.log(`  ${label}: ready ${f.readyMs.toFixed(0)} ms; ${f.longTasks.count} long tasks, longest ${f.longTasks.longestMs.toFixed(0)} ms, ${f.longTasks.overGoalAfterFirstPaint} over ${LONG_TASK_GOAL_MS} ms after the first paint; tasks ${f.taskMsPerS.toFixed(0)} ms/s`);
        peerPages.push(f);
      }
      for (let i = 0; i < visits; i++) {
        fleetmapMs.push(await appVisit());
        peerMs.push(await peerVisit());
        opts.log(`  first bus, visit ${i + 1}/${visits}: / ${fleetmapMs.at(-1)!.toFixed(0)} ms, bare MapLibre ${peerMs.at(-1)!.toFixed(0)} ms`);
      }
    } finally {
      await peer.close();
    }
    if (opts.profileDir) for (const path of paths) await profilePage(browser, bench.appUrl, path, opts.openS, opts.profileDir, opts.log);
    return { buses: live.vehicles.length, listed: live.vehicles.length, placedShare, route, pages, peerPages, firstBus: { fleetmapMs, peerMs, peerBuses: peer.buses } };
  } finally {
    await browser.close();
  }
}

/** The figures of measurePages, for the report's table; `at` prefixes each metric (the fleet's size). */
export function pagesFigures(f: PagesFigures, at: string): Figure[] {
  const figures: Figure[] = [];
  // The live maps (/ and /wall) against the peer fed every 5 s: the same long tasks a bare live map has here.
  const fed = f.peerPages?.find((p) => p.path === PEER_FED) ?? null;
  const peerOf = (page: string, x: (p: PageFigures) => number) => (fed && (page === '/' || page === '/wall') ? { peer: x(fed), peerName: PEER_FED } : { peer: null });
  for (const p of f.pages) {
    const page = p.path.startsWith('/ladder') ? '/ladder' : p.path;
    figures.push(
      { metric: `${at}: ${page} open ${Math.round(p.openS)} s, long tasks`, unit: '', fleetmap: p.longTasks.count, ...peerOf(page, (x) => x.longTasks.count), better: 'lower' },
      { metric: `${at}: ${page} longest task`, unit: 'ms', fleetmap: p.longTasks.longestMs, ...peerOf(page, (x) => x.longTasks.longestMs), better: 'lower' },
      { metric: `${at}: ${page} long tasks over ${LONG_TASK_GOAL_MS} ms after the first paint`, unit: '', fleetmap: p.longTasks.overGoalAfterFirstPaint, ...peerOf(page, (x) => x.longTasks.overGoalAfterFirstPaint), better: 'lower' },
      { metric: `${at}: ${page} script time per second open`, unit: 'ms', fleetmap: p.scriptMsPerS, ...peerOf(page, (x) => x.scriptMsPerS), better: 'lower' },
      { metric: `${at}: ${page} main-thread task time per second open`, unit: 'ms', fleetmap: p.taskMsPerS, ...peerOf(page, (x) => x.taskMsPerS), better: 'lower' },
    );
  }
  const drawnOnce = f.peerPages?.find((p) => p.path === PEER_STATIC);
  if (drawnOnce) {
    figures.push({ metric: `${at}: ${PEER_STATIC} drawn once, open ${Math.round(drawnOnce.openS)} s: long tasks over ${LONG_TASK_GOAL_MS} ms after the first paint`, unit: '', fleetmap: drawnOnce.longTasks.overGoalAfterFirstPaint, peer: null, better: 'lower' });
  }
  const app = median(f.firstBus.fleetmapMs)!;
  const peer = median(f.firstBus.peerMs)!;
  figures.push(
    { metric: `${at}: / navigation → first bus drawn, median`, unit: 'ms', fleetmap: app, peer, peerName: 'bare MapLibre', better: 'lower' },
    { metric: `${at}: / first bus, median ÷ the bare MapLibre peer's`, unit: '×', fleetmap: app / peer, peer: null, better: 'lower' },
  );
  return figures;
}
