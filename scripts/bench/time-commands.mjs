// `node scripts/bench/time-commands.mjs [--test]`: times the README's two commands as a new user meets them, on a fresh
// clone of this repository's HEAD in a temporary directory: `npm install` (as .ci/run runs it), then `npm start`
// up to the first answer of its map page (the first start builds), and with --test `npm test` (with the machine's
// PostgreSQL and Redis, as .ci/run sets them). Writes bench/results/commands.json and regenerates the README's
// sentence from it (bench/readme.ts), so the times the README gives are measured, never typed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { require as tsxRequire } from 'tsx/cjs/api';
import { ROOT } from '../server/next-build.mjs';

const { describeMachine } = tsxRequire('../../bench/support/machine.ts', import.meta.url);
const { COMMANDS_RESULTS, syncReadme } = tsxRequire('../../bench/readme.ts', import.meta.url);
const { BENCHMARKS, LATEST_RESULTS } = tsxRequire('../../bench/run.ts', import.meta.url);
const { readResults } = tsxRequire('../../bench/support/results.ts', import.meta.url);
const { freePort } = tsxRequire('../../lib/testing/harness.ts', import.meta.url);

const withTest = process.argv.includes('--test');
const load = () => Math.round(loadavg()[0] * 100) / 100;
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;

function runStep(name, args, cwd, env = {}) {
  console.log(`\n=== ${name} (${args.join(' ')}) ===`);
  const started = Date.now();
  const res = spawnSync('npm', args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) throw new Error(`${name} failed (exit ${res.status})`);
  return seconds(started);
}

/** `npm start` until GET / answers 200; then the server is stopped. */
async function timeStart(cwd) {
  const port = await freePort();
  console.log(`\n=== npm start (port ${port}) ===`);
  const started = Date.now();
  const child = spawn('npm', ['start'], { cwd, stdio: 'inherit', detached: true, env: { ...process.env, PORT: String(port) } });
  let exited = null;
  child.on('exit', (code) => (exited = code));
  try {
    for (;;) {
      if (exited !== null) throw new Error(`npm start exited (${exited}) before it answered`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status === 200) return seconds(started);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

const machine = describeMachine(ROOT);
if (machine.commit.includes('uncommitted')) console.warn('Uncommitted changes are not in the clone: the clone is HEAD.');
const cache = join(homedir(), '.npm', '_cacache');
const npmCacheWarm = existsSync(cache) && readdirSync(cache).length > 0;
const dir = mkdtempSync(join(tmpdir(), 'fleetmap-fresh-'));
try {
  const clone = spawnSync('git', ['clone', '--quiet', ROOT, dir], { stdio: 'inherit' });
  if (clone.status !== 0) throw new Error('git clone failed');
  const install = runStep('npm install', ['install', '--no-audit', '--no-fund'], dir);
  const start = await timeStart(dir);
  const test = withTest
    ? runStep('npm test', ['test'], dir, {
        CI: 'true',
        TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      })
    : null;
  const result = {
    date: new Date().toISOString(),
    command: `node scripts/bench/time-commands.mjs${withTest ? ' --test' : ''}`,
    machine: { ...machine, commit: machine.commit.replace(' (with uncommitted changes)', ''), loadAverageAtEnd: load() },
    // Whether npm's own cache held packages before the install: a first install on a new machine downloads them too.
    npmCacheWarm,
    seconds: { install, start, test },
  };
  writeFileSync(join(ROOT, COMMANDS_RESULTS), JSON.stringify(result, null, 2) + '\n');
  console.log(`\nnpm install ${install} s, npm start to the first page ${start} s${test === null ? '' : `, npm test ${test} s`}`);
  const changed = syncReadme(ROOT, readResults(LATEST_RESULTS), BENCHMARKS);
  console.log(`${COMMANDS_RESULTS} written; ${changed.length ? `regenerated ${changed.join(', ')}` : 'README already current'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
