// Benchmark 4: /api/live under load with 2,000 buses (autocannon in this process, the app on the same two
// cores). Requests carry `Accept-Encoding: gzip` as every browser's do. With If-None-Match, each request
// names the newest ETag any response has carried so far (seeded with the ETag of a first request), as the
// browsers polling a snapshot that changes about once a second would.
import autocannon, { type AutocannonResult } from 'autocannon';
import { startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Figure } from './support/report';
import { getOnTheWire } from './support/wire';

const BUSES = 2_000;
const CONNECTIONS = [50, 200];
const HEADERS = { accept: 'application/json', 'accept-encoding': 'gzip' };

/** The ETag and the size on the wire of one answer. */
async function probe(appUrl: string): Promise<{ etag: string; encoding: string | null; bytes: number }> {
  const res = await getOnTheWire(`${appUrl}/api/live`, HEADERS);
  const etag = res.headers.etag;
  if (res.status !== 200 || typeof etag !== 'string') throw new Error(`/api/live answered ${res.status}${typeof etag === 'string' ? '' : ' without an ETag'}`);
  const encoding = res.headers['content-encoding'];
  return { etag, encoding: typeof encoding === 'string' ? encoding : null, bytes: res.bytes };
}

function headerValue(headers: Record<string, string | string[]>, name: string): string | null {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? (v[0] ?? null) : v;
  return null;
}

async function hammer(appUrl: string, connections: number, durationS: number, conditional: boolean, firstEtag: string): Promise<AutocannonResult> {
  let latestEtag = firstEtag;
  return autocannon({
    url: appUrl,
    connections,
    duration: durationS,
    timeout: 30,
    headers: HEADERS,
    requests: [
      conditional
        ? {
            method: 'GET',
            path: '/api/live',
            setupRequest: (req) => ({ ...req, headers: { ...HEADERS, 'if-none-match': latestEtag } }),
            onResponse: (_status, _body, _context, headers) => {
              latestEtag = headerValue(headers, 'etag') ?? latestEtag;
            },
          }
        : { method: 'GET', path: '/api/live' },
    ],
  });
}

export const apiLoad: Benchmark = {
  name: 'api-load',
  title: '4. /api/live load',
  needsApp: true,
  async run(ctx) {
    const durationS = ctx.quick ? 5 : 10;
    const bench = await startBenchStack({ buses: BUSES, rateLimit: 300 });
    try {
      await waitForLive(bench.appUrl, `${BUSES} buses listed`, (l) => l.vehicles.length >= BUSES * 0.95);
      const first = await probe(bench.appUrl);
      const figures: Figure[] = [];
      const runs: Record<string, unknown>[] = [];
      for (const connections of CONNECTIONS) {
        for (const conditional of [false, true]) {
          const label = `${connections} conn, ${conditional ? 'If-None-Match' : 'plain'}`;
          ctx.log(`  ${label}, ${durationS} s`);
          const r = await hammer(bench.appUrl, connections, durationS, conditional, first.etag);
          const total = Object.values(r.statusCodeStats).reduce((a, s) => a + s.count, 0);
          const notModified = r.statusCodeStats['304']?.count ?? 0;
          runs.push({ connections, conditional, requestsPerS: r.requests.average, latency: r.latency, statusCodeStats: r.statusCodeStats, errors: r.errors, timeouts: r.timeouts, throughputBytesPerS: r.throughput.average });
          figures.push(
            { metric: `${label}: requests/s`, unit: '/s', fleetmap: r.requests.average, peer: null, better: 'higher' },
            { metric: `${label}: latency p50`, unit: 'ms', fleetmap: r.latency.p50, peer: null, better: 'lower' },
            { metric: `${label}: latency p99`, unit: 'ms', fleetmap: r.latency.p99, peer: null, better: 'lower' },
          );
          if (conditional) figures.push({ metric: `${label}: answered 304`, unit: '%', fleetmap: total ? (100 * notModified) / total : null, peer: null, better: 'higher' });
          if (r.errors + r.timeouts > 0) figures.push({ metric: `${label}: errors + timeouts`, unit: '', fleetmap: r.errors + r.timeouts, peer: null, better: 'lower' });
        }
      }
      return {
        peer: null,
        conditions: `${BUSES} buses, snapshot ${(first.bytes / 1024).toFixed(0)} KiB on the wire (${first.encoding ?? 'identity'}), autocannon ${durationS} s per row, keep-alive, one request at a time per connection, load generator and app on the same 2 cores`,
        figures,
        details: { buses: BUSES, durationS, snapshotWireBytes: first.bytes, contentEncoding: first.encoding, runs },
      };
    } finally {
      await bench.stop();
    }
  },
};
