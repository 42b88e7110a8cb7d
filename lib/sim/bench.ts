// Simulator figures: fleet size, active trips by time of day, and request latency over HTTP.
// Run: npx tsx lib/sim/bench.ts
import { SCOPES } from '../model/transit';
import { percentile } from '../stats/percentile';
import { createSimulator } from './index';

const KEY = 'bench-key-0001';
const keys = [{ key: KEY, plan: 'business' as const, scopes: SCOPES, limitPerMinute: 1_000_000 }];
// Wednesday 4 March 2026 in New York.
const day = (localHour: number) => Date.parse('2026-03-04T05:00:00Z') + localHour * 3_600_000;

const pct = (xs: number[], p: number) => percentile([...xs].sort((a, b) => a - b), p) ?? Number.NaN;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function latency(buses: number | undefined) {
  const t0 = performance.now();
  const sim = createSimulator({ buses, keys: keys.map((k) => ({ ...k, scopes: [...k.scopes] })), startAt: day(8) });
  const created = performance.now() - t0;
  const { baseUrl } = await sim.listen(0);
  const get = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
    return (await res.json()) as { data: { pagination?: { total_pages: number } } };
  };
  try {
    await get('/trips/active?per_page=100');
    const n = sim.plan.totalBuses;
    const loc: number[] = [];
    for (let i = 0; i < 400; i++) {
      const id = 1 + ((i * 7919) % n);
      const t = performance.now();
      await get(`/buses/${id}/location`);
      loc.push(performance.now() - t);
    }
    const walks: number[] = [];
    let pages = 0;
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      const first = await get('/trips/active?per_page=100&page=1');
      pages = first.data.pagination!.total_pages;
      for (let p = 2; p <= pages; p++) await get(`/trips/active?per_page=100&page=${p}`);
      walks.push(performance.now() - t);
    }
    console.info(
      `${String(n).padStart(6)} buses: created in ${fmt(created)}; location p50 ${fmt(pct(loc, 0.5))} p95 ${fmt(pct(loc, 0.95))}; ` +
        `/trips/active all ${pages} pages p50 ${fmt(pct(walks, 0.5))} (max ${fmt(Math.max(...walks))})`,
    );
  } finally {
    await sim.close();
  }
}

async function main() {
  let now = day(0);
  const sim = createSimulator({ startAt: now, now: () => now });
  console.info(`default fleet: ${sim.plan.totalBuses} buses (${sim.plan.workBuses} on ${sim.world.net.routes.length} routes, ${sim.plan.spareBuses} spares)`);
  const rows: string[] = [];
  for (const h of [3.5, 6, 8, 12, 17.5, 22]) {
    now = day(h);
    const active = sim.world.activeTrips(sim.now());
    const delayed = active.filter((ref) => sim.world.tripStatus(ref, sim.now()).status === 'delayed').length;
    rows.push(`${String(h).padStart(4)}h ${String(active.length).padStart(4)} active (${delayed} delayed)`);
  }
  console.info(`weekday active trips by local hour:\n  ${rows.join('\n  ')}`);
  await sim.close();
  for (const n of [500, 10_000]) await latency(n);
}

void main();
