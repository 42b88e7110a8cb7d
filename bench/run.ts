// `npm run bench [-- --only <name>[,<name>]] [--quick]`: runs the benchmarks against the simulator, prints
// one table and writes the figures. Every benchmark that succeeds replaces its own entry in
// bench/results/latest.json (meant to be committed) with its figures and its run's date, command and machine
// (load included), so a full run and an --only rerun write alike and the file holds the newest figure of each;
// then docs/performance.md's tables and the charts are regenerated from the file (bench/readme.ts). --quick
// runs (shorter windows) write bench/results/partial.json.tmp only.
import { loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiLoad, apiLoadGtfsRt } from './api-load';
import { basemap } from './basemap';
import { cluster } from './cluster';
import { estimation } from './estimation';
import { exceptions } from './exceptions';
import { firstBus } from './first-bus';
import { fleetTable } from './fleet-table';
import { freshness } from './freshness';
import { headways } from './headways';
import { history } from './history';
import { BENCH_DIST_DIR } from './support/app-stack';
import { mapUpdate } from './map-update';
import { predictions } from './predictions';
import { gtfsRt } from './gtfs-rt';
import { scale } from './scale';
import { schedulerReplay } from './scheduler-replay';
import { describeMachine } from './support/machine';
import { syncReadme } from './readme';
import { renderTable, type Benchmark } from './support/report';
import { LATEST_RESULTS, mergeResults, readResults, RESULTS_DIR, writeResults, type BenchEntry } from './support/results';
import { upstreamCost } from './upstream-cost';
import { metricsScrape } from './metrics';
import { openDay } from './open-day';

export const ROOT = join(__dirname, '..');
export { LATEST_RESULTS };

export const BENCHMARKS: readonly Benchmark[] = [upstreamCost, freshness, schedulerReplay, estimation, predictions, exceptions, gtfsRt, apiLoad, apiLoadGtfsRt, mapUpdate, firstBus, basemap, fleetTable, history, openDay, cluster, metricsScrape, headways, scale];

export class UsageError extends Error {
  constructor(
    message: string,
    /** Asked for with --help: print the usage and exit 0. */
    readonly isHelp = false,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface RunOptions {
  only: string[] | null;
  quick: boolean;
  /** Simulated days the history benchmark fills its stores with (default 14). */
  days: number | null;
  /** The history benchmark fills its stores again instead of reusing a complete fill. */
  refill: boolean;
}

const USAGE = `usage: npm run bench [-- --only <name>[,<name>...]] [--quick] [--days N] [--refill]\nbenchmarks: ${BENCHMARKS.map((b) => b.name).join(', ')}\n--days N: simulated days of the history benchmark's fill (default 14); --refill: fill them again`;

export function parseArgs(argv: readonly string[]): RunOptions {
  const opts: RunOptions = { only: null, quick: false, days: null, refill: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--refill') opts.refill = true;
    else if (arg === '--days' || arg.startsWith('--days=')) {
      const value = arg === '--days' ? argv[++i] : arg.slice('--days='.length);
      const days = Number(value);
      if (!value || !Number.isInteger(days) || days < 1 || days > 60) throw new UsageError(`--days needs a whole number of days from 1 to 60, got ${value ?? 'nothing'}.\n${USAGE}`);
      opts.days = days;
    }
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!value) throw new UsageError(`--only needs a benchmark name.\n${USAGE}`);
      const names = value.split(',').map((n) => n.trim()).filter(Boolean);
      const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
      if (unknown.length) throw new UsageError(`Unknown benchmark ${unknown.join(', ')}.\n${USAGE}`);
      opts.only = [...(opts.only ?? []), ...names];
    } else if (arg === '--help' || arg === '-h') throw new UsageError(USAGE, true);
    else throw new UsageError(`Unknown option ${arg}.\n${USAGE}`);
  }
  return opts;
}

export interface RunDeps {
  /** Builds the app into the bench's build directory when the sources changed since the last build. */
  buildApp(distDir: string): void;
}

export async function main(argv: readonly string[], deps: RunDeps): Promise<number> {
  const opts = parseArgs(argv);
  const selected = BENCHMARKS.filter((b) => opts.only === null || opts.only.includes(b.name));
  const machine = describeMachine(ROOT);
  const startedAt = new Date();
  console.log(`Fleetmap benchmarks${opts.quick ? ' (quick)' : ''}: ${selected.map((b) => b.name).join(', ')}`);
  console.log(`machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, node ${machine.node}, ${machine.chromium}, load ${machine.loadAverageAtStart}`);
  if (selected.some((b) => b.needsApp)) {
    deps.buildApp(BENCH_DIST_DIR);
  }

  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const results: BenchEntry[] = [];
  const failures: { name: string; error: string }[] = [];
  for (const b of selected) {
    const t0 = Date.now();
    // Each benchmark carries the conditions of its own run: others may be rerun alone later.
    const run = { date: new Date(t0).toISOString(), command, machine: describeMachine(ROOT) };
    console.log(`\n[${b.name}] ${b.title} (load ${run.machine.loadAverageAtStart})`);
    try {
      const r = await b.run({ quick: opts.quick, days: opts.days, refill: opts.refill, log: (line) => console.log(line) });
      const seconds = Math.round((Date.now() - t0) / 1000);
      const loadAverageAtEnd = Math.round(loadavg()[0]! * 100) / 100;
      results.push({ name: b.name, title: b.title, seconds, ...r, run: { ...run, loadAverageAtEnd } });
      console.log(`  done in ${seconds} s (load ${run.machine.loadAverageAtStart} → ${loadAverageAtEnd}); ${r.conditions}`);
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      failures.push({ name: b.name, error });
      console.error(`  FAILED: ${error}`);
    }
  }

  const table = renderTable(results);
  console.log(`\n${table}`);
  for (const f of failures) console.log(`\n${f.name} FAILED (no figures): ${f.error.split('\n')[0]}`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  if (opts.quick) {
    const file = join(RESULTS_DIR, 'partial.json.tmp');
    writeFileSync(file, `${JSON.stringify({ date: startedAt.toISOString(), command, quick: true, results, failures }, null, 2)}\n`);
    console.log(`\nfigures written to ${file.slice(ROOT.length + 1)} (a quick run: bench/results/latest.json is left as it was)`);
  } else if (results.length > 0) {
    const merged = mergeResults(readResults(LATEST_RESULTS), results, BENCHMARKS.map((b) => b.name));
    writeResults(LATEST_RESULTS, merged);
    const changed = syncReadme(ROOT, merged, BENCHMARKS);
    console.log(`\n${results.map((r) => r.name).join(', ')} written to bench/results/latest.json; ${changed.length ? `regenerated ${changed.join(', ')}` : 'docs/performance.md and charts already current'}`);
  }
  return failures.length === 0 ? 0 : 1;
}
