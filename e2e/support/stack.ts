// Starts a simulator and an app server (the built app, through scripts/server/server.mjs) for end-to-end tests, benchmarks and
// soak runs. Both bind to 127.0.0.1 on free ports and stop by themselves if the test process goes away.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '../../lib/model/transit';
import { zoneAtLocalHour } from '../../lib/sim/clock';
import { freePort, launch, ROOT, type Proc } from '../../lib/testing/harness';

export { freePort, ROOT };

const TSX_CLI = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const APP_SERVER = join(ROOT, 'scripts', 'server', 'server.mjs');

export type KeyKind = 'business' | 'standard' | 'narrow';

export interface StackOptions {
  /** Which key the app is given. */
  key?: KeyKind;
  simSpeed?: number;
  buses?: number;
  seed?: number;
  /** Simulator per-key per-minute limit. */
  rateLimit?: number;
  /** Extra environment for the app server. */
  env?: Record<string, string>;
  /** The app's port, when the test must know its address before it starts (an OIDC redirect address). */
  appPort?: number;
  /** Extra environment for the simulator. */
  simEnv?: Record<string, string>;
  /** Build directory of the app (default: FLEETMAP_E2E_DIST or .next-e2e). */
  distDir?: string;
  /**
   * A spec file that injects faults, or needs a clean start (no earlier spec's fault in the health), names its
   * own stack: Playwright then starts a worker, and so a simulator and an app, for it alone.
   */
  ownStack?: string;
  /** The start's steps and its processes' output, so a start that hangs can say where and why (startWithin). */
  progress?: StartProgress;
}

/** What a start has done so far, and what its processes have printed. */
export class StartProgress {
  readonly steps: string[] = [];
  readonly outputs = new Map<string, () => string>();

  describe(): string {
    const tails = [...this.outputs].map(([name, out]) => `--- ${name}, last output:\n${out().slice(-2_000) || '(nothing)'}`);
    return [this.steps.join('; ') || 'nothing', ...tails].join('\n');
  }
}

export interface Stack {
  appUrl: string;
  /** Simulator origin; the partner API is under /api/v1/partner, admin under /__admin. */
  simAdminUrl: string;
  simBaseUrl: string;
  /** The key the app was given (a random canary for the business key). Tests search for it; never print it. */
  apiKey: string;
  keys: Record<KeyKind, string>;
  setFaults(faults: Record<string, unknown>): Promise<void>;
  resetFaults(): Promise<void>;
  simStats(): Promise<SimStats>;
  resetSimStats(): Promise<void>;
  /** Everything the app server printed so far (stdout + stderr). */
  appLogs(): string;
  /** The app's embedded store (a temporary directory of this stack's own, removed by stop()). */
  dataDir: string;
  /**
   * Stops the app (SIGTERM: the recorder writes its last batch) and starts it again on the same port and store;
   * `whileStopped` runs in between (e.g. filling the store).
   */
  restartApp(whileStopped?: () => Promise<void>): Promise<void>;
  stopSimulator(): Promise<void>;
  startSimulator(): Promise<void>;
  stop(): Promise<void>;
}

export interface SimStats {
  total: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  [k: string]: unknown;
}

/** One canary business key per test run, shared with the build so the build can be searched for it. */
export function canaryKey(): string {
  if (!process.env.FLEETMAP_CANARY_KEY) process.env.FLEETMAP_CANARY_KEY = `canary-${randomBytes(12).toString('hex')}`;
  return process.env.FLEETMAP_CANARY_KEY;
}

// A start takes a few seconds of CPU (Next.js, the embedded store's WebAssembly, the first request); with the
// machine's two cores shared by a load of 20, that was seen to take over 90 s. The deadline only stops a start that hung.
const START_DEADLINE_MS = 240_000;

/**
 * Waits until the process has said it listens (its `ready` line) and its address answers. The line matters: the
 * address alone could be answered by another server that took the port first, while this one failed to listen.
 */
async function waitFor(url: string, what: string, proc: ChildProcess, output: () => string, ready: RegExp, timeoutMs = START_DEADLINE_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with code ${proc.exitCode}:\n${output().slice(-3000)}`);
    try {
      if (!ready.test(output())) throw new Error('not listening yet');
      await answersWithin(url, 2_000);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs} ms:\n${output().slice(-3000)}`);
}

/**
 * One GET, body included, within `ms`, or a rejection. Bounded by a timer of its own as well as the abort: a fetch
 * given only `AbortSignal.timeout()` was seen to outlive it on a loaded machine, and the start loop then waited on
 * one request until the fixture's own deadline, though the server answered.
 */
async function answersWithin(url: string, ms: number): Promise<void> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no answer from ${url} within ${ms} ms`));
    }, ms);
  });
  try {
    await Promise.race([fetch(url, { signal: abort.signal }).then((res) => res.arrayBuffer()), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A port taken between freePort() and the server's listen (by another stack's server): try another. */
const PORT_TAKEN = /EADDRINUSE|already in use/;

/** Starts a server on `fixed`, or on a free port, trying up to three when the chosen one was taken meanwhile. */
async function onFreePort(fixed: number | undefined, what: string, mark: (step: string) => void, start: (port: number) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const port = fixed ?? (await freePort());
    try {
      return await start(port);
    } catch (err) {
      if (fixed !== undefined || attempt >= 3 || !PORT_TAKEN.test((err as Error).message)) throw err;
      mark(`${what} port ${port} taken`);
    }
  }
}

/** The app server or the simulator: node with `args`, stopped with the test (lib/testing/harness.ts launch). */
function launchNode(args: string[], env: Record<string, string | undefined>): Proc {
  return launch(process.execPath, args, { ...env, NEXT_TELEMETRY_DISABLED: '1' });
}

async function kill(proc: ChildProcess | null) {
  if (!proc || proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve();
    }, 8000);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/**
 * Starts a stack within `ms`, or fails naming the step it hung in (a fixture's own timeout says only that it ran
 * out). The start itself is not stopped: its processes end with the worker (run-with-parent).
 */
export async function startWithin<T extends Stack>(ms: number, start: (progress: StartProgress) => Promise<T>): Promise<T> {
  const progress = new StartProgress();
  const began = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stack did not start within ${ms} ms (${Date.now() - began} ms in); done so far: ${progress.describe()}`)), ms);
  });
  try {
    return await Promise.race([start(progress), hung]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const began = Date.now();
  const mark = (step: string) => opts.progress?.steps.push(`${step} after ${Date.now() - began} ms`);
  const keys: Record<KeyKind, string> = {
    business: canaryKey(),
    standard: `standard-${randomBytes(6).toString('hex')}`,
    narrow: `narrow-${randomBytes(6).toString('hex')}`,
  };
  const rateLimit = opts.rateLimit ?? 300;
  const simKeys = [
    { key: keys.business, plan: 'business', scopes: SCOPES, limit_per_minute: rateLimit },
    { key: keys.standard, plan: 'standard', scopes: SCOPES.filter((s) => s !== 'gps:read'), limit_per_minute: rateLimit },
    { key: keys.narrow, plan: 'business', scopes: ['routes:read', 'stops:read'], limit_per_minute: rateLimit },
  ];
  let simPort = 0;
  const simUrl = () => `http://127.0.0.1:${simPort}`;
  const simEnv = () => ({
    SIM_PORT: String(simPort),
    SIM_ADMIN: '1',
    SIM_KEYS: JSON.stringify(simKeys),
    SIM_SPEED: String(opts.simSpeed ?? 1),
    SIM_SEED: String(opts.seed ?? 42),
    // Midday in the simulator whatever the real hour, so that trips run (a test of the night asks for 3).
    SIM_TIMEZONE: zoneAtLocalHour(12),
    ...(opts.buses ? { SIM_BUSES: String(opts.buses) } : {}),
    SIM_EXIT_WITH_PARENT: '1',
    ...opts.simEnv,
  });
  let sim: Proc | null = null;
  const startSimulator = async () => {
    sim = launchNode([TSX_CLI, join(ROOT, 'scripts', 'data', 'sim.ts')], simEnv());
    opts.progress?.outputs.set('simulator', sim.output);
    const s = sim;
    await waitFor(`${simUrl()}/__admin/clock`, 'The simulator', s.proc, s.output, /simulator listening at/);
  };
  await onFreePort(undefined, 'simulator', mark, async (port) => {
    simPort = port;
    await startSimulator();
  });
  const simAdminUrl = simUrl();
  const simBaseUrl = `${simAdminUrl}/api/v1/partner`;
  mark(`simulator answering on ${simPort}`);

  const apiKey = keys[opts.key ?? 'business'];
  // Every stack records into a store of its own: PGlite allows one process per directory, and specs must not
  // see each other's history.
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetmap-e2e-data-'));
  const appEnv = {
    FLEETMAP_DIST_DIR: opts.distDir ?? process.env.FLEETMAP_E2E_DIST ?? '.next-e2e',
    PARTNER_API_BASE_URL: simBaseUrl,
    PARTNER_API_KEY: apiKey,
    FLEETMAP_DATA_DIR: dataDir,
    ...opts.env,
  };
  let appPort = 0;
  let app: Proc;
  let earlierLogs = '';
  const startApp = async () => {
    try {
      await waitFor(`http://127.0.0.1:${appPort}/api/status`, 'The app server', app.proc, app.output, /Ready on http/);
    } catch (err) {
      await kill(app.proc);
      throw err;
    }
  };
  try {
    await onFreePort(opts.appPort, 'app', mark, async (port) => {
      appPort = port;
      app = launchNode([APP_SERVER, '--port', String(appPort), '--host', '127.0.0.1'], appEnv);
      opts.progress?.outputs.set('app', app.output);
      mark(`app launched on ${appPort}`);
      await startApp();
    });
  } catch (err) {
    await kill((sim as Proc | null)?.proc ?? null);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const appUrl = `http://127.0.0.1:${appPort}`;
  mark('app answering');

  const admin = async (path: string, body?: unknown) => {
    const res = await fetch(`${simAdminUrl}/__admin/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`simulator admin ${path}: HTTP ${res.status}`);
    return res.json();
  };

  return {
    appUrl,
    simAdminUrl,
    simBaseUrl,
    apiKey,
    keys,
    setFaults: async (f) => void (await admin('faults', f)),
    resetFaults: async () => void (await admin('faults/reset', {})),
    simStats: async () => (await admin('stats')) as SimStats,
    resetSimStats: async () => void (await admin('stats/reset', {})),
    appLogs: () => earlierLogs + app.output(),
    dataDir,
    restartApp: async (whileStopped) => {
      await kill(app.proc);
      earlierLogs += app.output();
      await whileStopped?.();
      app = launchNode([APP_SERVER, '--port', String(appPort), '--host', '127.0.0.1'], appEnv);
      await startApp();
    },
    stopSimulator: async () => kill((sim as Proc | null)?.proc ?? null),
    startSimulator,
    stop: async () => {
      await kill(app.proc);
      await kill((sim as Proc | null)?.proc ?? null);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
