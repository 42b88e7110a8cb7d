// `node scripts/test/repeat-tests.mjs [--runs N] [--busy-cores K] [--out FILE] [-- vitest args]`: the unit and
// integration suite N times in a row (default 10), optionally while K busy-looping processes keep cores busy (as a
// second job on a CI machine would), and a line per run: exit code, duration, load average, failed tests. Stops
// nothing on a failure: the point is to count them. Writes the runs as JSON to --out when given.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../server/next-build.mjs';

const dashdash = process.argv.indexOf('--');
const own = dashdash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashdash);
const vitestArgs = dashdash === -1 ? [] : process.argv.slice(dashdash + 1);
const { values } = parseArgs({ args: own, options: { runs: { type: 'string', default: '10' }, 'busy-cores': { type: 'string', default: '0' }, out: { type: 'string' } } });
const runs = Number(values.runs);
const busyCores = Number(values['busy-cores']);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(busyCores) || busyCores < 0) {
  console.error('usage: node scripts/test/repeat-tests.mjs [--runs N ≥ 1] [--busy-cores K ≥ 0] [--out FILE] [-- vitest args]');
  process.exit(2);
}

// Each busy process spins in 200 ms slices, and between slices hears its IPC channel close when this one exits.
const SPIN = "process.on('disconnect', () => process.exit(0)); (function spin() { const t = Date.now(); while (Date.now() - t < 200); setImmediate(spin); })();";
const busy = Array.from({ length: busyCores }, () => spawn(process.execPath, ['-e', SPIN], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }));
const stopBusy = () => busy.forEach((p) => p.kill());
process.on('exit', stopBusy);

function once(i) {
  return new Promise((resolve) => {
    const started = Date.now();
    const load = [];
    const sampler = setInterval(() => load.push(loadavg()[0]), 5_000);
    let out = '';
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...vitestArgs], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      clearInterval(sampler);
      out = out.replace(/\x1b\[[0-9;]*m/g, '');
      const failed = [...out.matchAll(/^\s*(?:×|FAIL)\s+(.+)$/gm)].map((m) => m[1].trim());
      const tests = /Tests\s+(.+)$/m.exec(out)?.[1]?.trim() ?? 'no summary';
      const run = {
        run: i + 1,
        exitCode: code,
        seconds: Math.round((Date.now() - started) / 1000),
        meanLoad1: load.length ? Number((load.reduce((a, b) => a + b, 0) / load.length).toFixed(1)) : null,
        maxLoad1: load.length ? Number(Math.max(...load).toFixed(1)) : null,
        tests,
        failed: [...new Set(failed)],
      };
      console.log(JSON.stringify(run));
      if (code !== 0) console.log(out.split('\n').slice(-80).join('\n'));
      resolve(run);
    });
  });
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once(i));
stopBusy();
const green = results.filter((r) => r.exitCode === 0).length;
const summary = { runs, busyCores, green, secondsPerRun: results.map((r) => r.seconds), at: new Date().toISOString(), results };
console.log(`${green} of ${runs} runs green with ${busyCores} busy core(s); seconds per run: ${summary.secondsPerRun.join(', ')}`);
if (values.out) writeFileSync(values.out, JSON.stringify(summary, null, 2) + '\n');
process.exit(green === runs ? 0 : 1);
