// Benchmark: what a Prometheus scrape of /metrics costs at 10,000 buses (goal: at most 20 ms), in process, without
// HTTP. Fleetmap's registry (lib/metrics, as the server starts it) is fed a synthetic fleet of 10,000 buses, half of
// them located on trips, and a busy past: upstream requests of every operation and outcome, requests of every route
// template, /api/live answers and viewers. Each timed scrape finds a new snapshot version (the worst case: every
// located bus on a trip is observed into the age histogram); a second series of scrapes finds the same version.
// The peer is a registry with prom-client's default metrics alone, the floor any Node.js service pays.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveSnapshot, Vehicle } from '../lib/model';
import { allowServerModules } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { distribution, max, median, percentile } from './support/stats';

const BUSES = 10_000;
const GOAL_MS = 20;

function load() {
  allowServerModules();
  /* eslint-disable @typescript-eslint/no-require-imports -- must load after the server-only marker is in the cache */
  return {
    metrics: require('../lib/metrics') as typeof import('../lib/metrics'),
    events: require('../lib/fleet/events') as typeof import('../lib/fleet/events'),
    access: require('../lib/auth/access') as typeof import('../lib/auth/access'),
    testing: require('../lib/testing/view-factories') as typeof import('../lib/testing/view-factories'),
    promClient: require('prom-client') as typeof import('prom-client'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

function fleet(now: number, makeVehicle: (over: Partial<Vehicle>) => Vehicle, makeTrip: (over: { tripId: number }) => NonNullable<Vehicle['trip']>): Vehicle[] {
  return Array.from({ length: BUSES }, (_, i) =>
    makeVehicle({
      busId: i + 1,
      lat: i % 10 === 9 ? null : 40.7 + (i % 100) / 1000,
      lon: i % 10 === 9 ? null : -73.9,
      gpsAt: i % 10 === 9 ? null : now - ((i * 7) % 600) * 1000,
      trip: i % 2 === 0 ? makeTrip({ tripId: 1_000_000 + i }) : null,
    }),
  );
}

async function timeScrapes(scrape: () => Promise<string>, runs: number, before?: () => void): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    before?.();
    const t0 = performance.now();
    const text = await scrape();
    ms.push(performance.now() - t0);
    bytes = text.length;
  }
  return { ms, bytes };
}

export const metricsScrape: Benchmark = {
  name: 'metrics',
  title: 'Metrics: one /metrics scrape at 10,000 buses',
  needsApp: false,
  async run(ctx) {
    const { metrics: metricsModule, events, access, testing, promClient } = load();
    const runs = ctx.quick ? 10 : 60;
    const now = Date.UTC(2026, 10, 27, 17, 0, 0);
    const snapshot: LiveSnapshot = testing.makeSnapshot({ vehicles: fleet(now, testing.makeVehicle, testing.makeTrip), generatedAt: now });
    const feed = {
      events: new events.TypedEmitter<import('../lib/fleet/events').FeedEvents>(),
      liveSnapshot: () => ({ snapshot, body: '' }),
      health: () => snapshot.health,
    };
    const m = metricsModule.startMetrics(feed as never, { token: null, staleAfterS: 120, now: () => now });
    // A busy past: every label value the series can take.
    const operations = ['status', 'listBuses', 'listRoutes', 'routeStops', 'activeTrips', 'trip', 'busLocation', 'finalTrip'];
    const outcomes: [number | null, boolean, 'http' | 'timeout' | 'network' | 'contract' | null][] = [[200, true, null], [429, false, 'http'], [503, false, 'http'], [null, false, 'timeout'], [null, false, 'network'], [200, false, 'contract']];
    for (let i = 0; i < 50_000; i++) {
      const kind = operations[i % operations.length]!;
      const [status, ok, errKind] = outcomes[i % 97 === 0 ? (i / 97) % outcomes.length : 0]!;
      feed.events.emit('request', { at: now, kind, lane: 'poll', status, ok, durationMs: 20 + (i % 400), ...(errKind ? { error: { at: now, status, kind: errKind, message: 'x', correlationId: null } } : {}) });
    }
    const routes = Object.keys(access.ROUTE_ACCESS).map((p) => p.replace(/\[[^\]]+\]/g, '1'));
    for (let i = 0; i < 20_000; i++) {
      const req = { method: i % 50 === 0 ? 'POST' : 'GET', url: routes[i % routes.length]!, headers: { 'x-fleetmap-client-address': `10.0.${(i >> 8) % 256}.${i % 256}` } } as unknown as IncomingMessage;
      const res = Object.assign(new EventEmitter(), { statusCode: [200, 200, 304, 400, 404][i % 5]! }) as unknown as ServerResponse;
      m.requests.request(req, res);
      res.emit('finish');
      if (req.url === '/api/live') m.requests.liveAnswer({ status: res.statusCode, kind: i % 3 ? 'delta' : 'full' }, req);
    }
    ctx.log(`metrics: ${BUSES} buses, ${runs} scrapes per series`);
    // Warm-up, not counted (the JIT, the first observation of the fleet).
    await timeScrapes(() => m.scrape(), 5, () => (snapshot.version += 1));
    const newVersion = await timeScrapes(() => m.scrape(), runs, () => (snapshot.version += 1));
    const sameVersion = await timeScrapes(() => m.scrape(), runs);
    const peerRegistry = new promClient.Registry();
    promClient.collectDefaultMetrics({ register: peerRegistry });
    await timeScrapes(() => peerRegistry.metrics(), 5);
    const peer = await timeScrapes(() => peerRegistry.metrics(), runs);
    const series = m.scrape().then((t) => t.split('\n').filter((l) => l && !l.startsWith('#')).length);
    const seriesCount = await series;
    m.stop();
    const worst = median(newVersion.ms);
    ctx.log(`metrics: scrape median ${worst?.toFixed(2)} ms with a new version (goal ${GOAL_MS} ms: ${worst !== null && worst <= GOAL_MS ? 'met' : 'NOT met'}), ${median(sameVersion.ms)?.toFixed(2)} ms without; default metrics alone ${median(peer.ms)?.toFixed(2)} ms`);
    const figures: Figure[] = [
      { metric: 'scrape, new snapshot version, median', unit: 'ms', fleetmap: median(newVersion.ms), peer: median(peer.ms), peerName: 'default metrics alone', better: 'lower', distribution: { fleetmap: distribution(newVersion.ms), peer: distribution(peer.ms) } },
      { metric: 'scrape, new snapshot version, p95', unit: 'ms', fleetmap: percentile(newVersion.ms, 0.95), peer: percentile(peer.ms, 0.95), peerName: 'default metrics alone', better: 'lower' },
      { metric: 'scrape, new snapshot version, max', unit: 'ms', fleetmap: max(newVersion.ms), peer: max(peer.ms), peerName: 'default metrics alone', better: 'lower' },
      { metric: 'scrape, same snapshot version, median', unit: 'ms', fleetmap: median(sameVersion.ms), peer: median(peer.ms), peerName: 'default metrics alone', better: 'lower' },
      { metric: 'scrape size', unit: 'bytes', fleetmap: newVersion.bytes, peer: peer.bytes, peerName: 'default metrics alone', better: 'lower' },
      { metric: 'series in a scrape', unit: '', fleetmap: seriesCount, peer: null, better: 'lower' },
    ];
    return {
      peer: 'default metrics alone',
      conditions: `${BUSES} synthetic buses (9 in 10 located, half on trips), 50,000 upstream request events of every operation and outcome and 20,000 requests over every route template before the scrapes; ${runs} timed scrapes in process (no HTTP) each finding a new snapshot version, then ${runs} finding the same; the peer is prom-client's default metrics alone; goal: at most ${GOAL_MS} ms per scrape`,
      figures,
      details: { newVersionMs: newVersion.ms, sameVersionMs: sameVersion.ms, peerMs: peer.ms, goalMs: GOAL_MS },
    };
  },
};
