// Fills a store with simulated days through the recorder (lib/sim/fill.ts), then prints one JSON line: what
// was written and, with --date, the per-route figures of that service date recomputed from the stored trips by
// plain SQL (the e2e test compares the delay board with them).
//
//   node --conditions=react-server --import tsx scripts/data/history-fill.ts --dir <FLEETMAP_DATA_DIR> --from <ISO> --to <ISO> [--buses N] [--date YYYY-MM-DD] [--stats FILE]
//   (DATABASE_URL set: PostgreSQL instead of --dir)
// Each simulated day filled is logged on stderr. --stats writes what was filled, how long it took and the
// machine's load before and after into FILE once the fill is complete (the history benchmark keeps its fills so).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { fillFromSimulator } from '@/lib/sim/fill';
import { openStore, rows } from '@/lib/history/store';
import { closeServiceDays } from '@/lib/history/rollups';
import { delayFigures } from '@/lib/stats/delay-figures';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const from = Date.parse(arg('from') ?? '');
  const to = Date.parse(arg('to') ?? '');
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) {
    console.error('usage: history-fill.ts --dir <dir> --from <ISO> --to <ISO> [--buses N] [--date YYYY-MM-DD]');
    process.exit(2);
  }
  const zone = arg('timezone') ?? 'America/New_York';
  const thresholds = { lateMin: Number(arg('late') ?? 5), earlyMin: Number(arg('early') ?? 1) };
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL || null, dataDir: arg('dir') ?? null });
  const t0 = Date.now();
  const loadAtStart = loadavg()[0]!;
  const written = await fillFromSimulator(store, {
    from,
    to,
    buses: arg('buses') ? Number(arg('buses')) : undefined,
    timezone: zone,
    onDay: (d) => console.error(`${store.target}: simulated day ${d.day} filled after ${Math.round((Date.now() - t0) / 1000)} s (load ${loadavg()[0]!.toFixed(1)})`),
  });
  const fillSeconds = (Date.now() - t0) / 1000;
  await closeServiceDays(store.db, { now: to, rule: { kind: 'zone', zone }, thresholds, backfill: true });
  const date = arg('date');
  let routes: unknown = null;
  if (date) {
    const got = await rows<{ route_id: number; route_code: string | null; delay_minutes: number | null }>(store.db, sql`SELECT route_id, route_code, delay_minutes FROM history_trips WHERE service_date = ${date}`);
    const byRoute = new Map<number, { code: string | null; trips: { delayMinutes: number | null }[] }>();
    for (const r of got) (byRoute.get(r.route_id) ?? byRoute.set(r.route_id, { code: r.route_code, trips: [] }).get(r.route_id)!).trips.push({ delayMinutes: r.delay_minutes });
    routes = [...byRoute.entries()].map(([routeId, g]) => ({ routeId, routeCode: g.code, ...delayFigures(g.trips, thresholds) }));
  }
  await store.close();
  const stats = arg('stats');
  if (stats) writeFileSync(stats, JSON.stringify({ ...written, from, to, fillSeconds, loadAtStart, loadAtEnd: loadavg()[0]!, madeAt: new Date().toISOString() }, null, 1));
  console.log(JSON.stringify({ ...written, seconds: (Date.now() - t0) / 1000, routes }));
}

void main();
