// What every benchmark returns and the one table `npm run bench` prints. The results file is
// bench/support/results.ts.

/** The spread of the samples behind a figure, so that a claim such as "at most 30 min" can be checked. */
export interface Distribution {
  n: number;
  min: number;
  median: number;
  p95: number;
  max: number;
}

export interface Figure {
  metric: string;
  unit: string;
  fleetmap: number | null;
  /** The naive peer's value measured in the same run, when the figure has a peer. */
  peer: number | null;
  better: 'lower' | 'higher';
  /** Who the peer column holds for this figure, when a benchmark compares with more than one peer. */
  peerName?: string;
  /** The samples behind a mean (or any figure drawn from many samples), each side in the figure's unit. */
  distribution?: { fleetmap: Distribution | null; peer: Distribution | null };
}

export interface BenchResult {
  name: string;
  title: string;
  /** What the peer column holds for this benchmark, or null when it has none. */
  peer: string | null;
  /** Conditions a reader needs to reproduce or judge the figures (windows, sizes, how it was measured). */
  conditions: string;
  figures: Figure[];
  details: Record<string, unknown>;
  seconds: number;
}

export interface BenchContext {
  quick: boolean;
  /** --days N (the history benchmark's fill), else null. */
  days?: number | null;
  /** --refill: the history benchmark fills again rather than reuse its last complete fill. */
  refill?: boolean;
  log(line: string): void;
}

// How to add a benchmark: a file in bench/ exporting a Benchmark, listed in BENCHMARKS (bench/run.ts). Its name
// is its key in bench/results/latest.json and the --only argument; each run replaces that entry, with the run's
// date, command and machine, and regenerates docs/performance.md's tables and charts (bench/readme.ts).

export interface Benchmark {
  name: string;
  title: string;
  /** Needs the built app (next start); the map update benchmark does not. */
  needsApp: boolean;
  run(ctx: BenchContext): Promise<Omit<BenchResult, 'name' | 'title' | 'seconds'>>;
}

export function formatValue(v: number | null, unit: string): string {
  if (v === null || !Number.isFinite(v)) return '–';
  const abs = Math.abs(v);
  if (abs === 0) return unit === '' || unit === '×' ? `0${unit}` : `0 ${unit}`;
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  const n = v.toFixed(digits);
  if (unit === '' || unit === '×') return `${n}${unit}`;
  return `${n} ${unit}`;
}

/** Fleetmap's value over the peer's, worded so that a reader sees at once who is ahead. */
export function comparison(f: Figure): string {
  if (f.fleetmap === null || f.peer === null) return '';
  if (f.fleetmap === f.peer) return 'even';
  if (f.fleetmap === 0 || f.peer === 0) return f.better === 'lower' ? (f.fleetmap < f.peer ? 'Fleetmap ahead' : 'peer ahead') : f.fleetmap > f.peer ? 'Fleetmap ahead' : 'peer ahead';
  const fleetmapAhead = f.better === 'lower' ? f.fleetmap < f.peer : f.fleetmap > f.peer;
  const factor = f.better === 'lower' ? Math.max(f.fleetmap, f.peer) / Math.min(f.fleetmap, f.peer) : Math.max(f.fleetmap, f.peer) / Math.min(f.fleetmap, f.peer);
  return `${fleetmapAhead ? 'Fleetmap' : 'peer'} ${factor >= 10 ? factor.toFixed(0) : factor.toFixed(2)}× ${f.better === 'lower' ? 'lower' : 'higher'}`;
}

export function renderTable(results: readonly BenchResult[]): string {
  const rows: string[][] = [['benchmark', 'metric', 'Fleetmap', 'peer', 'peer value', 'Fleetmap vs peer']];
  for (const r of results) {
    r.figures.forEach((f, i) => {
      rows.push([i === 0 ? r.title : '', f.metric, formatValue(f.fleetmap, f.unit), f.peer === null ? '' : (f.peerName ?? r.peer ?? ''), f.peer === null ? '' : formatValue(f.peer, f.unit), comparison(f)]);
    });
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}
