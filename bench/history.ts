// Benchmark 9: the history store. On PGlite (a temporary directory) and, when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set, on PostgreSQL (a database of its own, dropped afterwards):
//   - the recorder's lag at 10,000 buses on a 1,200/min key: a minute of the feed's events at their real pace
//     (16 location answers a second, a walk of /trips/active every 15 s with all the simulator's trips on the
//     road), from an event's arrival to the end of the write that stored it;
//   - storage per simulated day at the default 855 buses: the store filled through the recorder with simulated
//     days (lib/history/fill.ts: the simulator's clock, the budget's pace), its size divided by the days;
//   - reads on that store: the 30-day per-route table, the fleet at a moment, one bus's day.
// BENCH_HISTORY_DAYS sets the days filled (default 14; --quick: 2 simulated hours).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowServerModules } from './scheduler-replay';
import type { Benchmark, BenchContext, Figure } from './support/report';
import { median } from './support/stats';

const DAY_MS = 86_400_000;
/** Wednesday 4 March 2026, local midnight in New York (UTC−5): the last simulated day. */
const LAST_DAY = Date.parse('2026-03-04T05:00:00Z');
const ZONE = 'America/New_York';

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    store: require('../lib/history/store') as typeof import('../lib/history/store'),
    fill: require('../lib/history/fill') as typeof import('../lib/history/fill'),
    queries: require('../lib/history/queries') as typeof import('../lib/history/queries'),
    recorder: require('../lib/history/recorder') as typeof import('../lib/history/recorder'),
    testDb: require('../lib/history/test-database') as typeof import('../lib/history/test-database'),
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

/** A minute of events at 10,000 buses and 1,200 requests a minute, paced in real time. */
async function recorderLag(m: Modules, store: Store, ctx: BenchContext) {
  const rule = { kind: 'zone', zone: ZONE } as const;
  const sim = m.sim.createSimulator({ seed: 42, buses: 10_000, timezone: ZONE, startAt: LAST_DAY + 8 * 3_600_000, speed: 0 });
  const world = sim.world;
  const events = new m.fleet.TypedEmitter<import('../lib/fleet').FeedEvents>();
  const recorder = new m.recorder.Recorder({ store: async () => store, log: () => {} });
  recorder.attach(events);
  const lags: number[] = [];
  const seconds = ctx.quick ? 20 : 60;
  const locationsPerSecond = (1_200 * 0.8) / 60;
  const t0 = sim.now();
  const buses = world.fleet.buses;
  let walkTrips = 0;
  for (let s = 0; s < seconds; s++) {
    const second = performance.now();
    const simNow = t0 + s * 1_000;
    if (s % 15 === 0) {
      const trips = world.activeTrips(simNow).map((r) => m.map.tripFromWire(m.schemas.tripSchema.parse(m.wire.tripRecord(world, r, simNow, { drift: false })), rule));
      walkTrips = trips.length;
      events.emit('trips', { fetchedAt: Date.now(), trips });
    }
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
  ctx.log(`  recorder lag: ${seconds} s, ${walkTrips} trips per walk, max ${recorder.stats.maxLagMs} ms`);
  return { maxLagMs: recorder.stats.maxLagMs, medianLagMs: median(lags), walkTrips, dropped: recorder.stats.droppedRows };
}

async function onStore(m: Modules, target: 'pglite' | 'postgres', ctx: BenchContext) {
  let store: Store;
  let size: () => Promise<number>;
  let dispose: () => Promise<void>;
  if (target === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'fleetmap-bench-history-'));
    store = await m.store.openStore({ databaseUrl: null, dataDir: dir });
    size = async () => {
      await store.db.execute(m.store.sqlCheckpoint());
      return dirBytes(join(dir, 'pglite'));
    };
    dispose = async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const db = await m.testDb.createTestDatabase(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL);
    store = await m.store.openStore({ databaseUrl: db.url, dataDir: null });
    size = async () => Number((await m.store.rows<{ n: string }>(store.db, m.store.sqlDatabaseSize()))[0]!.n);
    dispose = async () => {
      await store.close();
      await db.drop();
    };
  }
  try {
    const lag = await recorderLag(m, store, ctx);
    await store.db.execute(m.store.sqlTruncateHistory());
    const emptyBytes = await size();
    const days = ctx.quick ? 2 / 24 : Number(process.env.BENCH_HISTORY_DAYS || 14);
    const from = LAST_DAY + DAY_MS - days * DAY_MS;
    const t = Date.now();
    const filled = await m.fill.fillFromSimulator(store, { from, to: LAST_DAY + DAY_MS - 60_000, timezone: ZONE, onDay: (d) => ctx.log(`  ${target}: day ${d.day} filled, ${d.writtenRows} rows`) });
    const fillSeconds = (Date.now() - t) / 1000;
    const bytes = (await size()) - emptyBytes;
    const rule = { kind: 'zone', zone: ZONE } as const;
    const { closeServiceDays } = require('../lib/history/rollups') as typeof import('../lib/history/rollups'); // eslint-disable-line @typescript-eslint/no-require-imports
    await closeServiceDays(store.db, { now: LAST_DAY + DAY_MS + 6 * 3_600_000, rule, thresholds: { lateMin: 5, earlyMin: 1 }, backfill: true });
    const lastDate = '2026-03-04';
    const tableMs = await timed(() => m.queries.routesOverPeriod(store.db, { from: '2026-02-03', to: lastDate, routeIds: null, thresholds: { lateMin: 5, earlyMin: 1 }, now: LAST_DAY + DAY_MS + 6 * 3_600_000, rule }));
    const moment = LAST_DAY + 8.5 * 3_600_000;
    const fleetMs = await timed(() => m.queries.fleetAt(store.db, moment));
    const fleetSize = (await m.queries.fleetAt(store.db, moment)).vehicles.length;
    const busMs = await timed(() => m.queries.busTrack(store.db, 17, LAST_DAY, LAST_DAY + DAY_MS));
    const busFixes = (await m.queries.busTrack(store.db, 17, LAST_DAY, LAST_DAY + DAY_MS)).fixes.length;
    return { lag, days, filled, fillSeconds, mbPerDay: bytes / 1_048_576 / days, tableMs, fleetMs, fleetSize, busMs, busFixes };
  } finally {
    await dispose();
  }
}

export const history: Benchmark = {
  name: 'history',
  title: 'History store: recorder lag, storage per day, reads (PGlite and PostgreSQL)',
  needsApp: false,
  async run(ctx) {
    const m = load();
    const targets: ('pglite' | 'postgres')[] = ['pglite'];
    if (process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL) targets.push('postgres');
    else ctx.log('  postgres: skipped (BENCH_DATABASE_URL and TEST_DATABASE_URL unset)');
    const figures: Figure[] = [];
    const details: Record<string, unknown> = {};
    for (const target of targets) {
      const r = await onStore(m, target, ctx);
      details[target] = r;
      figures.push(
        { metric: `${target}: recorder lag at 10,000 buses, 1,200/min key (max)`, unit: 'ms', fleetmap: r.lag.maxLagMs, peer: null, better: 'lower' },
        { metric: `${target}: storage per simulated day, 855 buses`, unit: 'MB', fleetmap: r.mbPerDay, peer: null, better: 'lower' },
        { metric: `${target}: 30-day per-route table (median of 5)`, unit: 'ms', fleetmap: r.tableMs, peer: null, better: 'lower' },
        { metric: `${target}: fleet at a moment (median of 5)`, unit: 'ms', fleetmap: r.fleetMs, peer: null, better: 'lower' },
        { metric: `${target}: one bus's day (median of 5)`, unit: 'ms', fleetmap: r.busMs, peer: null, better: 'lower' },
      );
    }
    const d = details.pglite as Awaited<ReturnType<typeof onStore>>;
    return {
      peer: null,
      conditions: `${d.days} simulated day(s) ending 2026-03-04 at 855 buses filled through the recorder (225 locations and one trips walk per simulated minute; the live feed walks every 15 s), store reads after the days are closed; recorder lag over ${ctx.quick ? 20 : 60} s of real-time events with ${d.lag.walkTrips} trips per walk`,
      figures,
      details,
    };
  },
};
