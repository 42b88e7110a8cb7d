// `npm test`: every check — typecheck, lint, the import rules (dependency-cruiser, .dependency-cruiser.cjs: no
// circle, no test double in production, no upward import), unit + integration (vitest, the integration suites run the real
// client against the simulator over HTTP), and end-to-end (Playwright in Chromium). Three groups, each group's steps at
// once: the single-threaded checks beside the end-to-end build; then the unit tests beside the browser tests; then the
// 10,000-bus browser smoke alone. Alone,
// the unit tests left about 40 % of the two cores idle (they mostly wait on simulated clocks) and the browser tests
// 16 % (they mostly wait on the pages' polls); run one after the other they took 229 + 528 s (29 November 2026).
// Each step's lines are printed whole, prefixed with its name (steps run at once). Every step runs even if an earlier one
// failed, so one run shows everything that is wrong.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../server/next-build.mjs';

const bin = (pkg, file) => join(ROOT, 'node_modules', ...pkg.split('/'), ...file.split('/'));
/** What the import rules look at: every module of the app, its server and its scripts (`npm run deps` runs the same). */
const DEPCRUISE_ARGS = ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'lib', 'app', 'components', 'scripts', 'proxy.ts', 'instrumentation.ts'];
/** Groups run one after another; the steps of a group run at once (their output is then interleaved). */
const groups = [
  [
    ['typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
    ['lint', [bin('eslint', 'bin/eslint.js'), '--max-warnings=0', '.']],
    ['imports', [bin('dependency-cruiser', 'bin/dependency-cruise.mjs'), ...DEPCRUISE_ARGS]],
    ['end-to-end build', [join(ROOT, 'scripts', 'test', 'e2e.mjs'), '--build-only']],
  ],
  [
    ['unit and integration', [bin('vitest', 'vitest.mjs'), 'run']],
    ['end-to-end', [join(ROOT, 'scripts', 'test', 'e2e.mjs'), '--project=app']],
  ],
  // The 10,000-bus smoke on its own: it loads both cores (playwright.config.ts says why).
  [['end-to-end at 10,000 buses', [join(ROOT, 'scripts', 'test', 'e2e.mjs'), '--project=scale']]],
];

/** Copies a step's output line by line, each line prefixed: two steps' lines never cut into each other. */
function prefixLines(stream, out, prefix) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (rest) out.write(`${prefix}${rest}\n`);
  });
}

function run([name, args]) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    prefixLines(child.stdout, process.stdout, `[${name}] `);
    prefixLines(child.stderr, process.stderr, `[${name}] `);
    const done = (ok) => resolve({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (err) => {
      console.error(`${name}: ${err.message}`);
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

const started = Date.now();
const results = [];
for (const group of groups) results.push(...(await Promise.all(group.map(run))));

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(`checks: ${results.length - failed} passed, ${failed} failed, in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed ? 1 : 0);
