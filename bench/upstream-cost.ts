// Benchmark 1: what viewers cost the upstream. 1, 10 and 100 viewers poll /api/live every 5 s, against
// Fleetmap (one shared poller) and against the naive pass-through proxy, at the same time on one simulator,
// each with its own key and the same per-minute limit. Requests and 429s are counted by the simulator
// (/__admin/stats, reset before each window; keys are told apart by their masked prefix).
import { randomBytes } from 'node:crypto';
import { startNaiveProxy } from './naive-proxy';
import { maskedKey, startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Figure } from './support/report';
import { sleep } from './support/stats';
import { startViewers, type ViewerCounts } from './support/viewers';

const RATE_LIMIT = 300;
const POLL_MS = 5_000;
const VIEWER_COUNTS = [1, 10, 100];

export const upstreamCost: Benchmark = {
  name: 'upstream-cost',
  title: '1. Upstream cost',
  needsApp: true,
  async run(ctx) {
    const windowS = ctx.quick ? 20 : 60;
    const naiveKey = `naive-${randomBytes(8).toString('hex')}`;
    const bench = await startBenchStack({ rateLimit: RATE_LIMIT, peerKeys: [{ key: naiveKey, limitPerMinute: RATE_LIMIT }] });
    const naive = await startNaiveProxy(bench.simBaseUrl, naiveKey);
    try {
      await waitForLive(bench.appUrl, 'positions flowing', (l) => l.health.state === 'ok' && l.vehicles.some((v) => v.lat !== null));
      const figures: Figure[] = [];
      const windows: Record<string, unknown>[] = [];
      for (const n of VIEWER_COUNTS) {
        ctx.log(`  ${n} viewer${n === 1 ? '' : 's'} on each, ${windowS} s`);
        await bench.resetSimStats();
        naive.resetCounts();
        const fleetViewers = startViewers(n, () => `${bench.appUrl}/api/live`, POLL_MS);
        const naiveViewers = startViewers(n, () => `${naive.url}/api/live`, POLL_MS);
        await sleep(windowS * 1000);
        const [fleetPolls, naivePolls] = await Promise.all([fleetViewers.stop(), naiveViewers.stop()]);
        const stats = await bench.simStats();
        const minutes = (Date.now() - stats.since) / 60_000;
        const own = naive.counts();
        const fleetRequests = stats.byKey[bench.appKeyMask] ?? 0;
        const naiveRequests = stats.byKey[maskedKey(naiveKey)] ?? 0;
        const naive429 = own.upstreamByStatus['429'] ?? 0;
        // Only the two keys talk to the simulator here, so the app's 429s are the rest of the simulator's count.
        const fleet429 = stats.rateLimited - naive429;
        windows.push({
          viewers: n,
          minutes,
          fleetmap: { upstreamRequests: fleetRequests, rateLimited: fleet429, viewerPolls: fleetPolls },
          naive: { upstreamRequests: naiveRequests, upstreamRequestsSeenByProxy: own.upstreamRequests, rateLimited: naive429, viewerPolls: naivePolls },
          simulator: stats,
        });
        figures.push(
          { metric: `upstream requests/min, ${n} viewer${n === 1 ? '' : 's'}`, unit: '/min', fleetmap: fleetRequests / minutes, peer: naiveRequests / minutes, better: 'lower' },
          { metric: `upstream 429s/min, ${n} viewer${n === 1 ? '' : 's'}`, unit: '/min', fleetmap: fleet429 / minutes, peer: naive429 / minutes, better: 'lower' },
          { metric: `viewer polls failed, ${n} viewer${n === 1 ? '' : 's'}`, unit: '%', fleetmap: pctFailed(fleetPolls), peer: pctFailed(naivePolls), better: 'lower' },
        );
      }
      return {
        peer: 'naive proxy',
        conditions: `default fleet, limit ${RATE_LIMIT}/min per key (one key each), viewers poll every ${POLL_MS / 1000} s, ${windowS} s window per viewer count (both contenders at once), counted by the simulator`,
        figures,
        details: { rateLimit: RATE_LIMIT, windowS, windows },
      };
    } finally {
      await naive.close();
      await bench.stop();
    }
  },
};

function pctFailed(c: ViewerCounts): number | null {
  return c.polls === 0 ? null : (100 * c.failed) / c.polls;
}
