import { createServer as createNetServer } from 'node:net';

// What the test stacks share (the vitest integration suites, the cluster harness and its benchmark): one wait on a
// condition, one free port, one count of requests per sliding minute. Deadlines only stop a hung test: they are
// many times what a step takes on an idle machine, so that two loaded cores still pass.

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
