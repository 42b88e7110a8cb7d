// `npm test`: every check — typecheck, lint, the import rules (dependency-cruiser, .dependency-cruiser.cjs: no
// circle, no test double in production, no upward import), unit + integration (vitest, the integration suites run the real
// client against the simulator over HTTP), and end-to-end (Playwright in Chromium). Three groups, each group's steps at
// once: the single-threaded checks and the unit tests beside the end-to-end build; then the browser tests alone; then
// the 10,000-bus browser smoke alone. The unit tests ran beside the browser tests until 7 December 2026: the suites
// had grown to keep the two cores at a load of 15 to 19 for twenty minutes, and each CI run then failed two or three
// browser tests on waits (a different few each time) that pass alone and at a load of 5.
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
    ['unit and integration', [bin('vitest', 'vitest.mjs'), 'run']],
  ],
  [['end-to-end', [join(ROOT, 'scripts', 'test', 'e2e.mjs'), '--project=app']]],
  // The 10,000-bus smoke on its own: it loads both cores (playwright.config.ts says why).
  [['end-to-end at 10,000 buses', [join(ROOT, 'scripts', 'test', 'e2e.mjs'), '--project=scale']]],
];

/** Copies a step's output line by line, each line prefixed: two steps' lines never cut into each other. */
function prefixLines(stream, out, prefix, onLine) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      out.write(`${prefix}${line}\n`);
      onLine(line);
    }
  });
  stream.on('end', () => {
    if (rest) {
      out.write(`${prefix}${rest}\n`);
      onLine(rest);
    }
  });
}

// A log kept by its last lines only (CI keeps the tail) would show which tests failed but not why: each failed test
// is noted as it is reported, with the first error line after it, and printed again just before the summary.
const ANSI = /\x1b\[[0-9;]*m/g;
/** A failed test's heading: Playwright's "  1) [app] › e2e/x.spec.ts:12:1 › title ───", vitest's " FAIL  lib/x.test.ts > title". */
const FAILED_TEST = /^\s*(?:\d+\) \[\w+\] › \S+|FAIL\s+\S+\.test\.tsx? >)/;
const FIRST_ERROR = /(Error\b|exceeded|Expected|Received)/;
/** After the first error line, what it compared: Playwright's and vitest's "Expected …", "Received …", "Locator: …". */
const ERROR_DETAIL = /^(?:Expected|Received|Locator|Timeout)\b[^:]*:/;
/** Where in a test file it failed: Playwright's "at /path/e2e/x.spec.ts:97:60", vitest's "❯ lib/x.test.ts:12:5". */
const FAILED_AT = /(?:\bat |❯ )(?:\S*\/)?((?:e2e|lib|components|app|bench|scripts)\/[\w./-]+\.(?:spec|test)\.tsx?:\d+)/;
const failures = [];
function failureNotes(step) {
  let open = null;
  return (raw) => {
    const line = raw.replace(ANSI, '').trim();
    if (FAILED_TEST.test(line)) {
      open = { step, test: line.replace(/\s*─+$/, ''), error: '', details: [], at: '' };
      failures.push(open);
    } else if (open && !open.error && FIRST_ERROR.test(line)) {
      open.error = line;
    } else if (open && open.error && ERROR_DETAIL.test(line) && open.details.length < 4) {
      open.details.push(line);
    } else if (open && open.error && !open.at && FAILED_AT.test(line)) {
      // The line of the test that failed: with the first error line, enough to tell which wait gave up.
      open.at = FAILED_AT.exec(line)[1];
      open = null;
    }
  };
}
const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function run([name, args]) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    const note = failureNotes(name);
    prefixLines(child.stdout, process.stdout, `[${name}] `, note);
    prefixLines(child.stderr, process.stderr, `[${name}] `, note);
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

if (failures.length > 0) {
  const shown = failures.slice(0, 6);
  console.log(`\n=== failed tests (${failures.length}; the first ${shown.length}, with their first error line, what it compared, and where) ===`);
  for (const f of shown) {
    console.log(`[${f.step}] ${clip(f.test, 160)}\n    ${clip(f.error || '(no error line seen)', 220)}${f.at ? ` (${f.at})` : ''}`);
    for (const d of f.details) console.log(`      ${clip(d, 300)}`);
  }
}
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(`checks: ${results.length - failed} passed, ${failed} failed, in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed ? 1 : 0);
