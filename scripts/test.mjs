// `npm test`: every check, in order — typecheck, lint, unit + integration (vitest, the integration suites
// run the real client against the simulator over HTTP), and end-to-end (Playwright in Chromium).
// Every step runs even if an earlier one failed, so one run shows everything that is wrong.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './next-build.mjs';

const bin = (pkg, file) => join(ROOT, 'node_modules', ...pkg.split('/'), ...file.split('/'));
const steps = [
  ['typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
  ['lint', [bin('eslint', 'bin/eslint.js'), '--max-warnings=0', '.']],
  ['unit and integration', [bin('vitest', 'vitest.mjs'), 'run']],
  ['end-to-end', [join(ROOT, 'scripts', 'e2e.mjs')]],
];

const results = [];
for (const [name, args] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const res = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  results.push({ name, ok: res.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(`checks: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
