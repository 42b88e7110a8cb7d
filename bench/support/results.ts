// bench/results/latest.json: the newest figures of every benchmark, each with the conditions of its own run.
// A run (full, or `--only` some) replaces the entries of the benchmarks it ran and keeps the others', so the
// file always holds the newest figure of each and says when and on what each was measured. `--quick` runs go
// to partial.json.tmp: their shorter windows are for trying the machinery, not for citing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Machine } from './machine';
import type { BenchResult } from './report';

export const RESULTS_FORMAT = 2;

export const RESULTS_DIR = join(__dirname, '..', 'results');
export const LATEST_RESULTS = join(RESULTS_DIR, 'latest.json');

export interface RunInfo {
  /** When the benchmark itself started (ISO). */
  date: string;
  command: string;
  machine: Machine;
  /** 1-minute load average when the benchmark ended: with machine.loadAverageAtStart, how busy the machine was. */
  loadAverageAtEnd: number | null;
}

export interface BenchEntry extends BenchResult {
  run: RunInfo;
}

export interface ResultsFile {
  format: typeof RESULTS_FORMAT;
  /** Benchmark name → its newest figures. */
  benchmarks: Record<string, BenchEntry>;
}

export function readResults(path: string): ResultsFile {
  if (!existsSync(path)) return { format: RESULTS_FORMAT, benchmarks: {} };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ResultsFile>;
  if (parsed.format !== RESULTS_FORMAT || typeof parsed.benchmarks !== 'object' || parsed.benchmarks === null) {
    throw new Error(`${path} is not a results file of format ${RESULTS_FORMAT}.`);
  }
  return parsed as ResultsFile;
}

/** The file with these entries replacing those of the same name, in `order` (names it lacks go last). */
export function mergeResults(file: ResultsFile, entries: readonly BenchEntry[], order: readonly string[]): ResultsFile {
  const all = { ...file.benchmarks };
  for (const e of entries) all[e.name] = e;
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const names = Object.keys(all).sort((a, b) => rank(a) - rank(b));
  return { format: RESULTS_FORMAT, benchmarks: Object.fromEntries(names.map((n) => [n, all[n]!])) };
}

export function writeResults(path: string, file: ResultsFile): void {
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}
