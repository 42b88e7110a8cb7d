// `node scripts/bench/bench-readme.mjs [--check]`: regenerates docs/performance.md's tables and the charts in
// docs/performance/ from bench/results/latest.json (`npm run bench` does it after every run); --check only says
// whether they differ, and exits 1 if so.
import { require as tsxRequire } from 'tsx/cjs/api';
import { join } from 'node:path';
import { ROOT } from '../server/next-build.mjs';

const { BENCHMARKS, LATEST_RESULTS } = tsxRequire('../../bench/run.ts', import.meta.url);
const { expectedFiles, syncReadme } = tsxRequire('../../bench/readme.ts', import.meta.url);
const { readResults } = tsxRequire('../../bench/support/results.ts', import.meta.url);

const file = readResults(LATEST_RESULTS);
if (process.argv.includes('--check')) {
  const stale = expectedFiles(ROOT, file, BENCHMARKS).filter((f) => f.want !== f.have);
  for (const f of stale) console.log(`${join(f.path)} differs from bench/results/latest.json`);
  process.exitCode = stale.length ? 1 : 0;
} else {
  const changed = syncReadme(ROOT, file, BENCHMARKS);
  console.log(changed.length ? `regenerated ${changed.join(', ')}` : 'docs/performance.md and charts already current');
}
