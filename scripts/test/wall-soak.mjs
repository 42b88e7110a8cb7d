// Soak run of the wall display: `node scripts/test/wall-soak.mjs [--minutes 20] [--speed 72] [--warmup 60]
// [--buses N] [--path "/wall?rotate=30"] [--sample 60] [--heap-diff] [--save-snapshots DIR]`. Starts the simulator (fast
// clock: a simulated day in ~20 real minutes at the defaults) and the built app (e2e/support/stack.ts), opens the
// wall in Chromium and records, after forced garbage collection, the JS heap, DOM nodes and event listeners after
// a warm-up, every --sample seconds (a minute by default; fewer seconds at a high --speed keep the samples close
// in simulated time, so "the same time of day one day later" compares like with like), and at the end, for the page and for MapLibre's worker. Prints the figures, the growth,
// a least-squares trend, and whether the growth stayed within GROWTH_LIMIT over a simulated day; not part of
// `npm test` (a soak takes half an hour). Heap follows the data: the snapshot's trips rise and fall with the
// simulated time of day, so a run whose measurement spans a whole simulated day (20 min at speed 72) compares
// like with like. --heap-diff takes heap snapshots (page and worker) after the warm-up and at the end and prints
// what survived in between, by constructor and retainer (scripts/test/wall-heap-diff.mjs); --save-snapshots keeps them.
// Builds into .next-soak when stale (FLEETMAP_SOAK_DIST picks another build directory). --out FILE writes the
// samples, the heap at the baseline's simulated time of day on each later day, and the verdict as JSON (the
// README's soak table is generated from bench/results/wall-soak.json, scripts/bench/bench-readme.mjs).
import { require as tsxRequire } from 'tsx/cjs/api';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';
import { buildIfStale } from '../server/next-build.mjs';
import { heapDiffReport, parseSnapshot, takeHeapSnapshot } from './wall-heap-diff.mjs';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

/** The requirement: the heap may grow at most this much over a simulated day. */
const GROWTH_LIMIT = 0.1;
const SIM_DAY_H = 24;
/** The share of the snapshot's buses the wall must draw before the baseline is taken. */
const FLEET_DRAWN_SHARE = 0.95;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { minutes: 20, speed: 72, warmup: 60, sample: 60, buses: undefined, path: '/wall', 'heap-diff': false, 'save-snapshots': null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'heap-diff') {
      opts['heap-diff'] = true;
      continue;
    }
    const value = argv[++i];
    if (!(name in opts) || value === undefined) throw new UsageError(`Unknown or incomplete option ${argv[i - 1]}. Options: --minutes, --speed, --warmup, --sample, --buses, --path, --heap-diff, --save-snapshots DIR, --out FILE.`);
    if (name === 'path') {
      if (!value.startsWith('/wall')) throw new UsageError('--path must start with /wall');
      opts.path = value;
    } else if (name === 'out') {
      opts.out = value;
    } else if (name === 'save-snapshots') {
      opts['save-snapshots'] = value;
      opts['heap-diff'] = true;
    } else {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, got ${JSON.stringify(value)}`);
      opts[name] = n;
    }
  }
  if (opts.warmup >= opts.minutes * 60) throw new UsageError('--warmup (seconds) must be shorter than --minutes');
  return opts;
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);
const pct = (a, b) => `${(((b - a) / a) * 100).toFixed(1)}%`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The page's dedicated workers (MapLibre's, where GeoJSON is indexed, tiled and clustered): their heaps are
 * separate isolates, absent from the page's figure. Playwright offers no session for a worker, so they are
 * reached through the page's own session in the (non-flat) target-message mode, each wrapped as a small
 * CDP-like session (send, on, off) that takeHeapSnapshot can use as it uses the page's.
 */
async function pageWorkers(cdp) {
  const sessions = new Map();
  let nextId = 1;
  const open = (sessionId) => {
    const waiting = new Map();
    const listeners = new Map();
    const session = {
      send: (method, params = {}) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          const timer = setTimeout(() => waiting.delete(id) && reject(new Error(`worker did not answer ${method}`)), 60_000);
          waiting.set(id, { resolve: (r) => (clearTimeout(timer), resolve(r)), reject: (e) => (clearTimeout(timer), reject(e)) });
          cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
        }),
      on: (event, fn) => listeners.set(event, [...(listeners.get(event) ?? []), fn]),
      off: (event, fn) => listeners.set(event, (listeners.get(event) ?? []).filter((f) => f !== fn)),
      receive(msg) {
        if (msg.id === undefined) return (listeners.get(msg.method) ?? []).forEach((fn) => fn(msg.params));
        const w = waiting.get(msg.id);
        if (!w) return;
        waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(`worker: ${msg.error.message}`));
        else w.resolve(msg.result);
      },
    };
    sessions.set(sessionId, session);
  };
  cdp.on('Target.attachedToTarget', (e) => e.targetInfo.type === 'worker' && open(e.sessionId));
  cdp.on('Target.detachedFromTarget', (e) => sessions.delete(e.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (e) => sessions.get(e.sessionId)?.receive(JSON.parse(e.message)));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    /** Summed used heap of the workers after forced collection. */
    async usedHeap() {
      let bytes = 0;
      for (const session of [...sessions.values()]) {
        for (let i = 0; i < 3; i++) await session.send('HeapProfiler.collectGarbage');
        bytes += (await session.send('Runtime.getHeapUsage')).usedSize;
      }
      return { bytes, count: sessions.size };
    },
    /** The first worker as a CDP-like session, or null when there is none. */
    first: () => sessions.values().next().value ?? null,
  };
}

/**
 * Waits for a quiet moment: a fresh snapshot received and its glide and map update over. Sampled at a random
 * point instead, the heap holds a snapshot in flight or a glide's frames at some samples and not at others,
 * and the noise (a megabyte and more) swamps a trend.
 */
async function quietMoment(page) {
  await page.waitForResponse((r) => new URL(r.url()).pathname === '/api/live', { timeout: 15_000 }).catch(() => undefined);
  await sleep(QUIET_AFTER_MS);
  // A reframe (the wall's camera flight) holds tiles being loaded and the animation's state: wait it out.
  await page
    .waitForFunction(() => {
      const map = window.__fleetmap?.map;
      return !map || (!map.isMoving() && map.areTilesLoaded());
    }, undefined, { timeout: 10_000, polling: 250 })
    .catch(() => undefined);
}

// GLIDE_MS (1 s) plus the worker's re-indexing, with room to spare on a loaded machine.
const QUIET_AFTER_MS = 2_500;

/** What the heap is proportional to: the buses and trips in the snapshot and the network's features. */
async function dataSize(appUrl) {
  try {
    const [live, network] = await Promise.all(['/api/live', '/api/network'].map((p) => fetch(`${appUrl}${p}`).then((r) => r.json())));
    return { vehicles: live.vehicles?.length ?? null, trips: live.vehicles?.filter((v) => v.trip).length ?? null, features: network.features?.length ?? null };
  } catch {
    return { vehicles: null, trips: null, features: null };
  }
}

/** Heap after forced collection (the page's and its workers'), and the renderer's DOM counters. */
async function measure(cdp, page, workers, appUrl) {
  await quietMoment(page);
  const data = await dataSize(appUrl);
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const worker = await workers.usedHeap();
  const dom = await cdp.send('Memory.getDOMCounters');
  const buses = await page.evaluate(() => {
    const map = window.__fleetmap?.map;
    if (!map) return null;
    const layers = ['fleet-bus-circles', 'fleet-bus-clusters'].filter((id) => map.getLayer(id));
    let n = 0;
    for (const f of map.queryRenderedFeatures({ layers })) n += f.properties?.point_count ?? 1;
    return n;
  });
  const placeholders = await page.getByText('will be back shortly').count();
  return { at: Date.now(), ...data, usedHeap: heap.usedSize, workerHeap: worker.bytes, workers: worker.count, nodes: dom.nodes, listeners: dom.jsEventListeners, documents: dom.documents, buses, placeholders };
}

/** Least-squares slope of a heap over time, in MB per hour: less at the mercy of one GC than two end points. */
function slopeMbPerHour(samples, field = 'usedHeap') {
  const n = samples.length;
  if (n < 3) return null;
  const xs = samples.map((s) => (s.at - samples[0].at) / 3_600_000);
  const ys = samples.map((s) => s[field] / 1024 / 1024);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const num = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0);
  const den = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return den ? num / den : null;
}

async function simClock(stack) {
  try {
    const res = await fetch(`${stack.simAdminUrl}/__admin/clock`);
    // `local` is the simulator's wall-clock time (`YYYY-MM-DD HH:MM:SS`); read naively, differences are exact.
    const { local } = await res.json();
    const ms = typeof local === 'string' ? Date.parse(`${local.replace(' ', 'T')}Z`) : NaN;
    return Number.isFinite(ms) ? ms : null;
  } catch {
    return null;
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const loadAverageAtStart = Math.round(loadavg()[0] * 100) / 100;
  // Its own build by default, so the e2e build (made with a canary key) is never replaced by one without.
  const distDir = process.env.FLEETMAP_SOAK_DIST || '.next-soak';
  buildIfStale({ distDir, env: { PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner' } });
  // stack.ts is CommonJS TypeScript that locates the repo by its own __dirname: load it as such.
  const { startStack } = tsxRequire('../../e2e/support/stack.ts', import.meta.url);
  // The stack's servers stop by themselves after FLEETMAP_MAX_LIFETIME_S (30 min by default, for tests): a soak
  // outlives that, and a wall whose app stopped would measure a frozen page.
  process.env.FLEETMAP_MAX_LIFETIME_S = String(Math.ceil(opts.minutes * 60 + 1800));
  // Its own store, so a soak runs beside a server that holds the default data directory.
  process.env.FLEETMAP_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'fleetmap-soak-'));

  console.log(`wall soak: ${opts.minutes} min real at SIM_SPEED ${opts.speed} (≈ ${((opts.minutes * opts.speed) / 60).toFixed(1)} simulated hours), warm-up ${opts.warmup} s, ${opts.path}`);
  const stack = await startStack({ simSpeed: opts.speed, buses: opts.buses, distDir });
  let browser;
  // Ctrl-C (or a kill) mid-run still stops the app, the simulator and the browser.
  const stopOnSignal = (signal) => {
    console.error(`\n${signal}: stopping`);
    void Promise.allSettled([browser?.close(), stack.stop()]).then(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'] });
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const consoleErrors = [];
    let loads = 0;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
    page.on('load', () => loads++);
    await page.goto(`${stack.appUrl}${opts.path}`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    const workers = await pageWorkers(cdp);

    const started = Date.now();
    const simStart = await simClock(stack);
    await sleep(opts.warmup * 1000);
    // The baseline must hold the whole fleet: the app locates parked buses at its real-time pace (855 buses at
    // 4 locations a second, minutes), however fast the simulated clock runs, and a baseline taken while the wall
    // still drew 547 of them counted the rest as growth. Wait until it draws nearly every bus of the snapshot.
    for (const until = Date.now() + 15 * 60_000; Date.now() < until; ) {
      const s = await measure(cdp, page, workers, stack.appUrl);
      if (s.buses !== null && s.vehicles && s.buses >= FLEET_DRAWN_SHARE * s.vehicles) break;
      console.log(`  waiting for the whole fleet before the baseline: ${s.buses ?? '-'} of ${s.vehicles ?? '-'} buses drawn`);
      await sleep(15_000);
    }
    const snapshotDir = opts['save-snapshots'];
    if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
    const snapshot = async (session, label) => {
      if (!session) return null;
      const text = await takeHeapSnapshot(session);
      if (snapshotDir) writeFileSync(join(snapshotDir, `wall-${label}.heapsnapshot`), text);
      return parseSnapshot(text);
    };
    // A heap snapshot leaves the heap larger (V8 materialises source positions and the like for it), so the
    // baseline is taken after the first one: otherwise its cost would be counted as growth.
    const beforeSnapshot = opts['heap-diff'] ? await measure(cdp, page, workers, stack.appUrl) : null;
    const firstSnapshot = opts['heap-diff'] ? await snapshot(cdp, 'warmup') : null;
    const firstWorkerSnapshot = opts['heap-diff'] ? await snapshot(workers.first(), 'worker-warmup') : null;
    const baseline = await measure(cdp, page, workers, stack.appUrl);
    // A wall that draws nothing measures nothing: say so rather than print a reassuring flat line.
    if (!baseline.buses) throw new Error(`The wall draws no buses after the warm-up (snapshot: ${baseline.vehicles ?? 'unreadable'}); not a run worth measuring.`);
    const samples = [baseline];
    const line = (s) =>
      `  t=${((s.at - started) / 60_000).toFixed(1).padStart(5)} min  heap ${mb(s.usedHeap).padStart(7)} MB  worker ${mb(s.workerHeap).padStart(6)} MB  nodes ${String(s.nodes).padStart(5)}  listeners ${String(s.listeners).padStart(4)}  buses ${String(s.buses ?? '-').padStart(4)} (snapshot ${s.vehicles ?? '-'}, on trips ${s.trips ?? '-'}, network features ${s.features ?? '-'})${s.placeholders ? `  placeholders ${s.placeholders}` : ''}`;
    if (beforeSnapshot) console.log(`before the first heap snapshot:\n${line(beforeSnapshot)}`);
    console.log(`after warm-up${firstSnapshot ? ' (the baseline)' : ''}:\n${line(baseline)}`);
    const end = started + opts.minutes * 60_000;
    while (Date.now() < end) {
      await sleep(Math.min(opts.sample * 1000, end - Date.now()));
      const s = await measure(cdp, page, workers, stack.appUrl);
      samples.push(s);
      console.log(line(s));
      // A wall whose app stopped answering shows a frozen page: its heap says nothing about the app any more.
      if (samples.slice(-3).length === 3 && samples.slice(-3).every((x) => x.vehicles === null)) {
        throw new Error('The app stopped answering /api/live for three samples in a row; the run is void.');
      }
    }
    const last = samples[samples.length - 1];
    const simEnd = await simClock(stack);
    const slope = slopeMbPerHour(samples);
    const simH = simStart !== null && simEnd !== null ? (simEnd - simStart) / 3_600_000 : null;
    // Real hours one simulated day takes, from the simulator's own clock where it answered (it runs from the
    // start, warm-up included); the trend projected over that span is the figure to judge.
    const runRealH = (Date.now() - started) / 3_600_000;
    const dayRealH = simH ? (SIM_DAY_H * runRealH) / simH : SIM_DAY_H / opts.speed;
    const measuredSimH = simH ? (simH * (last.at - baseline.at)) / 3_600_000 / runRealH : null;
    const growth = (last.usedHeap - baseline.usedHeap) / baseline.usedHeap;
    // The heap follows the trips on the road, so the fair comparison is with the same simulated time of day:
    // the sample nearest one simulated day after the baseline (when the measurement spans one).
    const dayLater = samples.length > 1 && last.at - baseline.at >= dayRealH * 3_600_000 * 0.95
      ? samples.slice(1).reduce((best, x) => (Math.abs(x.at - baseline.at - dayRealH * 3_600_000) < Math.abs(best.at - baseline.at - dayRealH * 3_600_000) ? x : best))
      : null;
    const dayGrowth = dayLater ? (dayLater.usedHeap - baseline.usedHeap) / baseline.usedHeap : null;
    const projected = slope === null ? null : (slope * dayRealH) / (baseline.usedHeap / 1024 / 1024);
    console.log('\nresult');
    console.log(`  real time        ${((last.at - started) / 60_000).toFixed(1)} min${simStart !== null && simEnd !== null ? `, simulated ${((simEnd - simStart) / 3_600_000).toFixed(1)} h` : ''}`);
    console.log(`  JS heap (GC'd)   ${mb(baseline.usedHeap)} MB -> ${mb(last.usedHeap)} MB  (${pct(baseline.usedHeap, last.usedHeap)})`);
    if (dayLater) console.log(`  one day later    ${mb(baseline.usedHeap)} MB -> ${mb(dayLater.usedHeap)} MB  (${pct(baseline.usedHeap, dayLater.usedHeap)}) at t=${((dayLater.at - started) / 60_000).toFixed(1)} min, the baseline's simulated time of day`);
    console.log(`  heap trend       ${slope === null ? 'n/a' : `${slope.toFixed(2)} MB/h`} (least squares over ${samples.length} samples)${projected === null ? '' : `, ${(projected * 100).toFixed(1)}% over one simulated day (${(dayRealH * 60).toFixed(0)} real min)`}`);
    const workerSlope = slopeMbPerHour(samples, 'workerHeap');
    console.log(`  worker heap      ${mb(baseline.workerHeap)} MB -> ${mb(last.workerHeap)} MB  (${pct(baseline.workerHeap, last.workerHeap)}), trend ${workerSlope === null ? 'n/a' : `${workerSlope.toFixed(2)} MB/h`}, ${last.workers} worker(s)`);
    console.log(`  DOM nodes        ${baseline.nodes} -> ${last.nodes}  (${pct(baseline.nodes, last.nodes)})`);
    console.log(`  JS listeners     ${baseline.listeners} -> ${last.listeners}  (${pct(baseline.listeners, last.listeners)})`);
    console.log(`  documents        ${baseline.documents} -> ${last.documents}`);
    console.log(`  buses drawn      ${baseline.buses} -> ${last.buses}`);
    console.log(`  page loads       ${loads}   console errors ${consoleErrors.length}${consoleErrors.length ? `: ${consoleErrors.slice(0, 3).join(' | ')}` : ''}`);
    const judged = dayGrowth ?? growth;
    const within = judged <= GROWTH_LIMIT && projected !== null && projected <= GROWTH_LIMIT;
    const covered = measuredSimH !== null && measuredSimH >= SIM_DAY_H;
    console.log(
      `  verdict          ${within ? 'WITHIN' : 'NOT within'} ${GROWTH_LIMIT * 100}%: ${dayGrowth !== null ? `one simulated day ${(dayGrowth * 100).toFixed(1)}%` : `measured ${(growth * 100).toFixed(1)}%`}, trend ${projected === null ? 'n/a' : `${(projected * 100).toFixed(1)}%`} per simulated day` +
        (covered ? '' : ` (measurement covered ${measuredSimH === null ? 'an unknown span of' : `${measuredSimH.toFixed(1)} h of`} simulated time, less than a day: the trend is extrapolated)`),
    );
    // The heap at the baseline's simulated time of day on each later day: like compared with like.
    const daily = [];
    for (let day = 1; baseline.at + day * dayRealH * 3_600_000 * 0.95 <= last.at; day++) {
      const target = baseline.at + day * dayRealH * 3_600_000;
      const nearest = samples.slice(1).reduce((best, x) => (Math.abs(x.at - target) < Math.abs(best.at - target) ? x : best));
      daily.push({ day, usedHeap: nearest.usedHeap, workerHeap: nearest.workerHeap, nodes: nearest.nodes, listeners: nearest.listeners, growth: (nearest.usedHeap - baseline.usedHeap) / baseline.usedHeap });
      console.log(`  day ${day}            ${mb(baseline.usedHeap)} MB -> ${mb(nearest.usedHeap)} MB  (${pct(baseline.usedHeap, nearest.usedHeap)}), worker ${mb(nearest.workerHeap)} MB`);
    }
    if (opts.out) {
      mkdirSync(dirname(opts.out), { recursive: true });
      const result = {
        date: new Date(started).toISOString(),
        command: `node scripts/test/wall-soak.mjs ${process.argv.slice(2).join(' ')}`,
        machine: { cores: cpus().length, memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10, node: process.version, loadAverageAtStart: loadAverageAtStart },
        options: { minutes: opts.minutes, speed: opts.speed, warmupS: opts.warmup, path: opts.path },
        simulatedHours: simH,
        measuredSimulatedHours: measuredSimH,
        baseline: { usedHeap: baseline.usedHeap, workerHeap: baseline.workerHeap, nodes: baseline.nodes, listeners: baseline.listeners },
        end: { usedHeap: last.usedHeap, workerHeap: last.workerHeap, nodes: last.nodes, listeners: last.listeners },
        trendPerSimulatedDay: projected,
        workerTrendMbPerHour: workerSlope,
        daily,
        pageLoads: loads,
        consoleErrors: consoleErrors.length,
        within,
        samples: samples.map((x) => ({ at: x.at, usedHeap: x.usedHeap, workerHeap: x.workerHeap, nodes: x.nodes, listeners: x.listeners, vehicles: x.vehicles, trips: x.trips })),
      };
      writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`  written to ${opts.out}`);
    }
    if (firstSnapshot) console.log(`\npage ${heapDiffReport(firstSnapshot, await snapshot(cdp, 'end'))}`);
    const lastWorkerSnapshot = firstWorkerSnapshot ? await snapshot(workers.first(), 'worker-end') : null;
    if (firstWorkerSnapshot && lastWorkerSnapshot) console.log(`\nworker ${heapDiffReport(firstWorkerSnapshot, lastWorkerSnapshot)}`);
  } finally {
    await browser?.close();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof UsageError ? err.message : (err?.stack ?? err));
  process.exit(1);
});
