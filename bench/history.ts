// Benchmark 9: the history store, on PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on
// PostgreSQL:
//   - storage per simulated day at the default 855 buses and reads on a store holding 14 simulated days (--days N):
//     the 30-day per-route table, the fleet at a moment, one bus's day. The days are made by the simulator's
//     clock and written through the recorder (scripts/data/history-fill.ts → lib/sim/fill.ts: the simulator's
//     world stepped minute by minute at the budget's pace, its walks of /trips/active, location answers and final
//     lookups emitted as the feed's events to the real Recorder), one process per store, side by side;
//   - the recorder's lag at 10,000 buses on a 1,200/min key: a minute of the feed's events at their real pace
//     (16 location answers a second, a walk of /trips/active every 15 s with every trip the simulator has on the
//     road), from an event's arrival to the end of the write that stored it, on a store of its own.
// A complete fill is kept (bench/.history-cache/<days>d and the PostgreSQL database fleetmap_bench_history_<days>d,
// with what the fill cost and the machine's load then) and reused by the next run: filling 14 days takes about an
// hour on a busy 2-core machine. --refill fills again. --quick fills 2 simulated hours in this process instead.
// BENCH_HISTORY_TARGETS=pglite or =postgres measures one store only.
import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowServerModules } from './scheduler-replay';
import type { Benchmark, BenchContext, Figure } from './support/report';
import { median } from './support/stats';

const ROOT = join(__dirname, '..');
const CACHE_DIR = join(ROOT, 'bench', '.history-cache');
const DAY_MS = 86_400_000;
/** Wednesday 4 March 2026, local midnight in New York (UTC−5): the last simulated day. */
const LAST_DAY = Date.parse('2026-03-04T05:00:00Z');
const ZONE = 'America/New_York';
const THRESHOLDS = { lateMin: 5, earlyMin: 1 };

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    store: require('../lib/history/store') as typeof import('../lib/history/store'),
    fill: require('../lib/sim/fill') as typeof import('../lib/sim/fill'),
    queries: require('../lib/history/queries') as typeof import('../lib/history/queries'),
    recorder: require('../lib/history/recorder') as typeof import('../lib/history/recorder'),
    rollups: require('../lib/history/rollups') as typeof import('../lib/history/rollups'),
    testDb: require('../lib/testing/database') as typeof import('../lib/testing/database'),
    fleet: require('../lib/fleet') as typeof import('../lib/fleet'),
    map: require('../lib/partner/map') as typeof import('../lib/partner/map'),
    schemas: require('../lib/partner/schemas') as typeof import('../lib/partner/schemas'),
    sim: require('../lib/sim') as typeof import('../lib/sim'),
    wire: require('../lib/sim/wire') as typeof import('../lib/sim/wire'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}
type Modules = ReturnType<typeof load>;
type Store = import('../lib/history/store').Store;
type Target = 'pglite' | 'postgres';

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}

async function timed(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms)!;
}

const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

/** The server behind BENCH_DATABASE_URL / TEST_DATABASE_URL, or null. */
const postgresBase = () => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || null;

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(base: string, text: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- pg is loaded with the store's modules
  const { Client } = require('pg') as typeof import('pg');
  const c = new Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

// --- The fill ------------------------------------------------------------------------------------------------

interface FillStats {
  writtenRows: number;
  fixes: number;
  walks: number;
  finals: number;
  fillSeconds: number;
  loadAtStart: number;
  loadAtEnd: number;
  madeAt: string;
}

interface Fill {
  days: number;
  open: Record<Target, () => Promise<Store>>;
  stats: Partial<Record<Target, FillStats>>;
  reused: boolean;
  /** PGlite's directory, measured whole too (its write-ahead log included). */
  pgliteDir: string;
  dispose: () => Promise<void>;
}

function runFillScript(target: Target, args: string[], env: Record<string, string>, ctx: BenchContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/data/history-fill.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4_000);
      for (const line of chunk.split('\n')) if (line.trim()) ctx.log(`  ${line.trim()}`);
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${target} fill exited with ${code}: ${tail.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}

/** The stores holding `days` simulated days ending 4 March: the kept fill, or a new one. */
async function filledStores(m: Modules, targets: Target[], days: number, ctx: BenchContext): Promise<Fill> {
  const dir = join(CACHE_DIR, `${days}d`);
  const pgliteDir = join(dir, 'pglite-store');
  const dbName = `fleetmap_bench_history_${days}d`;
  const base = postgresBase();
  const statsFile = (t: Target) => join(dir, `${t}.json`);
  const complete = (t: Target) => existsSync(statsFile(t));
  const from = LAST_DAY + DAY_MS - days * DAY_MS;
  const to = LAST_DAY + DAY_MS - 60_000;
  const missing = targets.filter((t) => ctx.refill || !complete(t));
  mkdirSync(dir, { recursive: true });
  const fills: Promise<void>[] = [];
  for (const t of missing) {
    rmSync(statsFile(t), { force: true });
    const args = ['--from', new Date(from).toISOString(), '--to', new Date(to).toISOString(), '--timezone', ZONE, '--stats', statsFile(t)];
    if (t === 'pglite') {
      rmSync(pgliteDir, { recursive: true, force: true });
      mkdirSync(pgliteDir, { recursive: true });
      fills.push(runFillScript(t, [...args, '--dir', pgliteDir], {}, ctx));
    } else {
      await adminQuery(base!, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await adminQuery(base!, `CREATE DATABASE ${dbName}`);
      fills.push(runFillScript(t, args, { DATABASE_URL: databaseUrl(base!, dbName) }, ctx));
    }
  }
  if (missing.length) ctx.log(`  filling ${days} simulated days on ${missing.join(' and ')} (one process each; load ${load1()})`);
  await Promise.all(fills);
  const stats: Fill['stats'] = {};
  for (const t of targets) stats[t] = JSON.parse(readFileSync(statsFile(t), 'utf8')) as FillStats;
  const reused = targets.filter((t) => !missing.includes(t));
  for (const t of reused) ctx.log(`  ${t}: reusing the ${days}-day fill made ${stats[t]!.madeAt} in ${Math.round(stats[t]!.fillSeconds)} s (--refill to fill again)`);
  return {
    days,
    reused: reused.length > 0,
    pgliteDir,
    stats,
    open: {
      pglite: () => m.store.openStore({ databaseUrl: null, dataDir: pgliteDir }),
      postgres: () => m.store.openStore({ databaseUrl: databaseUrl(base!, dbName), dataDir: null }),
    },
    dispose: async () => {},
  };
}

/** --quick: two simulated hours of a morning, filled here into throwaway stores. */
async function quickStores(m: Modules, targets: Target[], ctx: BenchContext): Promise<Fill> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetmap-bench-history-'));
  const db = targets.includes('postgres') ? await m.testDb.createTestDatabase(postgresBase()!) : null;
  const stores: Partial<Record<Target, Store>> = {};
  if (targets.includes('pglite')) stores.pglite = await m.store.openStore({ databaseUrl: null, dataDir: dir });
  if (db) stores.postgres = await m.store.openStore({ databaseUrl: db.url, dataDir: null });
  const from = LAST_DAY + 6 * 3_600_000;
  const t0 = Date.now();
  const loadAtStart = load1();
  const r = await m.fill.fillFromSimulator(Object.values(stores), { from, to: from + 2 * 3_600_000 - 60_000, timezone: ZONE });
  const s: FillStats = { ...r, fillSeconds: (Date.now() - t0) / 1000, loadAtStart, loadAtEnd: load1(), madeAt: new Date().toISOString() };
  ctx.log(`  quick: 2 simulated hours filled in ${s.fillSeconds} s`);
  return {
    days: 2 / 24,
    reused: false,
    pgliteDir: dir,
    stats: { pglite: s, postgres: s },
    open: { pglite: async () => stores.pglite!, postgres: async () => stores.postgres! },
    dispose: async () => {
      for (const st of Object.values(stores)) await st.close();
      rmSync(dir, { recursive: true, force: true });
      await db?.drop();
    },
  };
}

// --- The measures --------------------------------------------------------------------------------------------

const sizeOf = async (m: Modules, store: Store) => Number((await m.store.rows<{ n: string }>(store.db, m.store.sqlDatabaseSize()))[0]!.n);

async function relationSizes(m: Modules, store: Store): Promise<Record<string, number>> {
  const got = await m.store.rows<{ relname: string; bytes: string }>(
    store.db,
    sql`SELECT c.relname, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE 'history_%' ORDER BY c.relname`,
  );
  return Object.fromEntries(got.map((r) => [r.relname, Math.round((Number(r.bytes) / 1_048_576) * 10) / 10]));
}

/** Storage and reads on a filled store. */
async function onFilled(m: Modules, target: Target, fill: Fill, emptyBytes: number, ctx: BenchContext) {
  const store = await fill.open[target]();
  try {
    const rule = { kind: 'zone', zone: ZONE } as const;
    // Read as of 6 March, 06:00: every day of the period is closed (the fill stops at midnight, when trips of the
    // last day still run; the day before yesterday is closed whatever its trips). As the app's maintenance does:
    // the service days over are closed and statistics are fresh (PGlite: the maintenance's ANALYZE; PostgreSQL:
    // autovacuum).
    const now = LAST_DAY + 2 * DAY_MS + 6 * 3_600_000;
    await m.rollups.closeServiceDays(store.db, { now, rule, thresholds: THRESHOLDS, backfill: true });
    await m.store.analyzeStore(store.db);
    if (target === 'pglite') await store.db.execute(m.store.sqlCheckpoint());
    const bytes = (await sizeOf(m, store)) - emptyBytes;
    const relations = await relationSizes(m, store);
    const directoryMb = target === 'pglite' ? Math.round(dirBytes(join(fill.pgliteDir, 'pglite')) / 104_857.6) / 10 : null;
    const fixes = Number((await m.store.rows<{ n: string }>(store.db, sql`SELECT count(*)::text AS n FROM history_bus_fixes`))[0]!.n);
    const tripsStored = Number((await m.store.rows<{ n: string }>(store.db, sql`SELECT count(*)::text AS n FROM history_trips`))[0]!.n);
    const tableQuery = { from: '2026-02-03', to: '2026-03-04', routeIds: null, thresholds: THRESHOLDS, now, rule };
    const tableMs = await timed(() => m.queries.routesOverPeriod(store.db, tableQuery));
    const table = await m.queries.routesOverPeriod(store.db, tableQuery);
    const moment = LAST_DAY + 8.5 * 3_600_000;
    const fleetMs = await timed(() => m.queries.fleetAt(store.db, moment));
    const fleetSize = (await m.queries.fleetAt(store.db, moment)).vehicles.length;
    const busMs = await timed(() => m.queries.busTrack(store.db, 17, LAST_DAY, LAST_DAY + DAY_MS));
    const busFixes = (await m.queries.busTrack(store.db, 17, LAST_DAY, LAST_DAY + DAY_MS)).fixes.length;
    const r = {
      mbPerDay: bytes / 1_048_576 / fill.days,
      databaseMb: Math.round(bytes / 104_857.6) / 10,
      relationsMb: relations,
      directoryMb,
      fixes,
      trips: tripsStored,
      tableMs,
      tableDays: table.days.length,
      tableTrips: table.routes.reduce((n, x) => n + x.activeTrips, 0),
      fleetMs,
      fleetSize,
      busMs,
      busFixes,
      loadAfterReads: load1(),
    };
    ctx.log(`  ${target}: ${r.databaseMb} MB for ${fill.days} day(s), table ${tableMs.toFixed(0)} ms (${r.tableDays} days, ${r.tableTrips} trips), fleet ${fleetMs.toFixed(0)} ms (${fleetSize} buses), bus day ${busMs.toFixed(1)} ms (${busFixes} fixes), load ${r.loadAfterReads}`);
    return r;
  } finally {
    await store.close();
  }
}

/** A minute of events at 10,000 buses and 1,200 requests a minute, paced in real time, on an empty store. */
async function recorderLag(m: Modules, store: Store, ctx: BenchContext) {
  const rule = { kind: 'zone', zone: ZONE } as const;
  const sim = m.sim.createSimulator({ seed: 42, buses: 10_000, timezone: ZONE, startAt: LAST_DAY + 8 * 3_600_000, speed: 0 });
  const world = sim.world;
  const events = new m.fleet.TypedEmitter<import('../lib/fleet').FeedEvents>();
  const recorder = new m.recorder.Recorder({ store: async () => store, log: () => {} });
  recorder.attach(events);
  const seconds = ctx.quick ? 20 : 60;
  const rule0 = sim.now();
  const walkAt = (simNow: number) => world.activeTrips(simNow).map((r) => m.map.tripFromWire(m.schemas.tripSchema.parse(m.wire.tripRecord(world, r, simNow, { drift: false })), rule));
  // The walks' lists are made before the clock runs: making 6,700 trip records takes the event loop for a
  // while, which the feed does not (it parses a page at a time as the pages arrive).
  const t0 = rule0 + 15_000;
  const walks = new Map<number, import('../lib/model').Trip[]>();
  for (let s = 0; s < seconds; s += 15) walks.set(s, walkAt(t0 + s * 1_000));
  // Warm-up: the recorder has been running, so the trips on the road are known and a walk writes only what
  // changed. The first walk's cost (every trip new) is reported apart.
  events.emit('trips', { fetchedAt: Date.now(), trips: walkAt(rule0) });
  await recorder.flush();
  const firstWalkLagMs = recorder.stats.lastLagMs;
  recorder.stats.maxLagMs = 0;
  const lags: number[] = [];
  const locationsPerSecond = (1_200 * 0.8) / 60;
  const buses = world.fleet.buses;
  const loadAtStart = load1();
  for (let s = 0; s < seconds; s++) {
    const second = performance.now();
    const simNow = t0 + s * 1_000;
    const trips = walks.get(s);
    if (trips) events.emit('trips', { fetchedAt: Date.now(), trips });
    for (let i = 0; i < locationsPerSecond; i++) {
      const bus = buses[(s * locationsPerSecond + i) % buses.length]!;
      const fix = world.fix(bus, simNow);
      events.emit('request', { at: Date.now(), kind: 'busLocation', lane: 'poll', status: 200, ok: true });
      if (fix) events.emit('fix', { busId: bus.id, gpsAt: fix.atMs, fetchedAt: Date.now(), lat: fix.lat, lon: fix.lon, heading: fix.heading % 360, speedKmh: fix.speedKmh, accuracy: fix.accuracyM, tripId: null });
    }
    if (recorder.stats.lastLagMs !== null) lags.push(recorder.stats.lastLagMs);
    await new Promise((r) => setTimeout(r, Math.max(0, 1_000 - (performance.now() - second))));
  }
  await recorder.close();
  await sim.close();
  const walkTrips = walks.get(0)!.length;
  const r = { maxLagMs: recorder.stats.maxLagMs, medianLagMs: median(lags), firstWalkLagMs, walkTrips, batches: recorder.stats.batches, dropped: recorder.stats.droppedRows, loadAtStart, loadAtEnd: load1() };
  ctx.log(`  recorder lag: ${seconds} s, ${walkTrips} trips per walk, max ${r.maxLagMs} ms, median ${r.medianLagMs} ms, first walk ${firstWalkLagMs} ms (load ${loadAtStart} → ${r.loadAtEnd})`);
  return r;
}

/** An empty migrated store of its own: the lag's, and the size an empty store has. */
async function emptyStore(m: Modules, target: Target): Promise<{ store: Store; dispose: () => Promise<void> }> {
  if (target === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'fleetmap-bench-history-'));
    const store = await m.store.openStore({ databaseUrl: null, dataDir: dir });
    return {
      store,
      dispose: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await m.testDb.createTestDatabase(postgresBase()!);
  const store = await m.store.openStore({ databaseUrl: db.url, dataDir: null });
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.drop();
    },
  };
}

export const history: Benchmark = {
  name: 'history',
  title: 'History store: recorder lag, storage per day, reads (PGlite and PostgreSQL)',
  needsApp: false,
  async run(ctx) {
    const m = load();
    const only = process.env.BENCH_HISTORY_TARGETS?.split(',').map((t) => t.trim());
    if (only?.some((t) => t !== 'pglite' && t !== 'postgres')) throw new Error('BENCH_HISTORY_TARGETS lists pglite and/or postgres');
    const targets: Target[] = [];
    if (!only || only.includes('pglite')) targets.push('pglite');
    if (only && !only.includes('postgres')) ctx.log('  postgres: not asked for (BENCH_HISTORY_TARGETS)');
    else if (postgresBase()) targets.push('postgres');
    else ctx.log('  postgres: skipped (BENCH_DATABASE_URL and TEST_DATABASE_URL unset)');
    if (targets.length === 0) throw new Error('no store to measure');
    const days = ctx.days ?? Number(process.env.BENCH_HISTORY_DAYS || 14);
    if (!Number.isInteger(days) || days < 1) throw new Error('BENCH_HISTORY_DAYS must be a whole number of days');
    const fill = ctx.quick ? await quickStores(m, targets, ctx) : await filledStores(m, targets, days, ctx);
    const figures: Figure[] = [];
    const details: Record<string, unknown> = {};
    try {
      for (const target of targets) {
        const empty = await emptyStore(m, target);
        try {
          const emptyBytes = await sizeOf(m, empty.store);
          const filled = await onFilled(m, target, fill, emptyBytes, ctx);
          const lag = await recorderLag(m, empty.store, ctx);
          details[target] = { fill: fill.stats[target], ...filled, lag };
          figures.push(
            { metric: `${target}: recorder lag at 10,000 buses, 1,200/min key (max)`, unit: 'ms', fleetmap: lag.maxLagMs, peer: null, better: 'lower' },
            { metric: `${target}: first walk of 10,000 buses' trips, all new (lag)`, unit: 'ms', fleetmap: lag.firstWalkLagMs, peer: null, better: 'lower' },
            { metric: `${target}: storage per simulated day, 855 buses`, unit: 'MB', fleetmap: filled.mbPerDay, peer: null, better: 'lower' },
            { metric: `${target}: 30-day per-route table (median of 5)`, unit: 'ms', fleetmap: filled.tableMs, peer: null, better: 'lower' },
            { metric: `${target}: fleet at a moment (median of 5)`, unit: 'ms', fleetmap: filled.fleetMs, peer: null, better: 'lower' },
            { metric: `${target}: one bus's day (median of 5)`, unit: 'ms', fleetmap: filled.busMs, peer: null, better: 'lower' },
          );
        } finally {
          await empty.dispose();
        }
      }
    } finally {
      await fill.dispose();
    }
    const first = targets[0]!;
    const lag = (details[first] as { lag: { walkTrips: number } }).lag;
    const fillText = targets.map((t) => `${t === 'pglite' ? 'PGlite' : 'PostgreSQL'} filled in ${Math.round(fill.stats[t]!.fillSeconds)} s at load ${fill.stats[t]!.loadAtStart.toFixed(1)}–${fill.stats[t]!.loadAtEnd.toFixed(1)}`).join(', ');
    return {
      peer: null,
      conditions:
        `${ctx.quick ? '2 simulated hours' : `${days} simulated days`} ending 2026-03-04 at 855 buses, made by the simulator's clock and written through the recorder ` +
        `(225 location answers and one walk of /trips/active per simulated minute; ${fillText}${fill.reused ? ', a kept fill' : ''}); storage is the database's size less an empty one's; ` +
        `reads as of 6 March with every day closed; recorder lag over ${ctx.quick ? 20 : 60} s of real-time events with ${lag.walkTrips} trips per walk, on an empty store (machine load in details)`,
      figures,
      details,
    };
  },
};
