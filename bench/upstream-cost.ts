// Benchmark 1: what viewers cost the upstream. 1, 10 and 100 viewers poll /api/live every 5 s, against
// Fleetmap (one shared poller), the naive pass-through proxy and the shared TTL cache (one poll loop whose
// result every viewer reads: bench/shared-cache-peer.ts), at the same time on one simulator, each with its own
// key and the same per-minute limit. Requests and 429s are counted by the simulator (/__admin/stats, reset
// before each window; keys are told apart by their masked prefix).
import { randomBytes } from 'node:crypto';
import { startNaiveProxy } from './naive-proxy';
import { SharedCachePeer } from './shared-cache-peer';
import { maskedKey, startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Figure } from './support/report';
import { sleep } from './support/stats';
import { startViewers, type ViewerCounts } from './support/viewers';

const RATE_LIMIT = 300;
const POLL_MS = 5_000;
const VIEWER_COUNTS = [1, 10, 100];
/** Fleetmap's default FEED_BUDGET_SHARE, given to the shared cache to fit its refresh period to. */
const SHARE = 0.8;
const NAIVE = 'naive proxy';
const CACHE = 'shared TTL cache';

export const upstreamCost: Benchmark = {
  name: 'upstream-cost',
  title: '1. Upstream cost',
  needsApp: true,
  async run(ctx) {
    const windowS = ctx.quick ? 20 : 60;
    const naiveKey = `naive-${randomBytes(8).toString('hex')}`;
    const cacheKey = `ttlc-${randomBytes(8).toString('hex')}`;
    const bench = await startBenchStack({
      rateLimit: RATE_LIMIT,
      peerKeys: [
        { key: naiveKey, limitPerMinute: RATE_LIMIT },
        { key: cacheKey, limitPerMinute: RATE_LIMIT },
      ],
    });
    const naive = await startNaiveProxy(bench.simBaseUrl, naiveKey);
    const cache = new SharedCachePeer({ baseUrl: bench.simBaseUrl, apiKey: cacheKey, limitPerMinute: RATE_LIMIT, share: SHARE });
    const cacheUrl = await cache.start();
    try {
      await waitForLive(bench.appUrl, 'positions flowing', (l) => l.health.state === 'ok' && l.vehicles.some((v) => v.lat !== null));
      const figures: Figure[] = [];
      const windows: Record<string, unknown>[] = [];
      const measured: {
        n: number;
        minutes: number;
        fleetRequests: number;
        fleet429: number;
        fleetPolls: ViewerCounts;
        naiveRequests: number;
        naive429: number;
        naivePolls: ViewerCounts;
        cacheRequests: number;
        cache429: number;
        cachePolls: ViewerCounts;
      }[] = [];
      for (const n of VIEWER_COUNTS) {
        ctx.log(`  ${n} viewer${n === 1 ? '' : 's'} on each, ${windowS} s`);
        await bench.resetSimStats();
        naive.resetCounts();
        cache.takeCounts();
        const fleetViewers = startViewers(n, () => `${bench.appUrl}/api/live`, POLL_MS);
        const naiveViewers = startViewers(n, () => `${naive.url}/api/live`, POLL_MS);
        const cacheViewers = startViewers(n, () => `${cacheUrl}/api/live`, POLL_MS);
        await sleep(windowS * 1000);
        const [fleetPolls, naivePolls, cachePolls] = await Promise.all([fleetViewers.stop(), naiveViewers.stop(), cacheViewers.stop()]);
        const stats = await bench.simStats();
        const minutes = (Date.now() - stats.since) / 60_000;
        const own = naive.counts();
        const fleetRequests = stats.byKey[bench.appKeyMask] ?? 0;
        const naiveRequests = stats.byKey[maskedKey(naiveKey)] ?? 0;
        const cacheCounts = cache.takeCounts();
        const cacheRequests = stats.byKey[maskedKey(cacheKey)] ?? 0;
        const naive429 = own.upstreamByStatus['429'] ?? 0;
        const cache429 = cacheCounts.byStatus['429'] ?? 0;
        // Only the three keys talk to the simulator here, so the app's 429s are the rest of the simulator's count.
        const fleet429 = stats.rateLimited - naive429 - cache429;
        windows.push({
          viewers: n,
          minutes,
          fleetmap: { upstreamRequests: fleetRequests, rateLimited: fleet429, viewerPolls: fleetPolls },
          naive: { upstreamRequests: naiveRequests, upstreamRequestsSeenByProxy: own.upstreamRequests, rateLimited: naive429, viewerPolls: naivePolls },
          sharedCache: { upstreamRequests: cacheRequests, rateLimited: cache429, viewerPolls: cachePolls, ttlS: cache.ttlMs / 1000, counts: cacheCounts },
          simulator: stats,
        });
        measured.push({ n, minutes, fleetRequests, fleet429, fleetPolls, naiveRequests, naive429, naivePolls, cacheRequests, cache429, cachePolls });
      }
      // The cache's upstream cost does not depend on its viewers (they only read it), and one refresh per period
      // longer than a window makes a single window read 0 or a whole burst: its cost is its mean over all windows.
      const total = (k: 'minutes' | 'cacheRequests' | 'cache429') => measured.reduce((a, m) => a + m[k], 0);
      const cacheRate = total('cacheRequests') / total('minutes');
      const cache429Rate = total('cache429') / total('minutes');
      for (const m of measured) {
        const viewers = `${m.n} viewer${m.n === 1 ? '' : 's'}`;
        for (const [peerName, perMin, limitedPerMin, polls] of [
          [NAIVE, m.naiveRequests / m.minutes, m.naive429 / m.minutes, m.naivePolls],
          [CACHE, cacheRate, cache429Rate, m.cachePolls],
        ] as const) {
          figures.push(
            { metric: `upstream requests/min, ${viewers}`, unit: '/min', fleetmap: m.fleetRequests / m.minutes, peer: perMin, better: 'lower', peerName },
            { metric: `upstream 429s/min, ${viewers}`, unit: '/min', fleetmap: m.fleet429 / m.minutes, peer: limitedPerMin, better: 'lower', peerName },
            { metric: `viewer polls failed, ${viewers}`, unit: '%', fleetmap: pctFailed(m.fleetPolls), peer: pctFailed(polls), better: 'lower', peerName },
          );
        }
      }
      return {
        peer: NAIVE,
        conditions:
          `default fleet, simulator and app on one clock (zone ${bench.zone}, 13:00 local at start), limit ${RATE_LIMIT}/min per key (one key each), viewers poll every ${POLL_MS / 1000} s, ` +
          `${windowS} s window per viewer count (all three contenders at once), counted by the simulator; the shared TTL cache refreshed every ${Math.round(cache.ttlMs / 1000)} s at the end ` +
          `(fitted to ${SHARE} of the limit, each refresh a burst ten at a time), its requests and 429s a minute averaged over all windows since one refresh period exceeds a window`,
        figures,
        details: { rateLimit: RATE_LIMIT, windowS, windows },
      };
    } finally {
      await cache.stop();
      await naive.close();
      await bench.stop();
    }
  },
};

function pctFailed(c: ViewerCounts): number | null {
  return c.polls === 0 ? null : (100 * c.failed) / c.polls;
}
