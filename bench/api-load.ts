// Benchmark 4: /api/live under load with 2,000 buses (autocannon in this process, the app on the same two
// cores), against a bare node:http server (bench/support/bare-bytes-server.mjs, its own process) that sends the
// very bytes and headers the app sent, in the same run, asked the same way (for deltas, a path made per request).
// Requests carry `Accept-Encoding: gzip` (what browsers send over plain http). Full answers ask /api/live; delta
// answers ask `?since=` the newest version seen at least one poll interval (5 s) earlier, as browsers polling
// every 5 s do (each run starts with a version 5 s old). Each row runs Fleetmap, bare, bare, Fleetmap and reports
// the means. The GTFS-Realtime feeds (protobuf, /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates) get rows
// of their own beside /api/live's full answers, against the bare server sending their bytes: the feeds grow as the
// app locates its buses, so before each pair of runs (Fleetmap then bare, bare then Fleetmap) the bare server is
// given the bytes the app sends at that moment. Then one viewer polling full snapshots and one polling deltas, side
// by side for a minute, count the bytes each receives. `api-load-gtfs-rt` runs the GTFS-Realtime rows alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import autocannon, { type AutocannonResult } from 'autocannon';
import { startBenchStack, waitForLive } from './support/app-stack';
import type { BenchContext, BenchResult, Benchmark, Figure } from './support/report';
import { sleep } from './support/stats';

const BUSES = 2_000;
const CONNECTIONS = [50, 200];
const ENCODING = 'gzip';
const HEADERS = { accept: 'application/json', 'accept-encoding': ENCODING };
/** The browsers' poll interval (lib/client/queries.ts LIVE_POLL_MS). */
const POLL_MS = 5_000;

interface Answer {
  status: number;
  etag: string;
  encoding: string | null;
  /** Every header the app sent, but those node:http writes itself (the bare server sends the rest as they are). */
  headers: Record<string, string>;
  body: Buffer;
}

const HTTP_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One GET, its body as sent (still compressed). */
function get(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const etag = res.headers.etag;
        const encoding = res.headers['content-encoding'];
        if (res.statusCode !== 200 || typeof etag !== 'string') reject(new Error(`${url} answered ${res.statusCode}${typeof etag === 'string' ? '' : ' without an ETag'}`));
        else {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HTTP_OWN_HEADERS.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode, etag, encoding: typeof encoding === 'string' ? encoding : null, headers, body: Buffer.concat(chunks) });
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `W/"<epoch>-<version>"` (with a scope's suffix such as an administrator's `.a`) → the `since` value naming that version. */
const versionOf = (etag: string) => etag.replace(/^W\//, '').replace(/"/g, '').split('.')[0]!;

function headerValue(headers: Record<string, string | string[]>, name: string): string | null {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? (v[0] ?? null) : v;
  return null;
}

/** Versions seen, each with when it was first seen: `since` is the newest one at least POLL_MS old. */
class VersionClock {
  private seen: { version: string; at: number }[] = [];
  constructor(first: string) {
    this.seen.push({ version: first, at: Date.now() - POLL_MS });
  }
  saw(version: string) {
    if (this.seen[this.seen.length - 1]!.version !== version) this.seen.push({ version, at: Date.now() });
  }
  since(): string {
    const cutoff = Date.now() - POLL_MS;
    let pick = this.seen[0]!;
    for (const s of this.seen) if (s.at <= cutoff) pick = s;
    return pick.version;
  }
}

function hammer(url: string, connections: number, durationS: number, path: (() => string) | string, onEtag?: (etag: string) => void): Promise<AutocannonResult> {
  return autocannon({
    url,
    connections,
    duration: durationS,
    timeout: 30,
    headers: HEADERS,
    requests: [
      typeof path === 'string'
        ? { method: 'GET', path }
        : {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: path() }),
            onResponse: (_status, _body, _context, headers) => {
              const etag = headerValue(headers, 'etag');
              if (etag) onEtag?.(etag);
            },
          },
    ],
  });
}

async function startBare(files: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const script = join(process.cwd(), 'bench', 'support', 'bare-bytes-server.mjs');
  const child = spawn(process.execPath, [script, ENCODING, ...Object.entries(files).map(([p, f]) => `${p}=${f}`)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, child };
}

/**
 * A viewer polling every POLL_MS for `windowS` after its first answer (not counted: a page open for hours pays
 * it once): the body bytes it received as transferred, its polls, and the kinds of answer.
 */
async function viewerBytes(appUrl: string, deltas: boolean, windowS: number): Promise<{ bytes: number; polls: number; kinds: Record<string, number> }> {
  let held = versionOf((await get(`${appUrl}/api/live`)).etag);
  let bytes = 0;
  let polls = 0;
  const kinds: Record<string, number> = {};
  const start = Date.now();
  for (let next = start + POLL_MS; next <= start + windowS * 1000; next += POLL_MS) {
    await sleep(Math.max(0, next - Date.now()));
    const a = await get(`${appUrl}/api/live${deltas ? `?since=${held}` : ''}`);
    bytes += a.body.length;
    polls++;
    held = versionOf(a.etag);
    const kind = (JSON.parse(gunzipSync(a.body).toString('utf8')) as { kind: string }).kind;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return { bytes, polls, kinds };
}

/** The GTFS-Realtime feeds measured beside /api/live: the app's path, the bare server's. */
const GTFS_RT_FEEDS = ['vehicle-positions', 'trip-updates'] as const;
type RowKind = 'full' | 'delta' | (typeof GTFS_RT_FEEDS)[number];

interface Row {
  connections: number;
  kind: RowKind;
  /** Two runs each, in the order Fleetmap, bare, bare, Fleetmap. */
  fleetmap: AutocannonResult[];
  bare: AutocannonResult[];
}

/** A contender's figure over its runs of a row: the mean. */
const meanOf = (runs: AutocannonResult[], read: (r: AutocannonResult) => number) => runs.reduce((a, r) => a + read(r), 0) / runs.length;

function errorsOf(r: AutocannonResult): number {
  const non2xx = Object.entries(r.statusCodeStats)
    .filter(([s]) => !s.startsWith('2'))
    .reduce((a, [, v]) => a + v.count, 0);
  return r.errors + r.timeouts + non2xx;
}

/** The rows of the whole benchmark, or only the GTFS-Realtime feeds'. */
async function runApiLoad(ctx: BenchContext, gtfsRtOnly: boolean): Promise<Omit<BenchResult, 'name' | 'title' | 'seconds'>> {
  {
    const durationS = ctx.quick ? 5 : 10;
    const viewerWindowS = ctx.quick ? 20 : 60;
    const bench = await startBenchStack({ buses: BUSES, rateLimit: 300 });
    const dir = mkdtempSync(join(tmpdir(), 'fleetmap-api-load-'));
    let bare: { url: string; child: ChildProcess } | null = null;
    try {
      await waitForLive(bench.appUrl, `${BUSES} buses listed`, (l) => l.vehicles.length >= BUSES * 0.95);
      // The peer's bytes: one full answer, and one delta over a poll interval, exactly as the app sent them.
      const full = await get(`${bench.appUrl}/api/live`);
      await sleep(POLL_MS);
      const delta = await get(`${bench.appUrl}/api/live?since=${versionOf(full.etag)}`);
      if (full.encoding !== ENCODING || delta.encoding !== ENCODING) throw new Error(`/api/live answered ${full.encoding}/${delta.encoding}, not ${ENCODING}`);
      // And one answer of each GTFS-Realtime feed (protobuf, encoded once per snapshot version like /api/live's).
      const feeds: Array<[RowKind, Answer]> = [];
      for (const f of GTFS_RT_FEEDS) feeds.push([f, await get(`${bench.appUrl}/gtfs-rt/${f}`)]);
      for (const [name, a] of [['full', full], ['delta', delta], ...feeds] as const) {
        writeFileSync(join(dir, name), a.body);
        writeFileSync(join(dir, `${name}.headers.json`), JSON.stringify(a.headers));
      }
      bare = await startBare(Object.fromEntries(['full', 'delta', ...GTFS_RT_FEEDS].map((n) => [`/${n}`, join(dir, n)])));
      /** A bare server sending the feed's bytes as the app sends them now (the feeds grow as buses are located). */
      const feedBytes = new Map<RowKind, number[]>();
      const freshBare = async (kind: RowKind) => {
        const a = await get(`${bench.appUrl}/gtfs-rt/${kind}`);
        const file = join(dir, `${kind}-now`);
        writeFileSync(file, a.body);
        writeFileSync(`${file}.headers.json`, JSON.stringify(a.headers));
        feedBytes.set(kind, [...(feedBytes.get(kind) ?? []), a.body.length]);
        return startBare({ [`/${kind}`]: file });
      };

      const rows: Row[] = [];
      const kinds: RowKind[] = gtfsRtOnly ? [...GTFS_RT_FEEDS] : ['full', 'delta', ...GTFS_RT_FEEDS];
      for (const connections of CONNECTIONS) {
        for (const kind of kinds) {
          ctx.log(`  ${connections} conn, ${kind}: Fleetmap, bare, bare, Fleetmap, ${durationS} s each`);
          // A browser polling every 5 s asks with the version it got 5 s ago: so does each run's first request. (Seeded
          // with an older answer, a run asked with a version minutes old: a long delta, or past the versions the store
          // keeps, the full snapshot, until the clock caught up 5 s into the run.)
          const runFleetmap = async () => {
            let seed = full;
            if (kind === 'delta') {
              seed = await get(`${bench.appUrl}/api/live`);
              await sleep(POLL_MS);
            }
            const clock = new VersionClock(versionOf(seed.etag));
            if (kind !== 'full' && kind !== 'delta') return hammer(bench.appUrl, connections, durationS, `/gtfs-rt/${kind}`);
            return hammer(bench.appUrl, connections, durationS, kind === 'full' ? '/api/live' : () => `/api/live?since=${clock.since()}`, (etag) => clock.saw(versionOf(etag)));
          };
          // The load generator does the same work for both: for deltas a path made per request and every
          // answer's ETag read (the bare server ignores the query and always sends the same delta).
          const peerClock = new VersionClock(versionOf(delta.etag));
          const runBare = () => hammer(bare!.url, connections, durationS, kind === 'delta' ? () => `/delta?since=${peerClock.since()}` : `/${kind}`, (etag) => peerClock.saw(versionOf(etag)));
          // Fleetmap, bare, bare, Fleetmap: what one run leaves behind for the next (the load generator's garbage
          // after full answers, the machine's drift) falls on both alike.
          let f1: AutocannonResult, b1: AutocannonResult, b2: AutocannonResult, f2: AutocannonResult;
          if (kind === 'full' || kind === 'delta') {
            f1 = await runFleetmap();
            b1 = await runBare();
            b2 = await runBare();
            f2 = await runFleetmap();
          } else {
            // Each bare run beside the Fleetmap run next to it, with the bytes the app sent just before that pair.
            const pair = async (fleetmapFirst: boolean) => {
              const peer = await freshBare(kind);
              try {
                const runPeer = () => hammer(peer.url, connections, durationS, `/${kind}`);
                if (fleetmapFirst) return [await runFleetmap(), await runPeer()] as const;
                const b = await runPeer();
                return [await runFleetmap(), b] as const;
              } finally {
                peer.child.kill('SIGTERM');
              }
            };
            [f1, b1] = await pair(true);
            [f2, b2] = await pair(false);
          }
          // Deltas must have been deltas: a run whose answers averaged a quarter of the full snapshot's bytes or more
          // measured full answers (a stale since), not what a browser polling every 5 s gets.
          for (const f of kind === 'delta' ? [f1, f2] : []) {
            const perAnswer = f.throughput.average / f.requests.average;
            if (perAnswer > full.body.length / 4) throw new Error(`a delta run averaged ${Math.round(perAnswer)} bytes per answer (the full snapshot is ${full.body.length})`);
          }
          rows.push({ connections, kind, fleetmap: [f1, f2], bare: [b1, b2] });
        }
      }

      let fullViewer: Awaited<ReturnType<typeof viewerBytes>> | null = null;
      let deltaViewer: Awaited<ReturnType<typeof viewerBytes>> | null = null;
      if (!gtfsRtOnly) {
        ctx.log(`  one viewer of full snapshots and one of deltas, ${viewerWindowS} s`);
        [fullViewer, deltaViewer] = await Promise.all([viewerBytes(bench.appUrl, false, viewerWindowS), viewerBytes(bench.appUrl, true, viewerWindowS)]);
      }
      const perMinute = (v: { bytes: number; polls: number }) => (v.bytes / v.polls) * (60_000 / POLL_MS) / 1024;

      const figures: Figure[] = [];
      for (const r of rows) {
        const label = `${r.connections} conn, ${r.kind === 'full' || r.kind === 'delta' ? r.kind : `GTFS-RT ${r.kind}`}`;
        const rate = (runs: AutocannonResult[]) => meanOf(runs, (x) => x.requests.average);
        figures.push(
          { metric: `${label}: requests/s`, unit: '/s', fleetmap: rate(r.fleetmap), peer: rate(r.bare), better: 'higher' },
          { metric: `${label}: share of the bare rate`, unit: '%', fleetmap: (100 * rate(r.fleetmap)) / rate(r.bare), peer: null, better: 'higher' },
          { metric: `${label}: latency p50`, unit: 'ms', fleetmap: meanOf(r.fleetmap, (x) => x.latency.p50), peer: meanOf(r.bare, (x) => x.latency.p50), better: 'lower' },
          { metric: `${label}: latency p99`, unit: 'ms', fleetmap: meanOf(r.fleetmap, (x) => x.latency.p99), peer: meanOf(r.bare, (x) => x.latency.p99), better: 'lower' },
        );
        const fleetmapErrors = r.fleetmap.reduce((a, x) => a + errorsOf(x), 0);
        const bareErrors = r.bare.reduce((a, x) => a + errorsOf(x), 0);
        if (fleetmapErrors + bareErrors > 0) figures.push({ metric: `${label}: errors, timeouts, non-2xx`, unit: '', fleetmap: fleetmapErrors, peer: bareErrors, better: 'lower' });
        // The same bytes? The feeds grow while they run: what each sent per answer, on the wire.
        if (r.kind !== 'full' && r.kind !== 'delta') {
          const perAnswer = (runs: AutocannonResult[]) => meanOf(runs, (x) => x.throughput.average / x.requests.average) / 1024;
          figures.push({ metric: `${label}: bytes per answer`, unit: 'KiB', fleetmap: perAnswer(r.fleetmap), peer: perAnswer(r.bare), better: 'lower' });
        }
      }
      if (fullViewer && deltaViewer) {
        figures.push(
          { metric: 'one viewer, 5 s poll: received per minute, deltas', unit: 'KiB', fleetmap: perMinute(deltaViewer), peer: null, better: 'lower' },
          { metric: 'one viewer, 5 s poll: received per minute, full snapshots', unit: 'KiB', fleetmap: perMinute(fullViewer), peer: null, better: 'lower' },
          { metric: 'one viewer, 5 s poll: full snapshots ÷ deltas', unit: '×', fleetmap: perMinute(fullViewer) / perMinute(deltaViewer), peer: null, better: 'higher' },
        );
      }
      return {
        peer: 'bare node:http, same bytes',
        conditions:
          `${BUSES} buses; full answer ${(full.body.length / 1024).toFixed(0)} KiB and a 5 s delta ${(delta.body.length / 1024).toFixed(1)} KiB on the wire (${ENCODING}); ` +
          `GTFS-RT at the start ${feeds.map(([f, a]) => `${f} ${(a.body.length / 1024).toFixed(0)} KiB${a.encoding ? ` (${a.encoding})` : ''}`).join(', ')}, growing as buses are located (the bare server given the app's bytes of the moment before each pair of runs); ` +
          `autocannon ${durationS} s per run, two runs per row and contender (Fleetmap, bare, bare, Fleetmap; means), keep-alive, one request at a time per connection, the same requests and headers to both; load generator, app and bare server on the same 2 cores` +
          (gtfsRtOnly ? ' (the GTFS-Realtime rows alone)' : `; viewers: body bytes over ${viewerWindowS} s, scaled to a minute`),
        figures,
        details: {
          buses: BUSES,
          durationS,
          encoding: ENCODING,
          fullWireBytes: full.body.length,
          deltaWireBytes: delta.body.length,
          gtfsRtWire: Object.fromEntries(feeds.map(([f, a]) => [f, { bytes: a.body.length, encoding: a.encoding }])),
          gtfsRtBareBytes: Object.fromEntries(feedBytes),
          viewers: { windowS: viewerWindowS, full: fullViewer, delta: deltaViewer },
          order: 'per row: Fleetmap, bare, bare, Fleetmap (GTFS-RT: the bare server given the app\'s bytes before each pair); figures are the means of the two runs of each contender',
          runs: rows.map((r) => {
            const one = (x: AutocannonResult) => ({ requestsPerS: x.requests.average, bytesPerAnswer: x.throughput.average / x.requests.average, latency: x.latency, statusCodeStats: x.statusCodeStats, errors: x.errors, timeouts: x.timeouts, throughputBytesPerS: x.throughput.average });
            return { connections: r.connections, kind: r.kind, fleetmap: r.fleetmap.map(one), bare: r.bare.map(one) };
          }),
        },
      };
    } finally {
      bare?.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      await bench.stop();
    }
  }
}

export const apiLoad: Benchmark = {
  name: 'api-load',
  title: '4. /api/live load',
  needsApp: true,
  run: (ctx) => runApiLoad(ctx, false),
};

/** The GTFS-Realtime rows alone (the whole benchmark takes about 7 minutes). */
export const apiLoadGtfsRt: Benchmark = {
  name: 'api-load-gtfs-rt',
  title: '4b. GTFS-Realtime feeds under load',
  needsApp: true,
  run: (ctx) => runApiLoad(ctx, true),
};
