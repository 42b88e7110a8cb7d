import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// scripts/data/sim.ts as a process: it prints where it listens, and stops by itself (SIM_EXIT_AFTER_S, or when its
// parent dies with SIM_EXIT_WITH_PARENT=1).

const repo = fileURLToPath(new URL('../..', import.meta.url));
const env = (extra: Record<string, string>) => ({ ...process.env, SIM_PORT: '0', SIM_BUSES: '30', ...extra });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run sim', () => {
  it('prints the base URL and the demo keys, serves, and exits after SIM_EXIT_AFTER_S', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/data/sim.ts'], { cwd: repo, env: env({ SIM_EXIT_AFTER_S: '3' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 15_000);
      child.stdout.on('data', () => {
        const m = /listening at (http:\/\/127\.0\.0\.1:\d+\/api\/v1\/partner)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const res = await fetch(`${baseUrl}/status`, { headers: { Authorization: 'Bearer demo-narrow-key' } });
    expect(res.status).toBe(200);
    expect(await exited).toBe(0);
    expect(out).toMatch(/demo-business-key\s+API Business\s+300\/min/);
    expect(out).toMatch(/demo-standard-key\s+API Standard/);
    expect(out).toMatch(/admin: off/);
  });

  it('exits when its parent dies with SIM_EXIT_WITH_PARENT=1', async () => {
    // The shell starts the simulator in the background, prints its pid and exits after a moment.
    const parent = spawn('sh', ['-c', `"${process.execPath}" --import tsx scripts/data/sim.ts >/dev/null 2>&1 & echo $!; sleep 3`], {
      cwd: repo,
      env: env({ SIM_EXIT_WITH_PARENT: '1', SIM_EXIT_AFTER_S: '60' }),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => parent.on('exit', resolve));
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const stillAlive = alive(pid);
    if (stillAlive) process.kill(pid, 'SIGTERM');
    expect(stillAlive).toBe(false);
  });
});
