// Benchmark 11: several instances on Redis (lib/cluster). Three instances (scripts/test/instance.ts: server start
// without Next.js, /api/live over HTTP) on a redis-server of the benchmark's own and a PostgreSQL database of its
// own (BENCH_DATABASE_URL or TEST_DATABASE_URL), against the simulator at its busy hour, each instance's upstream
// requests counted by a proxy in front of the simulator:
//   - upstream requests per minute with one instance (the single process, no Redis) and with three: the ratio
//     is what a second and third instance add to the key's spend (1.00: nothing);
//   - /api/live throughput with autocannon spread over the three instances against one of them alone, in turn
//     (the same machine runs all of them, and the load generator: the two cores are the limit; the single
//     process's rate is kept in the details);
//   - failover: kill -9 the leader, until another instance serves a version of a new epoch; five times;
//   - a planned restart: SIGTERM the leader (it releases its lease), until another serves a newer epoch; three times.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { allowServerModules } from './scheduler-replay';
import type { Benchmark, BenchContext, Figure } from './support/report';
import { distribution, median } from './support/stats';

const LIMIT = 300;
const BUSES = 600;
const LEASE_TTL_S = 6;

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    sim: require('../lib/sim') as typeof import('../lib/sim'),
    cluster: require('../lib/testing/cluster') as typeof import('../lib/testing/cluster'),
    testDb: require('../lib/testing/database') as typeof import('../lib/testing/database'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}
type Modules = ReturnType<typeof load>;
type Instance = import('../lib/testing/cluster').Instance;
type Proxy = import('../lib/testing/cluster').CountingProxy;

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** Requests per minute the proxies saw over [from, to). */
function perMinute(proxies: readonly Proxy[], from: number, to: number): number {
  const n = proxies.reduce((sum, p) => sum + p.arrivals.filter((t) => t >= from && t < to).length, 0);
  return (n * 60_000) / (to - from);
}

async function throughput(urls: string[], durationS: number): Promise<number> {
  const r = await autocannon({ url: urls.length === 1 ? urls[0]! : urls, connections: 30, duration: durationS, headers: { 'accept-encoding': 'gzip' }, requests: [{ method: 'GET', path: '/api/live' }] });
  return r.requests.average;
}

async function run(m: Modules, ctx: BenchContext) {
  const dbBase = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!dbBase) throw new Error('the cluster benchmark needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const windowMs = (ctx.quick ? 30 : 120) * 1000;
  const warmupMs = (ctx.quick ? 15 : 30) * 1000;
  const sim = m.sim.createSimulator({ seed: 5, buses: BUSES, speed: 1, rateLimit: LIMIT, admin: true, timezone: m.sim.zoneAtLocalHour(12) });
  const simOrigin = new URL((await sim.listen(0, '127.0.0.1')).baseUrl).origin;
  const started: Instance[] = [];
  const proxies: Proxy[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetmap-bench-cluster-'));
  const db = await m.testDb.createTestDatabase(dbBase);
  const redis = await m.cluster.startRedisServer();
  const base = { PARTNER_API_KEY: m.sim.DEMO_BUSINESS_KEY };
  const start = async (env: Record<string, string>, proxy?: Proxy) => {
    const p = proxy ?? (await m.cluster.countingProxy(simOrigin));
    if (!proxy) proxies.push(p);
    const inst = await m.cluster.startInstance({ ...base, ...env, PARTNER_API_BASE_URL: `${p.baseUrl}/api/v1/partner` });
    started.push(inst);
    return { inst, proxy: p };
  };
  const ready = (url: string) => m.cluster.waitUntil(`${url} ready`, async () => ((await fetch(`${url}/api/health/ready`).catch(() => null))?.ok ? true : undefined), 180_000, 500);
  try {
    // One instance: today's single process (no Redis), its store in a temporary directory.
    ctx.log('  one instance (single process)…');
    const one = await start({ FLEETMAP_DATA_DIR: dataDir });
    await ready(one.inst.url);
    const oneFrom = Date.now() + warmupMs;
    await sleepUntil(oneFrom + windowMs);
    const onePerMin = perMinute([one.proxy], oneFrom, oneFrom + windowMs);
    const oneRps = await throughput([one.inst.url], ctx.quick ? 5 : 15);
    await one.inst.stop();
    ctx.log(`  ${onePerMin.toFixed(1)} upstream requests/min, ${oneRps.toFixed(0)} /api/live req/s`);

    // Three instances on Redis and PostgreSQL.
    ctx.log('  three instances (Redis, PostgreSQL)…');
    const clusterEnv = { REDIS_URL: redis.url, FLEETMAP_CLUSTER: `bench-${Date.now().toString(36)}`, FLEETMAP_LEASE_TTL_S: String(LEASE_TTL_S), DATABASE_URL: db.url };
    const three = await Promise.all([start(clusterEnv), start(clusterEnv), start(clusterEnv)]);
    await Promise.all(three.map((t) => ready(t.inst.url)));
    const threeProxies = three.map((t) => t.proxy);
    const threeFrom = Date.now() + warmupMs;
    await sleepUntil(threeFrom + windowMs);
    const threePerMin = perMinute(threeProxies, threeFrom, threeFrom + windowMs);
    // The machine's load drifts (other work shares the two cores): one instance of the three and all three are
    // measured in turn, twice each, and the medians compared.
    const oneOfThree: number[] = [];
    const allThree: number[] = [];
    for (let i = 0; i < 2; i++) {
      oneOfThree.push(await throughput([three[i]!.inst.url], ctx.quick ? 5 : 10));
      allThree.push(await throughput(three.map((t) => t.inst.url), ctx.quick ? 5 : 10));
    }
    const threeRps = median(allThree)!;
    const oneOfThreeRps = median(oneOfThree)!;
    ctx.log(`  ${threePerMin.toFixed(1)} upstream requests/min; /api/live ${threeRps.toFixed(0)} req/s across three, ${oneOfThreeRps.toFixed(0)} req/s on one of them`);

    // Failover, five times: kill -9 the leader, until another instance serves a version of a newer epoch.
    const failovers: number[] = [];
    const slots = [...three];
    for (let i = 0; i < (ctx.quick ? 2 : 5); i++) {
      const views = await Promise.all(slots.map((s) => m.cluster.viewOf(s.inst.url)));
      const li = views.findIndex((v) => v?.role === 'leader');
      if (li < 0) throw new Error('no leader to kill');
      const epoch = views[li]!.epoch;
      const killedAt = Date.now();
      process.kill(slots[li]!.inst.pid, 'SIGKILL');
      const others = slots.filter((_, j) => j !== li);
      await m.cluster.waitUntil(
        'a new leader serving',
        async () => {
          const vs = await Promise.all(others.map((s) => m.cluster.viewOf(s.inst.url)));
          return vs.some((v) => v && v.role === 'leader' && v.epoch > epoch && v.vehicles > 0) ? true : undefined;
        },
        120_000,
        100,
      );
      failovers.push(Date.now() - killedAt);
      ctx.log(`  failover ${i + 1}: ${failovers.at(-1)} ms`);
      slots[li] = await start(clusterEnv, slots[li]!.proxy);
      await ready(slots[li]!.inst.url);
    }
    // A planned restart, three times: SIGTERM the leader (it releases its lease), until another serves a newer epoch.
    const handovers: number[] = [];
    for (let i = 0; i < (ctx.quick ? 1 : 3); i++) {
      const views = await Promise.all(slots.map((s) => m.cluster.viewOf(s.inst.url)));
      const li = views.findIndex((v) => v?.role === 'leader');
      if (li < 0) throw new Error('no leader to stop');
      const epoch = views[li]!.epoch;
      const termAt = Date.now();
      const stopped = slots[li]!.inst.stop();
      const others = slots.filter((_, j) => j !== li);
      await m.cluster.waitUntil(
        'a new leader after SIGTERM',
        async () => {
          const vs = await Promise.all(others.map((s) => m.cluster.viewOf(s.inst.url)));
          return vs.some((v) => v && v.role === 'leader' && v.epoch > epoch && v.vehicles > 0) ? true : undefined;
        },
        120_000,
        50,
      );
      handovers.push(Date.now() - termAt);
      ctx.log(`  handover ${i + 1} after SIGTERM: ${handovers.at(-1)} ms`);
      await stopped;
      slots[li] = await start(clusterEnv, slots[li]!.proxy);
      await ready(slots[li]!.inst.url);
    }
    const budgetPeak = m.cluster.maxInAnyMinute(threeProxies.flatMap((p) => p.arrivals));
    return { onePerMin, threePerMin, oneRps, threeRps, oneOfThreeRps, failovers, handovers, budgetPeak, rateLimited: sim.stats().rateLimited, windowMs };
  } finally {
    await Promise.allSettled(started.map((s) => s.stop()));
    await Promise.allSettled(proxies.map((p) => p.close()));
    await redis.stop();
    await sim.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const cluster: Benchmark = {
  name: 'cluster',
  title: 'Three instances on Redis',
  needsApp: false,
  async run(ctx) {
    const r = await run(load(), ctx);
    const dist = distribution(r.failovers);
    const figures: Figure[] = [
      { metric: 'upstream requests/min, 3 instances over 1', unit: '×', fleetmap: Math.round((r.threePerMin / r.onePerMin) * 100) / 100, peer: null, better: 'lower' },
      { metric: 'upstream requests/min, 3 instances', unit: 'req/min', fleetmap: Math.round(r.threePerMin * 10) / 10, peer: null, better: 'lower' },
      { metric: '/api/live throughput, 3 instances over 1 of them', unit: '×', fleetmap: Math.round((r.threeRps / r.oneOfThreeRps) * 100) / 100, peer: null, better: 'higher' },
      { metric: '/api/live throughput, 3 instances', unit: 'req/s', fleetmap: Math.round(r.threeRps), peer: null, better: 'higher' },
      { metric: 'failover after kill -9, median', unit: 's', fleetmap: Math.round(median(r.failovers)! / 100) / 10, peer: null, better: 'lower', distribution: { fleetmap: dist && { ...dist, min: dist.min / 1000, median: dist.median / 1000, p95: dist.p95 / 1000, max: dist.max / 1000 }, peer: null } },
      { metric: 'failover after kill -9, worst', unit: 's', fleetmap: Math.round(Math.max(...r.failovers) / 100) / 10, peer: null, better: 'lower' },
      { metric: 'handover after SIGTERM, median', unit: 's', fleetmap: Math.round(median(r.handovers)! / 100) / 10, peer: null, better: 'lower' },
    ];
    return {
      peer: null,
      conditions:
        `${BUSES} simulated buses at midday, a ${LIMIT}/min key; upstream requests counted over ${r.windowMs / 1000} s after a warm-up; ` +
        `autocannon (30 connections, gzip) on the same 2 cores as the instances; lease TTL ${LEASE_TTL_S} s; ${r.failovers.length} failovers and ${r.handovers.length} handovers, each until another instance served a version of a newer epoch`,
      figures,
      details: { onePerMin: r.onePerMin, threePerMin: r.threePerMin, singleProcessRps: r.oneRps, threeRps: r.threeRps, oneOfThreeRps: r.oneOfThreeRps, failoversMs: r.failovers, handoversMs: r.handovers, busiestMinuteThree: r.budgetPeak, limit: LIMIT, simulator429s: r.rateLimited },
    };
  },
};
