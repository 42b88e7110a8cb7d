// Viewers that follow /api/live's deltas as the browser does (lib/client/queries.ts fetchLive): each starts with
// a full answer in the compact form (`?shape=compact`), then every 5 s asks what changed since the version it
// holds (`&since=<epoch>-<version>`) and applies it (applyCompactDelta); a delta that does not apply to the
// snapshot held is a broken chain, counted, and the viewer asks for a full answer in the same poll, as the browser
// does. A full answer names the roster of the buses' names (lib/model/live-roster.ts): a viewer that does not hold
// that version asks for it (`?shape=roster&roster=<version>`), as the browser does. The browser's HTTP cache is played too: the answers are `no-cache` with an ETag, so a browser asking the
// very URL of its last answer again (the version had not moved) sends If-None-Match and reads a 304 as that
// answer. Accept-Encoding is Chromium's, so the server compresses as it would for a browser.
//
// Each viewer has its own keep-alive connection (an Agent with one socket), as each browser has its own: the
// client's pool never queues a request, and the connections opened are counted to show it (the server keeps an
// idle connection 65 s, scripts/server/server.mjs, far past the beat: one connection per viewer is expected). The generator runs
// in the benchmark's process, on the cores the server uses, so it must stay cheap: a decoded answer is shared by
// every viewer that got the same answer (same ETag) on the same held snapshot (the same object), so 1,000 viewers
// at one version decompress, parse and apply each answer once (ChainMemo); which is still exactly what each
// would compute on its own, the results being pure functions of the two. Viewers that reached one version by
// different ways (a full answer, a chain of deltas) are given one snapshot of it when the two are equal, so their
// chains join again rather than each keeping a copy of the fleet. Its own CPU is measured and reported.
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { applyCompactDelta, decodeCompactFull, decodeRoster, LIVE_COMPACT_SHAPE, LIVE_ROSTER_SHAPE, liveVersionTag, type CompactAnswer, type CompactRoster, type LiveRoster, type LiveSnapshot } from '../../lib/model';
import { schedulePolls } from './viewers';

/** What Chromium sends: the server answers br. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** A request with no answer by then fails (the browser has no such limit; a poll must end for the run to end). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Full answers kept decoded for viewers that ask one (a few versions: viewers start over an interval). */
const FULL_ANSWERS_KEPT = 8;
/**
 * Held snapshots whose answers are kept, the newest, and versions whose one snapshot is kept: viewers polling every
 * 5 s hold two or three versions at once. Bounded because each kept answer is a snapshot that is itself a key: kept
 * by a WeakMap, a full answer decoded at the start could hold every later snapshot of the chain alive (a soak at
 * 10,000 buses ran this process out of its 4 GB heap in 47 minutes).
 */
export const HELD_KEPT = 16;

export interface DeltaViewerCounts {
  /** Polls made (one per beat that found the viewer idle). */
  polls: number;
  /** Polls that failed: an error status, no answer, an answer not compact, or a delta that did not apply. */
  failed: number;
  /** Beats skipped because the viewer's previous poll was still running. */
  skipped: number;
  /** HTTP requests sent (a broken chain's poll sends two, a full answer naming a roster not held one more). */
  requests: number;
  byStatus: Record<string, number>;
  /** 200 answers by kind, and 304s (the version had not moved). */
  fullAnswers: number;
  deltaAnswers: number;
  notModified: number;
  /** Deltas that did not follow the snapshot held (each also a failed poll). */
  chainBreaks: number;
  /**
   * Versions a viewer reached as a snapshot not equal to the one another viewer reached for that version (by a full
   * answer against a chain of deltas, say): 0 when the server's full answers and deltas agree.
   */
  divergent: number;
  /** Body bytes as received (compressed), every request. */
  bytes: number;
  /** TCP connections the viewers opened (one per viewer, plus any the server closed and a viewer opened again). */
  connections: number;
}

export interface DeltaViewerReport extends DeltaViewerCounts {
  viewers: number;
  intervalMs: number;
  /** Each request's time from sending to the last byte of its answer, ms, in the order they ended. */
  latencyMs: number[];
  /** This process's CPU while the viewers ran (the generator and anything else the bench process did), % of one core. */
  clientCpuPercent: number;
  /**
   * This process's event-loop delay while the viewers ran, ms: a stall here lengthens the latencies measured without
   * the server being slow, so a long latency is only the server's when this stayed short.
   */
  clientLoopDelayMs: { p99: number; max: number };
  seconds: number;
  /** Distinct snapshot versions the viewers reached. */
  versionsSeen: number;
}

export interface DeltaViewers {
  /** Counts so far (a copy). */
  counts(): DeltaViewerCounts;
  /** Each request's latency so far, ms, in the order they ended (the live list: read, never change). */
  latencies(): readonly number[];
  /** The newest snapshot any viewer holds. */
  newest(): LiveSnapshot | undefined;
  stop(): Promise<DeltaViewerReport>;
}

/** One answer as a viewer holds it: its ETag and body bytes as received, and how they are encoded. */
export interface ReceivedAnswer {
  etag: string;
  encoding: string | undefined;
  body: Buffer;
}

export type Followed =
  | { kind: 'full'; snapshot: LiveSnapshot; roster: string }
  | { kind: 'delta'; snapshot: LiveSnapshot }
  /** A full answer naming a roster not decoded yet: ask for it (ChainMemo.addRoster), then follow the answer again. */
  | { kind: 'roster'; version: string }
  | { kind: 'broken' }
  | { kind: 'unreadable'; why: string };

function decodeBody<T = CompactAnswer>(a: ReceivedAnswer): T {
  const raw = a.encoding === 'br' ? brotliDecompressSync(a.body) : a.encoding === 'gzip' ? gunzipSync(a.body) : a.encoding === 'deflate' ? inflateSync(a.body) : a.body;
  return JSON.parse(raw.toString('utf8')) as T;
}

/**
 * What a viewer holding `held` makes of an answer, computed once per held snapshot and answer: a full answer
 * decoded, a delta applied, or a broken chain (a delta that does not follow `held`, or one that came with nothing
 * held). Snapshots are never changed once made, so viewers share them.
 */
export class ChainMemo {
  private readonly onHeld = new Map<LiveSnapshot, Map<string, Followed>>();
  private readonly onNothing = new Map<string, Followed>();
  /** Rosters decoded, by version (every viewer asks for its own, and they are the same). */
  private readonly rosters = new Map<string, LiveRoster>();
  /**
   * One snapshot per version reached, the newest HELD_KEPT versions. Without it, viewers that reached a version by
   * different ways held different (equal) objects, so the memo answered each apart and made each its own next
   * snapshot; once more than HELD_KEPT were held, every eviction split one more chain off, until each of 100 viewers
   * held a copy of the 10,000-bus fleet of its own (a heap snapshot of a soak: 400,000 buses' records made in six
   * minutes, the heap growing 10 MB a minute) and decoded every delta for itself.
   */
  private readonly byVersion = new Map<string, LiveSnapshot>();
  /** Answers decoded (not found in the memo). */
  decoded = 0;
  /** Snapshots of a version reached before that were not equal to the one kept (each viewer then keeps its own). */
  divergent = 0;

  /** How many held snapshots have answers kept (at most HELD_KEPT). */
  get heldKept(): number {
    return this.onHeld.size;
  }

  /** A roster answer, decoded; null when it is not one. */
  addRoster(answer: ReceivedAnswer): LiveRoster | null {
    let r: CompactRoster;
    try {
      r = decodeBody<CompactRoster>(answer);
    } catch {
      return null;
    }
    if (r.shape !== LIVE_ROSTER_SHAPE) return null;
    let decoded = this.rosters.get(r.version);
    if (!decoded) {
      decoded = decodeRoster(r);
      if (this.rosters.size >= FULL_ANSWERS_KEPT) this.rosters.clear();
      this.rosters.set(r.version, decoded);
    }
    return decoded;
  }

  follow(held: LiveSnapshot | undefined, answer: ReceivedAnswer): Followed {
    let memo: Map<string, Followed>;
    if (held === undefined) memo = this.onNothing;
    else {
      let kept = this.onHeld.get(held);
      if (kept === undefined) {
        if (this.onHeld.size >= HELD_KEPT) this.onHeld.delete(this.onHeld.keys().next().value!);
        this.onHeld.set(held, (kept = new Map<string, Followed>()));
      }
      memo = kept;
    }
    let f = memo.get(answer.etag);
    if (f === undefined) {
      f = this.decode(held, answer);
      // Not kept: once the roster is decoded, the same answer is followed again.
      if (f.kind === 'roster') return f;
      if (held === undefined && memo.size >= FULL_ANSWERS_KEPT) memo.clear();
      memo.set(answer.etag, f);
    }
    return f;
  }

  private decode(held: LiveSnapshot | undefined, answer: ReceivedAnswer): Followed {
    this.decoded++;
    let a: CompactAnswer;
    try {
      a = decodeBody(answer);
    } catch (e) {
      return { kind: 'unreadable', why: e instanceof Error ? e.message : String(e) };
    }
    if (a.shape !== LIVE_COMPACT_SHAPE) return { kind: 'unreadable', why: `shape ${String(a.shape)}` };
    if (a.kind === 'full') {
      const roster = this.rosters.get(a.roster);
      return roster === undefined ? { kind: 'roster', version: a.roster } : { kind: 'full', snapshot: this.joined(decodeCompactFull(a, roster)), roster: a.roster };
    }
    const next = held === undefined ? null : applyCompactDelta(held, a);
    return next === null ? { kind: 'broken' } : { kind: 'delta', snapshot: this.joined(next) };
  }

  /** The snapshot kept for `s`'s version when it is equal to `s` (then `s` is let go), else `s`. */
  private joined(s: LiveSnapshot): LiveSnapshot {
    const tag = liveVersionTag(s.epoch, s.version);
    const kept = this.byVersion.get(tag);
    if (kept === undefined) {
      if (this.byVersion.size >= HELD_KEPT) this.byVersion.delete(this.byVersion.keys().next().value!);
      this.byVersion.set(tag, s);
      return s;
    }
    if (isDeepStrictEqual(kept, s)) return kept;
    this.divergent++;
    return s;
  }
}

/** The browser's question (lib/client/queries.ts liveUrl, without a watched bus). */
export function compactLiveUrl(appUrl: string, held: Pick<LiveSnapshot, 'epoch' | 'version'> | undefined): string {
  return `${appUrl}/api/live?shape=compact${held ? `&since=${liveVersionTag(held.epoch, held.version)}` : ''}`;
}

interface Viewer {
  agent: Agent;
  held: LiveSnapshot | undefined;
  /** The version of the roster it holds. */
  roster: string | null;
  /** The browser cache's entry: the last URL answered 200, and its answer. */
  cachedUrl: string | null;
  cached: ReceivedAnswer | null;
}

interface Got {
  status: number;
  etag: string | undefined;
  encoding: string | undefined;
  body: Buffer;
}

function get(agent: Agent, url: string, headers: Record<string, string>, onSocket: (s: Socket) => void): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const etag = res.headers.etag;
        const encoding = res.headers['content-encoding'];
        resolve({ status: res.statusCode ?? 0, etag: typeof etag === 'string' ? etag : undefined, encoding: typeof encoding === 'string' ? encoding : undefined, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('socket', onSocket);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export function startDeltaViewers(appUrl: string, opts: { viewers: number; intervalMs: number }): DeltaViewers {
  const counts: DeltaViewerCounts = { polls: 0, failed: 0, skipped: 0, requests: 0, byStatus: {}, fullAnswers: 0, deltaAnswers: 0, notModified: 0, chainBreaks: 0, divergent: 0, bytes: 0, connections: 0 };
  const latencyMs: number[] = [];
  const versions = new Set<string>();
  let newest: LiveSnapshot | undefined;
  const memo = new ChainMemo();
  const viewers: Viewer[] = Array.from({ length: opts.viewers }, () => ({ agent: new Agent({ keepAlive: true, maxSockets: 1 }), held: undefined, roster: null, cachedUrl: null, cached: null }));
  const sockets = new WeakSet<Socket>();
  const onSocket = (s: Socket) => {
    if (sockets.has(s)) return;
    sockets.add(s);
    counts.connections++;
  };
  const bump = (key: string) => (counts.byStatus[key] = (counts.byStatus[key] ?? 0) + 1);

  /** One HTTP request of a viewer, counted; null when it had no answer. */
  const request1 = async (v: Viewer, url: string, extra: Record<string, string>): Promise<Got | null> => {
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...extra };
    counts.requests++;
    const t = performance.now();
    let got: Got;
    try {
      got = await get(v.agent, url, headers, onSocket);
    } catch {
      bump('error');
      return null;
    }
    latencyMs.push(performance.now() - t);
    counts.bytes += got.body.length;
    bump(String(got.status));
    return got;
  };

  /**
   * One request of a viewer, played through its browser cache (the live answers': a roster, `url`, is asked once
   * per version and kept decoded); the answer as the page's fetch would read it, or null (counted).
   */
  const ask = async (v: Viewer, url: string | null = null): Promise<ReceivedAnswer | null> => {
    if (url !== null) {
      const got = await request1(v, url, {});
      return got !== null && got.status === 200 && got.etag !== undefined ? { etag: got.etag, encoding: got.encoding, body: got.body } : null;
    }
    url = compactLiveUrl(appUrl, v.held);
    const revalidate = url === v.cachedUrl && v.cached !== null;
    const headers: Record<string, string> = {};
    if (revalidate) headers['if-none-match'] = v.cached!.etag;
    const got = await request1(v, url, headers);
    if (got === null) return null;
    if (got.status === 304 && revalidate) {
      counts.notModified++;
      return v.cached;
    }
    if (got.status !== 200 || got.etag === undefined) return null;
    v.cachedUrl = url;
    v.cached = { etag: got.etag, encoding: got.encoding, body: got.body };
    return v.cached;
  };

  /**
   * `answer` followed from `held`; a full answer naming a roster the viewer does not hold has it asked first, as
   * fetchLive does (null when that fails, or the server no longer has that version: the browser then asks again).
   */
  const follow = async (v: Viewer, held: LiveSnapshot | undefined, answer: ReceivedAnswer | null): Promise<Followed | null> => {
    if (answer === null) return null;
    const f = memo.follow(held, answer);
    const wanted = f.kind === 'roster' ? f.version : f.kind === 'full' ? f.roster : null;
    if (wanted === null || wanted === v.roster) return f;
    const got = await ask(v, `${appUrl}/api/live?${new URLSearchParams({ shape: 'roster', roster: wanted })}`);
    const roster = got === null ? null : memo.addRoster(got);
    if (roster === null || roster.version !== wanted) return null;
    v.roster = wanted;
    return f.kind === 'roster' ? memo.follow(held, answer) : f;
  };

  const poll = async (index: number): Promise<void> => {
    const v = viewers[index]!;
    counts.polls++;
    let followed = await follow(v, v.held, await ask(v));
    if (followed?.kind === 'broken') {
      // fetchLive: a delta the held snapshot cannot take; start again from a full answer.
      counts.chainBreaks++;
      v.held = undefined;
      followed = await follow(v, undefined, await ask(v));
      counts.failed++;
      if (followed?.kind === 'full') install(v, followed.snapshot, 'full');
      return;
    }
    if (followed === null || followed.kind === 'unreadable' || followed.kind === 'roster') {
      counts.failed++;
      return;
    }
    if (followed.kind === 'full' || followed.kind === 'delta') install(v, followed.snapshot, followed.kind);
  };

  const install = (v: Viewer, s: LiveSnapshot, kind: 'full' | 'delta') => {
    if (kind === 'full') counts.fullAnswers++;
    else counts.deltaAnswers++;
    v.held = s;
    if (newest === undefined || s.epoch !== newest.epoch || s.version > newest.version) newest = s;
    versions.add(liveVersionTag(s.epoch, s.version));
  };

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const schedule = schedulePolls(opts.viewers, opts.intervalMs, poll);
  return {
    newest: () => newest,
    latencies: () => latencyMs,
    counts: () => ({ ...counts, skipped: schedule.skipped(), divergent: memo.divergent, byStatus: { ...counts.byStatus } }),
    async stop() {
      await schedule.stop();
      const cpu = process.cpuUsage(cpu0);
      const seconds = (performance.now() - t0) / 1000;
      loopDelay.disable();
      for (const v of viewers) v.agent.destroy();
      return {
        ...counts,
        skipped: schedule.skipped(),
        divergent: memo.divergent,
        viewers: opts.viewers,
        intervalMs: opts.intervalMs,
        latencyMs,
        clientCpuPercent: (100 * (cpu.user + cpu.system)) / 1e6 / seconds,
        clientLoopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
        seconds,
        versionsSeen: versions.size,
      };
    },
  };
}
