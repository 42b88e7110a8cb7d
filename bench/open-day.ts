// Benchmark: a running day's headway derivation at 10,000 buses (lib/history/regularity.ts). While a service day
// runs, the history service derives its headway figures so far every 5 minutes. Derived whole, that reads every trip
// and fix of the day so far, a cost that grows with the day; derived from where the last derivation settled, it reads
// the trips active in the last SETTLE_MS + CONTEXT_MS. A store (PostgreSQL on TEST_DATABASE_URL's server when set,
// else an in-memory PGlite) is filled with the first hours of a 10,000-bus day on a 1,200/min key through the real
// recorder (lib/sim/fill.ts, 840 location answers a minute), then, at its last instant:
//  - the peer: the whole day so far, derived as before (no state), twice, the second timed;
//  - Fleetmap: the same instant derived from the state of a derivation 5 minutes before, twice, the second timed;
// each the CPU time of this process and its JS heap's peak (the largest heap before a GC, garbage included: what the
// heap must grow to). Then how far each route's EWT so far, derived so, lies from the whole day's.
import { GCProfiler } from 'node:v8';
import { sql } from 'drizzle-orm';
import { DEFAULT_REGULARITY } from '../lib/model';
import { createTestDatabase } from '../lib/testing/database';
import { routeStopsOf } from './estimation';
import { allowServerModules } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { median } from './support/stats';

const BUSES = 10_000;
/** Wednesday 4 March 2026, 05:00 in New York: the day's first hours are filled from here. */
const DAY_FROM = Date.parse('2026-03-04T05:00:00-05:00');
const RULE = { kind: 'zone', zone: 'America/New_York' } as const;
/** Routes with fewer trips so far are left out of the EWT comparison (as the headways benchmark's EWT goal). */
const MIN_TRIPS = 20;

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    store: require('../lib/history/store') as typeof import('../lib/history/store'),
    fill: require('../lib/sim/fill') as typeof import('../lib/sim/fill'),
    regularity: require('../lib/history/regularity') as typeof import('../lib/history/regularity'),
    passing: require('../lib/regularity/passing') as typeof import('../lib/regularity/passing'),
    sim: require('../lib/sim') as typeof import('../lib/sim'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

interface Cost {
  cpuMs: number;
  wallMs: number;
  heapPeakMb: number;
}

async function cost(fn: () => Promise<unknown>): Promise<Cost> {
  const base = process.memoryUsage().heapUsed;
  const gc = new GCProfiler();
  gc.start();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  let peak = process.memoryUsage().heapUsed;
  for (const s of gc.stop().statistics) peak = Math.max(peak, s.beforeGC.heapStatistics.usedHeapSize);
  return { cpuMs: (c.user + c.system) / 1000, wallMs, heapPeakMb: Math.max(0, peak - base) / 1e6 };
}

export const openDay: Benchmark = {
  name: 'open-day',
  title: 'Headways over days: a running day derived every 5 minutes, at 10,000 buses',
  needsApp: false,
  async run(ctx) {
    const m = load();
    const hours = ctx.quick ? 1 : 8;
    const to = DAY_FROM + hours * 3_600_000;
    const db = process.env.TEST_DATABASE_URL ? await createTestDatabase() : null;
    const store = await m.store.openStore({ databaseUrl: db?.url ?? null, dataDir: null });
    try {
      const t0 = performance.now();
      const filled = await m.fill.fillFromSimulator(store, { from: DAY_FROM, to, buses: BUSES, locationsPerMinute: 840, walkEveryMs: 15_000, timezone: RULE.zone });
      ctx.log(`  filled ${hours} h of a ${BUSES.toLocaleString('en-US')}-bus day on ${db ? 'PostgreSQL' : 'PGlite'}: ${filled.fixes} fixes, in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      const sim = m.sim.createSimulator({ seed: 42, buses: BUSES, speed: 0, startAt: DAY_FROM, timezone: RULE.zone });
      const opts = { rule: RULE, config: DEFAULT_REGULARITY, stopsByRoute: routeStopsOf(sim.world), open: true };
      const date = '2026-03-04';
      const [trips] = await m.store.rows<{ n: string }>(store.db, sql`SELECT count(*) AS n FROM history_trips WHERE service_date = ${date}`);
      /** Each route's EWT so far, from the stored whole-day rows. */
      const ewtByRoute = async () => {
        const got = await m.regularity.storedRegularity(store.db, date, date, null);
        const out = new Map<number, number | null>();
        for (const [routeId, dirs] of got.byRoute) out.set(routeId, m.passing.figuresOfSums([...dirs.values()].reduce(m.passing.addSums, m.passing.NO_SUMS)).ewtS);
        return out;
      };
      const routeTrips = await m.store.rows<{ route_id: number; n: string }>(store.db, sql`SELECT route_id, count(*) AS n FROM history_trips WHERE service_date = ${date} GROUP BY route_id`);
      const busyRoutes = new Set(routeTrips.filter((r) => Number(r.n) >= MIN_TRIPS).map((r) => r.route_id));

      const whole: Cost[] = [];
      for (let i = 0; i < 2; i++) whole.push(await cost(() => m.regularity.deriveRegularityDays(store.db, { ...opts, now: to })));
      const wholeEwt = await ewtByRoute();
      const windowed: Cost[] = [];
      let state: { settledRows: number; ghostsDone: number; readSinceMin: number } | null = null;
      for (let i = 0; i < 2; i++) {
        const openDays = new Map();
        await m.regularity.deriveRegularityDays(store.db, { ...opts, now: to - 5 * 60_000, openDays });
        const since = openDays.get(date).until - m.regularity.CONTEXT_MS;
        windowed.push(await cost(() => m.regularity.deriveRegularityDays(store.db, { ...opts, now: to, openDays })));
        state = { settledRows: openDays.get(date).settled.length, ghostsDone: openDays.get(date).ghostsDone.size, readSinceMin: (to - since) / 60_000 };
      }
      const windowedEwt = await ewtByRoute();
      const diffs = [...busyRoutes].flatMap((id) => {
        const a = windowedEwt.get(id);
        const b = wholeEwt.get(id);
        return a === null || a === undefined || b === null || b === undefined ? [] : [Math.abs(a - b)];
      });
      const [w, p] = [windowed[1]!, whole[1]!];
      ctx.log(`  at ${hours} h (${Number(trips?.n ?? 0)} trips): whole day ${p.cpuMs.toFixed(0)} ms CPU, heap peak ${p.heapPeakMb.toFixed(0)} MB; from where it settled ${w.cpuMs.toFixed(0)} ms CPU, ${w.heapPeakMb.toFixed(0)} MB; EWT so far within ${Math.max(0, ...diffs).toFixed(2)} s of the whole day's on ${diffs.length} routes`);
      const figures: Figure[] = [
        { metric: `a running day's derivation at ${hours} h, ${BUSES.toLocaleString('en-US')} buses: CPU`, unit: 'ms', fleetmap: w.cpuMs, peer: p.cpuMs, better: 'lower' },
        { metric: `a running day's derivation at ${hours} h: JS heap peak above its start`, unit: 'MB', fleetmap: w.heapPeakMb, peer: p.heapPeakMb, better: 'lower' },
        { metric: `EWT so far, largest difference from the whole day's (routes with ≥ ${MIN_TRIPS} trips)`, unit: 's', fleetmap: diffs.length ? Math.max(...diffs) : null, peer: null, better: 'lower' },
        { metric: `EWT so far, median difference from the whole day's`, unit: 's', fleetmap: median(diffs), peer: null, better: 'lower' },
      ];
      return {
        peer: 'the whole day so far, derived again each time (no state kept)',
        conditions: `${hours} simulated hours of a ${BUSES.toLocaleString('en-US')}-bus day from 05:00 (${filled.fixes} fixes, ${Number(trips?.n ?? 0)} trips) on ${db ? 'PostgreSQL' : 'PGlite'}, recorded through the recorder at 840 location answers a minute; each side derived twice at the last instant, the second measured (this process's CPU time; heap peak: the largest JS heap before a GC, above its size at the start); the windowed side from the state of a derivation 5 minutes before, reading the trips active in the last ${state?.readSinceMin ?? '–'} minutes`,
        figures,
        details: { hours, fixes: filled.fixes, trips: Number(trips?.n ?? 0), whole, windowed, state, routesCompared: diffs.length },
      };
    } finally {
      await store.close();
      await db?.drop();
    }
  },
};
