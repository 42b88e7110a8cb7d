// Benchmark "scale" (issue 34): the whole app on the simulator at 855 and at 10,000 buses on a 1,200/min key, one
// stack per fleet, each part measured on it in turn once its snapshot has filled:
// - sizes (here): /api/live's full answer and a 5 s delta in the JSON form (the peer column) and in the compact form
//   the browser reads (?shape=compact, lib/model/live-compact.ts), each as sent (identity, and gzip at the server's
//   own level 6), the roster the compact full answer names (?shape=roster: the buses' plates and names, which a
//   first-time viewer downloads beside it, then once per roster version), and the time Node takes to turn each full
//   answer into the LiveSnapshot the components read (the compact one with its roster, as a first-time viewer does);
// - the budget split and the age of delay_minutes (bench/scale-budget.ts), the default fleet as the peer;
// - the pages in Chromium: long tasks, script time per second, first bus against a bare MapLibre page
//   (bench/scale-pages.ts);
// - at 10,000 buses only: 1,000 delta viewers held against one (bench/scale-viewers.ts holdViewers), then 100
//   viewers while the app server's CPU and RSS are sampled (serverSoak).
// One file a little past 400 lines: it holds the run's order, its knobs and the conditions text that names every
// one of them; the parts themselves live in bench/scale-*.ts.
// BENCH_SCALE_PARTS (sizes,budget,pages,viewers,soak; all by default) picks parts; BENCH_SCALE_HOLD_S,
// BENCH_SCALE_ONE_VIEWER_S, BENCH_SCALE_SOAK_S and BENCH_SCALE_BUDGET_S set their windows; BENCH_LOCAL_HOUR the
// simulator's hour (bench/support/app-stack.ts); BENCH_PAGES_PROFILE=<dir> adds a profiled visit of each page.
// BENCH_SCALE_STORE picks the app's history store: "embedded" (PGlite in the app's process, the default, as `npm start`
// runs) or "postgresql" (DATABASE_URL on a database of its own, made on TEST_DATABASE_URL's server and dropped after,
// as production runs). The embedded store's PostgreSQL lives in the app's process and its memory counts in the app's
// RSS; the server's own is outside it. Each part records the store it ran on. On PostgreSQL the soak's store is
// first filled with the service day so far (bench/scale-prefill.ts; BENCH_SCALE_PREFILL=0 starts it empty).
import { performance } from 'node:perf_hooks';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { applyCompactDelta, applyLiveDelta, decodeCompactFull, decodeRoster, type CompactAnswer, type CompactRoster, type LiveAnswer, type LiveSnapshot } from '../lib/model';
import { budgetFigures, describeBudget, measureBudget, type BudgetFigures } from './scale-budget';
import { measurePages, pagesFigures, type PagesFigures } from './scale-pages';
import { holdFigures, holdViewers, serverSoak, soakFigures, SOAK_GOALS, VIEWER_GOALS, type HoldResult, type SoakResult } from './scale-viewers';
import { BENCH_LOCAL_HOUR, readLive, startBenchStack, waitForLive, type BenchStack } from './support/app-stack';
import type { Benchmark, Distribution, Figure } from './support/report';
import { sleep } from './support/stats';
import { LATEST_RESULTS, readResults } from './support/results';
import { carryParts, describeCarried, SCALE_PARTS, type ScalePart } from './scale-carry';
import { createTestDatabase } from '../lib/testing/database';
import { zoneAtLocalHour } from '../lib/sim/clock';
import { prefillRunningDay } from './scale-prefill';

const DEFAULT_FLEET = 855;
/** The big fleet: BENCH_SCALE_BUSES, 10,000 by default. */
const BIG_FLEET = Number(process.env.BENCH_SCALE_BUSES ?? 10_000);
const FLEETS = [DEFAULT_FLEET, BIG_FLEET];
const RATE_LIMIT = 1_200;
/** The browsers' poll interval (lib/client/queries.ts LIVE_POLL_MS). */
const POLL_MS = 5_000;
const DECODE_RUNS = 20;
/** The feed's location answers a minute on the 1,200/min key (its 70 % share), the pace the soak's store is filled at. */
const PREFILL_LOCATIONS_PER_MINUTE = 840;
const GOALS = { fullBytes: 1.5e6, fullGzipBytes: 150e3, deltaGzipBytes: 30e3, firstBusRatio: { default: 1.3, big: 1.5 }, longTaskMs: 100, locationsShare: 0.7 };
const PARTS = SCALE_PARTS;
type Part = ScalePart;
/** The parts measured on both fleets; the others (viewers, soak) only on the big one. */
const BOTH_FLEETS_PARTS: readonly Part[] = ['sizes', 'budget', 'pages'];

/** A whole number of seconds (or viewers) from the environment, else `fallback`. */
function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got ${raw}`);
  return n;
}

function partsOf(raw: string | undefined): Set<Part> {
  if (!raw) return new Set(PARTS);
  const asked = raw.split(',').map((x) => x.trim());
  const unknown = asked.filter((x) => !(PARTS as readonly string[]).includes(x));
  if (unknown.length > 0) throw new Error(`BENCH_SCALE_PARTS: unknown part ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
  return new Set(asked as Part[]);
}

export type ScaleStore = 'embedded' | 'postgresql';

/** BENCH_SCALE_STORE: where the app keeps its history during the run. */
function storeOf(raw: string | undefined): ScaleStore {
  if (raw === undefined || raw === '' || raw === 'embedded') return 'embedded';
  if (raw === 'postgresql') return 'postgresql';
  throw new Error(`BENCH_SCALE_STORE must be embedded or postgresql, got ${raw}`);
}

/** The server's gzip level (lib/http/live-answer.ts GZIP_LEVEL): what it sends a browser asking gzip. */
const GZIP_LEVEL = 6;

interface Got {
  etag: string;
  body: Buffer;
  /** The body as gzip at the server's level sends it. */
  gzipBytes: number;
}

function get(url: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'application/json', 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const etag = res.headers.etag;
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200 || typeof etag !== 'string') reject(new Error(`${url} answered ${res.statusCode}`));
        else resolve({ etag, body, gzipBytes: gzipSync(body, { level: GZIP_LEVEL }).length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `W/"<epoch>-<version>.c"` → `<epoch>-<version>`. */
const versionOf = (etag: string) => etag.replace(/^W\//, '').replace(/"/g, '').split('.')[0]!;

function distribution(xs: number[]): Distribution {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { n: s.length, min: s[0]!, median: s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2, p95: at(0.95), max: s[s.length - 1]! };
}

/** Milliseconds per run of `fn`, DECODE_RUNS times after two runs to warm up. */
function timed(fn: () => unknown): Distribution {
  fn();
  fn();
  const ms: number[] = [];
  for (let i = 0; i < DECODE_RUNS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return distribution(ms);
}

interface FleetFigures {
  buses: number;
  vehicles: number;
  json: { full: number; fullGzip: number; deltaGzip: number[]; deltaVehicles: number[] };
  compact: { full: number; fullGzip: number; deltaGzip: number[]; deltaMoved: number[]; deltaWhole: number[] };
  /** The roster the compact full answer names, as sent and gzipped. */
  roster: { full: number; fullGzip: number };
  decodeMs: { json: Distribution; compact: Distribution };
  applyDeltaMs: { json: Distribution; compact: Distribution };
  fillSeconds: number;
  /** The share of listed buses with a position when measured. */
  placedShare: number;
}

/** The same answer in both forms (`since`: a delta): asked together until both name one version (a version lasts at least a second). */
async function bothForms(appUrl: string, since: string | null): Promise<{ json: Got; compact: Got }> {
  const q = since === null ? '' : `since=${since}`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const [json, compact] = await Promise.all([get(`${appUrl}/api/live${q ? `?${q}` : ''}`), get(`${appUrl}/api/live?shape=compact${q ? `&${q}` : ''}`)]);
    if (versionOf(json.etag) === versionOf(compact.etag)) return { json, compact };
  }
  throw new Error('/api/live never gave one version in both forms');
}

/** Waits until nearly every bus is listed and, up to fillCapS, placed; returns the share placed and the seconds waited. */
async function fill(bench: BenchStack, buses: number, fillCapS: number, log: (line: string) => void): Promise<{ placedShare: number; fillSeconds: number }> {
  const t0 = Date.now();
  // Filled: nearly every bus listed, then nearly every listed bus placed. One location per request: at 10,000 buses
  // and about 600 location requests a minute that takes a quarter of an hour, so the wait is capped and the share
  // placed is reported with the figures.
  await waitForLive(bench.appUrl, `${buses} buses listed`, (l) => l.vehicles.length >= buses * 0.95, 600_000);
  let placedShare = 0;
  for (let waited = 0; ; waited += 10) {
    const l = await readLive(bench.appUrl);
    placedShare = l.vehicles.filter((v) => v.lat !== null).length / Math.max(1, l.vehicles.length);
    if (placedShare >= 0.95 || waited >= fillCapS) break;
    if (waited % 60 === 0) log(`  ${buses} buses: ${(100 * placedShare).toFixed(0)} % placed after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await sleep(10_000);
  }
  const fillSeconds = (Date.now() - t0) / 1000;
  log(`  ${buses} buses: filled after ${fillSeconds.toFixed(0)} s, ${(100 * placedShare).toFixed(1)} % placed`);
  return { placedShare, fillSeconds };
}

/** The sizes part on a filled stack. */
async function measureSizes(bench: BenchStack, buses: number, deltas: number, filled: { placedShare: number; fillSeconds: number }): Promise<FleetFigures> {
  const { placedShare, fillSeconds } = filled;
  const full = await bothForms(bench.appUrl, null);
  const jsonText = full.json.body.toString('utf8');
  const compactText = full.compact.body.toString('utf8');
  const named = (JSON.parse(compactText) as CompactAnswer & { kind: 'full' }).roster;
  const roster = await get(`${bench.appUrl}/api/live?shape=roster&roster=${encodeURIComponent(named)}`);
  const rosterText = roster.body.toString('utf8');
  if ((JSON.parse(rosterText) as CompactRoster).version !== named) throw new Error(`the roster ${named} the full answer named was no longer kept`);
  const decodeCompact = () => decodeCompactFull(JSON.parse(compactText) as CompactAnswer & { kind: 'full' }, decodeRoster(JSON.parse(rosterText) as CompactRoster));
  const decodeMs = {
    json: timed(() => {
      const { kind: _kind, ...s } = JSON.parse(jsonText) as LiveAnswer & { kind: 'full' };
      return s;
    }),
    // With the roster's own parse and decode: a first-time viewer's cost (one holding that roster version skips it).
    compact: timed(decodeCompact),
  };
  const { kind: _kind, ...jsonHeld } = JSON.parse(jsonText) as LiveAnswer & { kind: 'full' };
  const compactHeld = decodeCompact();

  const out: FleetFigures = {
    buses,
    vehicles: jsonHeld.vehicles.length,
    json: { full: full.json.body.length, fullGzip: full.json.gzipBytes, deltaGzip: [], deltaVehicles: [] },
    compact: { full: full.compact.body.length, fullGzip: full.compact.gzipBytes, deltaGzip: [], deltaMoved: [], deltaWhole: [] },
    roster: { full: roster.body.length, fullGzip: roster.gzipBytes },
    decodeMs,
    applyDeltaMs: { json: distribution([0]), compact: distribution([0]) },
    fillSeconds,
    placedShare,
  };
  // 5 s deltas from one version in both forms, as a browser polling every 5 s asks them.
  let since = versionOf(full.json.etag);
  let last: { json: string; compact: string; jsonBase: LiveSnapshot; compactBase: LiveSnapshot } | null = null;
  let jsonBase: LiveSnapshot = jsonHeld;
  let compactBase: LiveSnapshot = compactHeld;
  for (let i = 0; i < deltas; i++) {
    await sleep(POLL_MS);
    const { json: j, compact: c } = await bothForms(bench.appUrl, since);
    const jText = j.body.toString('utf8');
    const cText = c.body.toString('utf8');
    const jd = JSON.parse(jText) as LiveAnswer;
    const cd = JSON.parse(cText) as CompactAnswer;
    if (jd.kind !== 'delta' || cd.kind !== 'delta') throw new Error(`a 5 s poll got a ${jd.kind}/${cd.kind} answer, not a delta`);
    out.json.deltaGzip.push(j.gzipBytes);
    out.json.deltaVehicles.push(jd.vehicles.length);
    out.compact.deltaGzip.push(c.gzipBytes);
    out.compact.deltaMoved.push(cd.m.id.length);
    out.compact.deltaWhole.push(cd.v.id.length);
    last = { json: jText, compact: cText, jsonBase, compactBase };
    const nextJson = applyLiveDelta(jsonBase, jd);
    const nextCompact = applyCompactDelta(compactBase, cd);
    if (!nextJson || !nextCompact) throw new Error('a delta did not apply to the snapshot it was asked from');
    jsonBase = nextJson;
    compactBase = nextCompact;
    if (nextCompact.vehicles.length !== nextJson.vehicles.length) throw new Error(`the compact chain holds ${nextCompact.vehicles.length} buses, the JSON one ${nextJson.vehicles.length}`);
    since = versionOf(j.etag);
  }
  if (last) {
    const l = last;
    out.applyDeltaMs = {
      json: timed(() => applyLiveDelta(l.jsonBase, JSON.parse(l.json) as LiveAnswer & { kind: 'delta' })),
      compact: timed(() => applyCompactDelta(l.compactBase, JSON.parse(l.compact) as CompactAnswer & { kind: 'delta' })),
    };
  }
  return out;
}

const kb = (bytes: number) => bytes / 1000;
const JSON_FORM = 'the JSON form';
const median = (xs: number[]) => distribution(xs).median;

function figuresOf(f: FleetFigures): Figure[] {
  const at = `${f.buses.toLocaleString('en-US')} buses`;
  const sized = (xs: number[]): Distribution => {
    const d = distribution(xs);
    return { n: d.n, min: kb(d.min), median: kb(d.median), p95: kb(d.p95), max: kb(d.max) };
  };
  return [
    { metric: `${at}: full answer`, unit: 'kB', fleetmap: kb(f.compact.full), peer: kb(f.json.full), better: 'lower', peerName: JSON_FORM },
    { metric: `${at}: full answer, gzip`, unit: 'kB', fleetmap: kb(f.compact.fullGzip), peer: kb(f.json.fullGzip), better: 'lower', peerName: JSON_FORM },
    // What a first-time viewer downloads beside the full answer (then again only when a plate or name changes, or a
    // bus comes or goes): no peer, the JSON form carries the names in its full answer.
    { metric: `${at}: roster (plates and names), gzip`, unit: 'kB', fleetmap: kb(f.roster.fullGzip), peer: null, better: 'lower' },
    { metric: `${at}: full answer and roster, gzip (a first-time viewer)`, unit: 'kB', fleetmap: kb(f.compact.fullGzip + f.roster.fullGzip), peer: kb(f.json.fullGzip), better: 'lower', peerName: JSON_FORM },
    { metric: `${at}: 5 s delta, gzip (median)`, unit: 'kB', fleetmap: kb(median(f.compact.deltaGzip)), peer: kb(median(f.json.deltaGzip)), better: 'lower', peerName: JSON_FORM, distribution: { fleetmap: sized(f.compact.deltaGzip), peer: sized(f.json.deltaGzip) } },
    { metric: `${at}: full answer to snapshot in Node (median of ${DECODE_RUNS})`, unit: 'ms', fleetmap: f.decodeMs.compact.median, peer: f.decodeMs.json.median, better: 'lower', peerName: JSON_FORM, distribution: { fleetmap: f.decodeMs.compact, peer: f.decodeMs.json } },
    { metric: `${at}: 5 s delta applied in Node (median of ${DECODE_RUNS})`, unit: 'ms', fleetmap: f.applyDeltaMs.compact.median, peer: f.applyDeltaMs.json.median, better: 'lower', peerName: JSON_FORM, distribution: { fleetmap: f.applyDeltaMs.compact, peer: f.applyDeltaMs.json } },
  ];
}

/** Everything measured on one fleet's stack. */
interface FleetRun {
  buses: number;
  placedShare: number;
  fillSeconds: number;
  sizes: FleetFigures | null;
  budget: BudgetFigures | null;
  pages: PagesFigures | null;
  hold: HoldResult | null;
  soak: SoakResult | null;
}

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;

/**
 * Whether a part measured by an earlier run still reads as this code reads it: its figures are made from it once
 * here (sizes gained the roster with compact-3, the viewers their load generator's event-loop delay). A part that
 * does not is measured again, never carried half-read.
 */
export function readableCarried(part: Part, data: unknown): boolean {
  try {
    if (part === 'sizes') return figuresOf(data as FleetFigures).every((f) => f.fleetmap === null || Number.isFinite(f.fleetmap));
    if (part === 'budget') return budgetFigures(data as BudgetFigures, data as BudgetFigures).length > 0;
    if (part === 'pages') return pagesFigures(data as PagesFigures, 'a fleet').length > 0;
    if (part === 'viewers') return holdFigures(data as HoldResult, 'a fleet').every((f) => f.fleetmap === null || Number.isFinite(f.fleetmap));
    return soakFigures(data as SoakResult, 'a fleet').length > 0;
  } catch {
    return false;
  }
}

export const scale: Benchmark = {
  name: 'scale',
  title: 'Scale: the whole app at 855 and 10,000 buses',
  needsApp: true,
  async run(ctx) {
    const parts = partsOf(process.env.BENCH_SCALE_PARTS);
    const store = storeOf(process.env.BENCH_SCALE_STORE);
    const deltas = ctx.quick ? 2 : 5;
    const fillCapS = knob('BENCH_SCALE_FILL_S', ctx.quick ? 120 : 1_200);
    const budgetS = knob('BENCH_SCALE_BUDGET_S', ctx.quick ? 30 : 180);
    const openS = ctx.quick ? 10 : 30;
    const holdS = knob('BENCH_SCALE_HOLD_S', ctx.quick ? 30 : 600);
    const oneViewerS = knob('BENCH_SCALE_ONE_VIEWER_S', ctx.quick ? 30 : 300);
    const soakS = knob('BENCH_SCALE_SOAK_S', ctx.quick ? 60 : 4_500);
    const viewers = knob('BENCH_SCALE_VIEWERS', 1_000);
    const soakViewers = 100;
    const prefill = process.env.BENCH_SCALE_PREFILL !== '0';
    const sampleS = 10;
    // The stack's servers stop by themselves after FLEETMAP_MAX_LIFETIME_S (30 min by default, for tests).
    const lifetimeS = 1_800 + fillCapS + 2 * budgetS + 600 + oneViewerS + holdS + soakS;
    if (Number(process.env.FLEETMAP_MAX_LIFETIME_S ?? 1_800) < lifetimeS) process.env.FLEETMAP_MAX_LIFETIME_S = String(lifetimeS);

    if (!Number.isInteger(BIG_FLEET) || BIG_FLEET <= DEFAULT_FLEET) throw new Error(`BENCH_SCALE_BUSES must be a whole number of buses over ${DEFAULT_FLEET}, got ${process.env.BENCH_SCALE_BUSES}`);
    const runs: FleetRun[] = [];
    for (const buses of FLEETS) {
      const big = buses === BIG_FLEET;
      if (!big && !BOTH_FLEETS_PARTS.some((p) => parts.has(p))) {
        // Nothing asked of this fleet: no stack; its parts come from the run before (carryParts).
        runs.push({ buses, placedShare: Number.NaN, fillSeconds: 0, sizes: null, budget: null, pages: null, hold: null, soak: null });
        continue;
      }
      const db = store === 'postgresql' ? await createTestDatabase() : null;
      const zone = zoneAtLocalHour(BENCH_LOCAL_HOUR);
      const dropOnError = async (e: unknown): Promise<never> => {
        await db?.drop();
        throw e;
      };
      // The soak's store holds the day so far, as a real afternoon's would (bench/scale-prefill.ts).
      const prefilled = db && big && parts.has('soak') && prefill ? await prefillRunningDay(db.url, { buses, zone, locationsPerMinute: PREFILL_LOCATIONS_PER_MINUTE, log: ctx.log }).catch(dropOnError) : null;
      const bench = await startBenchStack({ buses, rateLimit: RATE_LIMIT, zone, env: db ? { DATABASE_URL: db.url } : {} }).catch(dropOnError);
      try {
        const filled = await fill(bench, buses, fillCapS, ctx.log);
        const run: FleetRun = { buses, ...filled, sizes: null, budget: null, pages: null, hold: null, soak: null };
        if (parts.has('sizes')) {
          const f = await measureSizes(bench, buses, deltas, filled);
          ctx.log(
            `  sizes (${f.vehicles} listed, ${pct(f.placedShare)} placed): full ${kb(f.json.full).toFixed(0)} → ${kb(f.compact.full).toFixed(0)} kB, gzip ${kb(f.json.fullGzip).toFixed(1)} → ${kb(f.compact.fullGzip).toFixed(1)} kB, roster ${kb(f.roster.full).toFixed(0)} kB, gzip ${kb(f.roster.fullGzip).toFixed(1)} kB; ` +
              `5 s delta gzip ${kb(median(f.json.deltaGzip)).toFixed(1)} → ${kb(median(f.compact.deltaGzip)).toFixed(1)} kB (median of ${f.compact.deltaGzip.length}); decode ${f.decodeMs.json.median.toFixed(1)} → ${f.decodeMs.compact.median.toFixed(1)} ms`,
          );
          run.sizes = f;
        }
        if (parts.has('budget')) {
          run.budget = await measureBudget(bench, { durationS: budgetS, log: ctx.log });
          ctx.log(describeBudget(run.budget));
        }
        if (parts.has('pages')) run.pages = await measurePages(bench, { openS, log: ctx.log, firstBusVisits: ctx.quick ? 2 : 5, profileDir: process.env.BENCH_PAGES_PROFILE });
        if (big && parts.has('viewers')) run.hold = await holdViewers(bench, { viewers, durationS: holdS, oneViewerS, sampleS, log: ctx.log });
        if (big && parts.has('soak')) {
          const soak = await serverSoak(bench, { viewers: soakViewers, durationS: soakS, sampleS, store, log: ctx.log });
          run.soak = prefilled ? { ...soak, prefill: { hours: (prefilled.to - prefilled.from) / 3_600_000, fixes: prefilled.fixes, trips: prefilled.trips } } : soak;
        }
        runs.push(run);
      } finally {
        await bench.stop();
        await db?.drop();
      }
    }

    // A part whose data changed shape since (sizes gained the roster with compact-3) is measured again, never carried.
    const partsFrom = carryParts(runs, parts, readResults(LATEST_RESULTS).benchmarks.scale, readableCarried);
    const carried = describeCarried(partsFrom);
    if (carried) ctx.log(`  carried from earlier runs: ${carried}`);
    const small = runs.find((r) => r.buses === DEFAULT_FLEET)!;
    const big = runs.find((r) => r.buses === BIG_FLEET)!;
    const bigAt = `${BIG_FLEET.toLocaleString('en-US')} buses`;
    const figures: Figure[] = [];
    for (const r of runs) if (r.sizes) figures.push(...figuresOf(r.sizes));
    if (big.budget && small.budget) figures.push(...budgetFigures(big.budget, small.budget));
    for (const r of runs) if (r.pages) figures.push(...pagesFigures(r.pages, `${r.buses.toLocaleString('en-US')} buses`));
    if (big.hold) figures.push(...holdFigures(big.hold, bigAt));
    if (big.soak) figures.push(...soakFigures(big.soak, bigAt));

    const met = (measured: number | null, ok: (x: number) => boolean) => ({ measured, met: measured === null ? null : ok(measured) });
    const goals: Record<string, unknown> = {};
    if (big.sizes) {
      const d = big.sizes;
      goals.fullBytes = { goal: GOALS.fullBytes, ...met(d.compact.full, (x) => x <= GOALS.fullBytes) };
      goals.fullGzipBytes = { goal: GOALS.fullGzipBytes, ...met(d.compact.fullGzip, (x) => x <= GOALS.fullGzipBytes) };
      goals.deltaGzipBytes = { goal: GOALS.deltaGzipBytes, ...met(Math.max(...d.compact.deltaGzip), (x) => x <= GOALS.deltaGzipBytes) };
      goals.decodeFaster = met(d.decodeMs.compact.median / d.decodeMs.json.median, (x) => x < 1);
    }
    if (big.budget) goals.locationsShare = { goal: GOALS.locationsShare, ...met(big.budget.locationsShare, (x) => x >= GOALS.locationsShare) };
    for (const r of runs) {
      if (!r.pages) continue;
      const ratio = distribution(r.pages.firstBus.fleetmapMs).median / distribution(r.pages.firstBus.peerMs).median;
      const goal = r.buses === BIG_FLEET ? GOALS.firstBusRatio.big : GOALS.firstBusRatio.default;
      goals[`firstBusRatio${r.buses}`] = { goal, ...met(ratio, (x) => x <= goal) };
      for (const p of r.pages.pages) goals[`longTasksOver100ms${r.buses}${p.path.split('?')[0]}`] = { goal: 0, ...met(p.longTasks.overGoalAfterFirstPaint, (x) => x === 0) };
    }
    if (big.hold) Object.assign(goals, Object.fromEntries(Object.entries(big.hold.goals).map(([k, v]) => [`viewers.${k}`, v])));
    if (big.soak) Object.assign(goals, Object.fromEntries(Object.entries(big.soak.goals).map(([k, v]) => [`soak.${k}`, v])));

    return {
      peer: "the JSON form of /api/live for sizes; the default fleet for the budget; a bare MapLibre page for the first bus; one viewer for the upstream requests",
      conditions:
        `the app on the simulator at ${FLEETS.join(' and ')} buses (SIM_BUSES), a ${RATE_LIMIT}/min key, the simulator's local hour ${BENCH_LOCAL_HOUR}:00 at the start, one stack per fleet, each part measured in turn once the snapshot had filled (95 % of the buses listed, and 95 % of those placed or ${fillCapS / 60} min waited; placed: ${runs.map((r) => (Number.isNaN(r.placedShare) ? `${r.buses} buses not started (no part asked of them)` : `${r.buses} buses ${pct(r.placedShare)} after ${r.fillSeconds.toFixed(0)} s`)).join(', ')}); parts measured: ${[...parts].join(', ')}${carried ? `; carried from earlier runs of this benchmark: ${carried}` : ''}. ` +
        `Sizes: Fleetmap = ?shape=compact (what the browser reads), peer = the JSON form, as sent without compression and gzipped here at the server's level 6; ${deltas} deltas per fleet, each since the version of 5 s before; the roster the compact full answer names (?shape=roster, the buses' plates and names) is measured beside it, as a first-time viewer downloads both; decode = JSON.parse (and decodeCompactFull, with the roster's parse and decode) to the LiveSnapshot, in this Node process, median of ${DECODE_RUNS} after 2 warm-up runs. ` +
        `Budget: requests per minute by operation as the simulator counted them for the app's key over ${budgetS} s, and delay_minutes shown against the simulator's (bench/scale-budget.ts). ` +
        `Pages: Chromium headless with SwiftShader WebGL, each of /, /wall, /fleet and /ladder left open ${openS} s after ready; long tasks from a 'longtask' observer, script and task time per second from CDP; first bus on / against a bare MapLibre page drawing the same buses, visit for visit; that bare page also left open as the pages were, as drawn once and fed every 5 s (every bus moved a little, as a live map at its plainest), the peer of the live maps' long tasks (bench/scale-pages.ts). ` +
        `Viewers (${bigAt}): one delta viewer for ${oneViewerS} s, then ${viewers} for ${holdS} s, as the browser polls (compact, a full answer first, then since= every 5 s); then ${soakViewers} for ${soakS} s while the app server's CPU and RSS were sampled every ${sampleS} s (bench/scale-viewers.ts), the app's history in ${big.soak?.store === 'postgresql' ? 'PostgreSQL on this machine (DATABASE_URL; the database server\'s memory is outside the app\'s RSS)' : "the embedded store (PGlite, in the app's process and its RSS)"}${big.soak?.prefill ? `, filled before the app started with the service day so far (${big.soak.prefill.hours.toFixed(1)} h: ${big.soak.prefill.fixes} fixes, ${big.soak.prefill.trips} trips, through the recorder at ${PREFILL_LOCATIONS_PER_MINUTE} location answers a minute)` : big.soak ? ', empty when the app started' : ''}. ` +
        `Goals at ${bigAt}: full ≤ 1.5 MB, gzip ≤ 150 kB, 5 s delta gzip ≤ 30 kB, locations ≥ 70 % of the requests, no long task over ${GOALS.longTaskMs} ms after the first paint, first bus ≤ 1.3× the peer at 855 and ≤ 1.5× at 10,000, ` +
        `${VIEWER_GOALS.failedPolls} failed polls, p99 ≤ ${VIEWER_GOALS.p99Ms} ms, the poller ≥ ${VIEWER_GOALS.minShareRatio} of its share, upstream within ${VIEWER_GOALS.upstreamWithinPercent} % of one viewer's, app CPU ≤ ${SOAK_GOALS.cpuPercent} % of a core, RSS ≤ ${SOAK_GOALS.rssMBAfterHour} MB after an hour and no growth after it (kB = 1,000 bytes)`,
      figures,
      details: { runs, goals, partsFrom },
    };
  },
};
