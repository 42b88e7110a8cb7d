import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';

// What the test stacks share (the vitest integration suites, the cluster harness and its benchmark, the end-to-end
// stack in e2e/support): one wait on a condition, one free port, one way to launch a process that stops with the
// test, one recording proxy, one count of requests per sliding minute. Deadlines only stop a hung test: they are
// many times what a step takes on an idle machine, so that two loaded cores still pass.

export const ROOT = join(__dirname, '..', '..');
const RUN_WITH_PARENT = join(ROOT, 'scripts', 'test', 'run-with-parent.mjs');

/**
 * Asks `probe` every `everyMs` until `ok` holds for its answer, and returns that answer; fails past `timeoutMs`
 * naming `what` and the last answer.
 */
export async function until<T>(what: string, probe: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(v)?.slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A port nothing listens on now (127.0.0.1). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The most requests in any 60 s window [t, t + 60 s) of these times. */
export function maxInAnyMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let from = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[from]! >= 60_000) from++;
    best = Math.max(best, i - from + 1);
  }
  return best;
}

export interface Proc {
  proc: ChildProcess;
  /** What it printed so far (stdout and stderr; the last megabyte or two). */
  output(): string;
  exited: Promise<void>;
}

/**
 * Runs `cmd args` from the repository's root, through scripts/test/run-with-parent.mjs: the process stops by itself
 * when the test process goes away, whatever ends it.
 */
export function launch(cmd: string, args: string[], env: Record<string, string | undefined> = {}): Proc {
  let out = '';
  const proc = spawn(process.execPath, [RUN_WITH_PARENT, cmd, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const append = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  proc.stdout?.on('data', append);
  proc.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { proc, output: () => out, exited };
}

export interface RecordingProxy {
  /** The proxy's origin (http://127.0.0.1:port). */
  origin: string;
  /** Where requests go (an origin); requests that came before it was set wait for it. */
  setTarget(origin: string): void;
  close(): Promise<void>;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 that shows `record` every request (its URL at the target) as it arrives:
 * the cluster's tests count each instance's upstream requests with it, the end-to-end tests which requests the app
 * made. The target may be given now or later (the app starts polling before the test knows the simulator's port).
 */
export async function recordingProxy(record: (url: URL) => void, target?: string): Promise<RecordingProxy> {
  let setTarget!: (origin: string) => void;
  const targetKnown = new Promise<string>((resolve) => (setTarget = resolve));
  if (target !== undefined) setTarget(target);
  const server: Server = createHttpServer((req, res) => {
    void targetKnown.then((origin) => {
      const url = new URL(req.url ?? '/', origin);
      record(url);
      const up = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    setTarget,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Upstream requests as a recording proxy saw them (path after /api/v1/partner). */
export interface UpstreamLog {
  paths: { at: number; path: string }[];
}

/** A recording proxy in front of a partner API (the simulator) that notes each request's path in `log`. */
export async function partnerRecordingProxy(log: UpstreamLog): Promise<RecordingProxy & { baseUrl: string }> {
  const proxy = await recordingProxy((url) => {
    if (url.pathname.startsWith('/api/v1/partner')) log.paths.push({ at: Date.now(), path: url.pathname.slice('/api/v1/partner'.length) });
  });
  return { ...proxy, baseUrl: `${proxy.origin}/api/v1/partner` };
}
