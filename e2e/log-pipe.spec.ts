// The server when what reads its logs goes away (a closed pipe: a log shipper restarted, a terminal gone). Every
// log line then fails with EPIPE; unhandled, each failure was an uncaught exception that Next.js logged to the same
// closed pipe, and the process spun at a full core and stopped answering. Here the server's output pipes are
// closed while its feed keeps failing against an upstream that refuses connections (each failure is a log line):
// it must go on answering, without spinning.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveSnapshot } from '@/lib/model';
import { expect, test } from './support/fixtures';
import { ROOT } from './support/stack';

test.describe.configure({ timeout: 300_000 });

/** CPU seconds (user + system) the process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The server's own pid: the child of run-with-parent, which the test started. */
function childOf(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one child of ${pid}, found ${children.length}`);
  return Number(children[0]);
}

test('with its log pipe closed the server keeps answering and does not spin', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetmap-log-pipe-'));
  // run-with-parent stops the server if this test process goes away.
  const proc = spawn(process.execPath, [join(ROOT, 'scripts', 'test', 'run-with-parent.mjs'), process.execPath, join(ROOT, 'scripts', 'server', 'server.mjs'), '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      FLEETMAP_DIST_DIR: process.env.FLEETMAP_E2E_DIST ?? '.next-e2e',
      FLEETMAP_DATA_DIR: dataDir,
      // Nothing listens on port 9 of this machine: every poll fails at once, and logs a line.
      PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner',
      PARTNER_API_KEY: 'log-pipe-test-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const appUrl = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const m = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (m) resolve(m[1]!);
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', onData);
      proc.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output.slice(-2_000)}`)));
    });
    // An answer not come in 20 s is asked again (the poll's own timeout decides): on a loaded machine the first
    // answer of a new server can take that long, and a spinning server never answers at all.
    const lastErrorAt = async () => {
      const res = await fetch(`${appUrl}/api/live`, { signal: AbortSignal.timeout(20_000) }).catch(() => null);
      // 503 while the app is still starting (its live handler not yet set).
      if (res === null || res.status !== 200) return 0;
      // Sign-in off: everyone is an administrator, whose answers carry the full health.
      return ((await res.json()) as LiveSnapshot).fullHealth?.lastError?.at ?? 0;
    };
    let before = 0;
    await expect.poll(async () => (before = await lastErrorAt()), { timeout: 120_000 }).toBeGreaterThan(0);

    proc.stdout!.destroy();
    proc.stderr!.destroy();
    // Another upstream failure, so another log line met the closed pipe; asked of the server, which must answer.
    await expect.poll(lastErrorAt, { timeout: 120_000 }).toBeGreaterThan(before);
    const pid = childOf(proc.pid!);
    const c0 = cpuSeconds(pid);
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 5_000));
    const perSecond = (cpuSeconds(pid) - c0) / ((Date.now() - t0) / 1000);
    // A spinning server used a whole core; an idle one with a failing feed, a few per cent.
    expect(perSecond, 'CPU seconds per second after the pipes closed').toBeLessThan(0.5);
    const res = await fetch(`${appUrl}/api/health/live`, { signal: AbortSignal.timeout(20_000) });
    expect(res.status).toBe(200);
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
