import { join } from 'node:path';
import { freePort, launch, maxInAnyMinute, recordingProxy, ROOT, until, type Proc } from './harness';

export { freePort, maxInAnyMinute, type Proc };

// Real processes for the cluster's integration test and benchmark: a redis-server of the test's own on a free
// port (never the machine's shared one: the test stops and restarts it), instances (scripts/test/instance.ts) and a
// counting proxy in front of the simulator for each instance, which notes the moment every upstream request of
// that instance arrives. Every process binds 127.0.0.1 and stops by itself when the test process goes away
// (lib/testing/harness.ts launch).

const TSX_CLI = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Waits for `check` to return a value (not undefined), asking every `everyMs`; fails past `timeoutMs` with `what`. */
export async function waitUntil<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 200): Promise<T> {
  return (await until(what, check, (v) => v !== undefined, timeoutMs, everyMs)) as T;
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A redis-server of the test's own, keeping nothing on disk: a restart loses every key, as a real crash may. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let p: Proc | null = null;
  const start = async () => {
    p = launch('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no']);
    const proc = p;
    await waitUntil('redis-server answering', () => (proc.output().includes('Ready to accept connections') ? true : proc.proc.exitCode !== null ? Promise.reject(new Error(proc.output())) : undefined), 30_000);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const proc = p;
      if (!proc || proc.proc.exitCode !== null) return;
      proc.proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

export interface Instance {
  url: string;
  /** The instance process's own pid (not its run-with-parent wrapper's). */
  pid: number;
  proc: Proc;
  stop(): Promise<void>;
}

/** One instance (scripts/test/instance.ts) on a free port; resolves once it answers. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const p = launch(TSX_CLI, ['--conditions=react-server', join(ROOT, 'scripts', 'test', 'instance.ts'), '--port', '0'], { NODE_ENV: 'production', AUTH_MODE: 'none', ...env });
  // Starting tsx and the server modules takes tens of seconds on a loaded two-core machine.
  const ready = await waitUntil(
    'instance started',
    () => {
      if (p.proc.exitCode !== null) return Promise.reject(new Error(`instance exited:\n${p.output().slice(-3000)}`));
      const m = /\{"msg":"instance ready","port":(\d+),"pid":(\d+)\}/.exec(p.output());
      return m ? { port: Number(m[1]), pid: Number(m[2]) } : undefined;
    },
    180_000,
  );
  return {
    url: `http://127.0.0.1:${ready.port}`,
    pid: ready.pid,
    proc: p,
    async stop() {
      if (p.proc.exitCode !== null) return;
      try {
        process.kill(ready.pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
      p.proc.kill('SIGTERM');
      await p.exited;
    },
  };
}

export interface CountingProxy {
  baseUrl: string;
  /** When each request arrived, ms. */
  arrivals: number[];
  close(): Promise<void>;
}

/** Forwards every request to `target` (an origin) and notes when it arrived. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const arrivals: number[] = [];
  const proxy = await recordingProxy(() => arrivals.push(Date.now()), target);
  return { baseUrl: proxy.origin, arrivals, close: proxy.close };
}

export interface InstanceView {
  role: string | null;
  epoch: number;
  version: number;
  vehicles: number;
  coordinationLost: boolean;
}

/** What an instance serves now (a full /api/live) and its role; null when it does not answer within 3 s. */
export async function viewOf(url: string): Promise<InstanceView | null> {
  try {
    const [live, integration] = await Promise.all([
      fetch(`${url}/api/live`, { signal: AbortSignal.timeout(3_000) }).then((r) => r.json() as Promise<{ epoch: string; version: number; vehicles: unknown[]; health: { coordination?: unknown } }>),
      fetch(`${url}/api/integration`, { signal: AbortSignal.timeout(3_000) }).then((r) => r.json() as Promise<{ instance: { role: string } | null }>),
    ]);
    return { role: integration.instance?.role ?? null, epoch: Number(live.epoch), version: live.version, vehicles: live.vehicles.length, coordinationLost: live.health.coordination !== undefined };
  } catch {
    return null;
  }
}
