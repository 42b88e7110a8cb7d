// Benchmark "scale" (issue 34), the sizes part: the app on the simulator at 855 and at 10,000 buses on a
// 1,200/min key; once its snapshot has filled, /api/live's full answer and a 5 s delta in today's JSON form (the
// peer column) and in the compact form the browser reads (?shape=compact, lib/model/live-compact.ts), each as sent
// (identity, and gzip at the server's own level 6), and the time Node takes to turn each full answer into the
// LiveSnapshot the components read: JSON.parse of today's answer, JSON.parse and decodeCompactFull of the compact one.
import { performance } from 'node:perf_hooks';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { applyCompactDelta, applyLiveDelta, decodeCompactFull, type CompactAnswer, type LiveAnswer, type LiveSnapshot } from '../lib/model';
import { readLive, startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Distribution, Figure } from './support/report';
import { sleep } from './support/stats';

const FLEETS = [855, 10_000];
const RATE_LIMIT = 1_200;
/** The browsers' poll interval (lib/client/queries.ts LIVE_POLL_MS). */
const POLL_MS = 5_000;
const DECODE_RUNS = 20;
const GOALS = { fullBytes: 1.5e6, fullGzipBytes: 150e3, deltaGzipBytes: 30e3 };

/** The server's gzip level (lib/http/live-answer.ts GZIP_LEVEL): what it sends a browser asking gzip. */
const GZIP_LEVEL = 6;

interface Got {
  etag: string;
  body: Buffer;
  /** The body as gzip at the server's level sends it. */
  gzipBytes: number;
}

function get(url: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'application/json', 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const etag = res.headers.etag;
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200 || typeof etag !== 'string') reject(new Error(`${url} answered ${res.statusCode}`));
        else resolve({ etag, body, gzipBytes: gzipSync(body, { level: GZIP_LEVEL }).length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `W/"<epoch>-<version>.c"` → `<epoch>-<version>`. */
const versionOf = (etag: string) => etag.replace(/^W\//, '').replace(/"/g, '').split('.')[0]!;

function distribution(xs: number[]): Distribution {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { n: s.length, min: s[0]!, median: s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2, p95: at(0.95), max: s[s.length - 1]! };
}

/** Milliseconds per run of `fn`, DECODE_RUNS times after two runs to warm up. */
function timed(fn: () => unknown): Distribution {
  fn();
  fn();
  const ms: number[] = [];
  for (let i = 0; i < DECODE_RUNS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return distribution(ms);
}

interface FleetFigures {
  buses: number;
  vehicles: number;
  json: { full: number; fullGzip: number; deltaGzip: number[]; deltaVehicles: number[] };
  compact: { full: number; fullGzip: number; deltaGzip: number[]; deltaMoved: number[]; deltaWhole: number[] };
  decodeMs: { json: Distribution; compact: Distribution };
  applyDeltaMs: { json: Distribution; compact: Distribution };
  fillSeconds: number;
  /** The share of listed buses with a position when measured. */
  placedShare: number;
}

/** The same answer in both forms (`since`: a delta): asked together until both name one version (a version lasts at least a second). */
async function bothForms(appUrl: string, since: string | null): Promise<{ json: Got; compact: Got }> {
  const q = since === null ? '' : `since=${since}`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const [json, compact] = await Promise.all([get(`${appUrl}/api/live${q ? `?${q}` : ''}`), get(`${appUrl}/api/live?shape=compact${q ? `&${q}` : ''}`)]);
    if (versionOf(json.etag) === versionOf(compact.etag)) return { json, compact };
  }
  throw new Error('/api/live never gave one version in both forms');
}

async function measureFleet(buses: number, deltas: number, fillCapS: number, log: (line: string) => void): Promise<FleetFigures> {
  const bench = await startBenchStack({ buses, rateLimit: RATE_LIMIT });
  try {
    const t0 = Date.now();
    // Filled: nearly every bus listed, then nearly every listed bus placed. One location per request: at 10,000 buses
    // and about 600 location requests a minute that takes a quarter of an hour, so the wait is capped and the
    // share placed is reported with the figures.
    await waitForLive(bench.appUrl, `${buses} buses listed`, (l) => l.vehicles.length >= buses * 0.95, 600_000);
    let placedShare = 0;
    for (let waited = 0; ; waited += 10) {
      const l = await readLive(bench.appUrl);
      placedShare = l.vehicles.filter((v) => v.lat !== null).length / Math.max(1, l.vehicles.length);
      if (placedShare >= 0.95 || waited >= fillCapS) break;
      if (waited % 60 === 0) log(`  ${buses} buses: ${(100 * placedShare).toFixed(0)} % placed after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      await sleep(10_000);
    }
    const fillSeconds = (Date.now() - t0) / 1000;
    log(`  ${buses} buses: measured after ${fillSeconds.toFixed(0)} s, ${(100 * placedShare).toFixed(1)} % placed`);
    const full = await bothForms(bench.appUrl, null);
    const jsonText = full.json.body.toString('utf8');
    const compactText = full.compact.body.toString('utf8');
    const decodeMs = {
      json: timed(() => {
        const { kind: _kind, ...s } = JSON.parse(jsonText) as LiveAnswer & { kind: 'full' };
        return s;
      }),
      compact: timed(() => decodeCompactFull(JSON.parse(compactText) as CompactAnswer & { kind: 'full' })),
    };
    const { kind: _kind, ...jsonHeld } = JSON.parse(jsonText) as LiveAnswer & { kind: 'full' };
    const compactHeld = decodeCompactFull(JSON.parse(compactText) as CompactAnswer & { kind: 'full' });

    const out: FleetFigures = {
      buses,
      vehicles: jsonHeld.vehicles.length,
      json: { full: full.json.body.length, fullGzip: full.json.gzipBytes, deltaGzip: [], deltaVehicles: [] },
      compact: { full: full.compact.body.length, fullGzip: full.compact.gzipBytes, deltaGzip: [], deltaMoved: [], deltaWhole: [] },
      decodeMs,
      applyDeltaMs: { json: distribution([0]), compact: distribution([0]) },
      fillSeconds,
      placedShare,
    };
    // 5 s deltas from one version in both forms, as a browser polling every 5 s asks them.
    let since = versionOf(full.json.etag);
    let last: { json: string; compact: string; jsonBase: LiveSnapshot; compactBase: LiveSnapshot } | null = null;
    let jsonBase: LiveSnapshot = jsonHeld;
    let compactBase: LiveSnapshot = compactHeld;
    for (let i = 0; i < deltas; i++) {
      await sleep(POLL_MS);
      const { json: j, compact: c } = await bothForms(bench.appUrl, since);
      const jText = j.body.toString('utf8');
      const cText = c.body.toString('utf8');
      const jd = JSON.parse(jText) as LiveAnswer;
      const cd = JSON.parse(cText) as CompactAnswer;
      if (jd.kind !== 'delta' || cd.kind !== 'delta') throw new Error(`a 5 s poll got a ${jd.kind}/${cd.kind} answer, not a delta`);
      out.json.deltaGzip.push(j.gzipBytes);
      out.json.deltaVehicles.push(jd.vehicles.length);
      out.compact.deltaGzip.push(c.gzipBytes);
      out.compact.deltaMoved.push(cd.m.id.length);
      out.compact.deltaWhole.push(cd.v.id.length);
      last = { json: jText, compact: cText, jsonBase, compactBase };
      const nextJson = applyLiveDelta(jsonBase, jd);
      const nextCompact = applyCompactDelta(compactBase, cd);
      if (!nextJson || !nextCompact) throw new Error('a delta did not apply to the snapshot it was asked from');
      jsonBase = nextJson;
      compactBase = nextCompact;
      if (nextCompact.vehicles.length !== nextJson.vehicles.length) throw new Error(`the compact chain holds ${nextCompact.vehicles.length} buses, the JSON one ${nextJson.vehicles.length}`);
      since = versionOf(j.etag);
    }
    if (last) {
      const l = last;
      out.applyDeltaMs = {
        json: timed(() => applyLiveDelta(l.jsonBase, JSON.parse(l.json) as LiveAnswer & { kind: 'delta' })),
        compact: timed(() => applyCompactDelta(l.compactBase, JSON.parse(l.compact) as CompactAnswer & { kind: 'delta' })),
      };
    }
    return out;
  } finally {
    await bench.stop();
  }
}

const kb = (bytes: number) => bytes / 1000;
const median = (xs: number[]) => distribution(xs).median;

function figuresOf(f: FleetFigures): Figure[] {
  const at = `${f.buses.toLocaleString('en-US')} buses`;
  const sized = (xs: number[]): Distribution => {
    const d = distribution(xs);
    return { n: d.n, min: kb(d.min), median: kb(d.median), p95: kb(d.p95), max: kb(d.max) };
  };
  return [
    { metric: `${at}: full answer`, unit: 'kB', fleetmap: kb(f.compact.full), peer: kb(f.json.full), better: 'lower' },
    { metric: `${at}: full answer, gzip`, unit: 'kB', fleetmap: kb(f.compact.fullGzip), peer: kb(f.json.fullGzip), better: 'lower' },
    { metric: `${at}: 5 s delta, gzip (median)`, unit: 'kB', fleetmap: kb(median(f.compact.deltaGzip)), peer: kb(median(f.json.deltaGzip)), better: 'lower', distribution: { fleetmap: sized(f.compact.deltaGzip), peer: sized(f.json.deltaGzip) } },
    { metric: `${at}: full answer to snapshot in Node (median of ${DECODE_RUNS})`, unit: 'ms', fleetmap: f.decodeMs.compact.median, peer: f.decodeMs.json.median, better: 'lower', distribution: { fleetmap: f.decodeMs.compact, peer: f.decodeMs.json } },
    { metric: `${at}: 5 s delta applied in Node (median of ${DECODE_RUNS})`, unit: 'ms', fleetmap: f.applyDeltaMs.compact.median, peer: f.applyDeltaMs.json.median, better: 'lower', distribution: { fleetmap: f.applyDeltaMs.compact, peer: f.applyDeltaMs.json } },
  ];
}

export const scale: Benchmark = {
  name: 'scale',
  title: 'Scale: /api/live at 855 and 10,000 buses, the snapshot’s size',
  needsApp: true,
  async run(ctx) {
    const deltas = ctx.quick ? 2 : 5;
    const fillCapS = ctx.quick ? 120 : 1_200;
    const fleets: FleetFigures[] = [];
    for (const buses of FLEETS) {
      const f = await measureFleet(buses, deltas, fillCapS, ctx.log);
      ctx.log(
        `  ${buses} buses (${f.vehicles} listed, ${(100 * f.placedShare).toFixed(0)} % placed): full ${kb(f.json.full).toFixed(0)} → ${kb(f.compact.full).toFixed(0)} kB, gzip ${kb(f.json.fullGzip).toFixed(1)} → ${kb(f.compact.fullGzip).toFixed(1)} kB; ` +
          `5 s delta gzip ${kb(median(f.json.deltaGzip)).toFixed(1)} → ${kb(median(f.compact.deltaGzip)).toFixed(1)} kB (median of ${f.compact.deltaGzip.length}); ` +
          `decode ${f.decodeMs.json.median.toFixed(1)} → ${f.decodeMs.compact.median.toFixed(1)} ms`,
      );
      fleets.push(f);
    }
    const big = fleets.find((f) => f.buses === 10_000)!;
    const goals = {
      fullBytes: { goal: GOALS.fullBytes, measured: big.compact.full, met: big.compact.full <= GOALS.fullBytes },
      fullGzipBytes: { goal: GOALS.fullGzipBytes, measured: big.compact.fullGzip, met: big.compact.fullGzip <= GOALS.fullGzipBytes },
      deltaGzipBytes: { goal: GOALS.deltaGzipBytes, measured: Math.max(...big.compact.deltaGzip), met: Math.max(...big.compact.deltaGzip) <= GOALS.deltaGzipBytes },
      decodeFaster: { measured: big.decodeMs.compact.median / big.decodeMs.json.median, met: big.decodeMs.compact.median < big.decodeMs.json.median },
    };
    return {
      peer: "today's JSON form of /api/live",
      conditions:
        `the app on the simulator at ${FLEETS.join(' and ')} buses (SIM_BUSES), a ${RATE_LIMIT}/min key, each measured once its snapshot had filled (95 % of the buses listed, and 95 % of those placed or ${fillCapS / 60} min waited; placed when measured: ${fleets.map((f) => `${f.buses} buses ${(100 * f.placedShare).toFixed(0)} %`).join(', ')}); ` +
        `Fleetmap = ?shape=compact (what the browser reads), peer = the JSON form; sizes as sent without compression, and gzipped here at the server's level 6 (its bytes for a browser asking gzip); ` +
        `${deltas} deltas per fleet, each since the version of 5 s before, both forms since the same version; ` +
        `decode = JSON.parse of the body text (and decodeCompactFull) to the LiveSnapshot the components read, in this Node process, median of ${DECODE_RUNS} after 2 warm-up runs; ` +
        `goals at 10,000 buses: full ≤ 1.5 MB, gzip ≤ 150 kB, 5 s delta gzip ≤ 30 kB (kB = 1,000 bytes)`,
      figures: fleets.flatMap(figuresOf),
      details: { fleets, goals },
    };
  },
};
