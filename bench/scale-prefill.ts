// The soak's store, filled with the service day so far before the app starts. A soak started on an empty store
// measures an app whose running day is as young as the run: the history service's headway derivation every 5
// minutes then reads minutes of data, not the hours a real afternoon holds. Filled, the app starts as it would at
// 13:00 on a real day, with the day's trips and fixes since the service day began (the same simulated world: seed,
// fleet and zone as the stack's simulator), written through the real recorder (lib/sim/fill.ts) at the feed's pace
// of location answers on a 1,200/min key.
import { sql } from 'drizzle-orm';
import { allowServerModules } from './scheduler-replay';

const HOUR_MS = 3_600_000;

export interface PrefillResult {
  /** The filled span's first and last instants (epoch ms). */
  from: number;
  to: number;
  fixes: number;
  trips: number;
  seconds: number;
}

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    store: require('../lib/history/store') as typeof import('../lib/history/store'),
    fill: require('../lib/sim/fill') as typeof import('../lib/sim/fill'),
    sim: require('../lib/sim') as typeof import('../lib/sim'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** When the simulator's service day running at `at` began, in `zone` (the network's quietest hour). */
export function serviceDayStart(serviceDayStartHour: number, secOfDay: number, at: number): number {
  const sinceStartS = (((secOfDay - serviceDayStartHour * 3600) % 86_400) + 86_400) % 86_400;
  return at - sinceStartS * 1000;
}

/**
 * Fills the PostgreSQL database at `databaseUrl` with the service day from its start to now, as the stack's
 * simulator (seed 42, `buses`, `zone`) runs it. `locationsPerMinute` is the feed's pace of location answers.
 */
export async function prefillRunningDay(databaseUrl: string, o: { buses: number; zone: string; locationsPerMinute: number; log(line: string): void }): Promise<PrefillResult> {
  const m = load();
  const t0 = performance.now();
  const to = Date.now();
  const probe = m.sim.createSimulator({ seed: 42, buses: o.buses, timezone: o.zone, startAt: to, speed: 0 });
  const from = serviceDayStart(probe.world.net.serviceDayStartHour, probe.world.zone.localDay(to).secOfDay, to);
  const store = await m.store.openStore({ databaseUrl, dataDir: null });
  try {
    const filled = await m.fill.fillFromSimulator(store, { from, to, buses: o.buses, timezone: o.zone, locationsPerMinute: o.locationsPerMinute, walkEveryMs: 15_000 });
    const [row] = await m.store.rows<{ n: string }>(store.db, sql`SELECT count(*) AS n FROM history_trips`);
    const seconds = (performance.now() - t0) / 1000;
    o.log(`  soak store filled with the running day so far (${((to - from) / HOUR_MS).toFixed(1)} h): ${filled.fixes} fixes, ${row?.n ?? '?'} trips, in ${seconds.toFixed(0)} s`);
    return { from, to, fixes: filled.fixes, trips: Number(row?.n ?? Number.NaN), seconds };
  } finally {
    await store.close();
  }
}
