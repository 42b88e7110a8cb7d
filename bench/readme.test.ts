import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, renderPerformance, renderSoak, README_END, README_START } from './readme';
import { BENCHMARKS, LATEST_RESULTS } from './run';
import { mergeResults, readResults, type BenchEntry } from './support/results';

const ROOT = join(__dirname, '..');

describe('docs/performance.md and the charts against bench/results/latest.json', () => {
  it('hold exactly what the results file gives (regenerate with `node scripts/bench/bench-readme.mjs`)', () => {
    const stale = expectedFiles(ROOT, readResults(LATEST_RESULTS), BENCHMARKS).filter((f) => f.want !== f.have);
    expect(stale.map((f) => f.path)).toEqual([]);
  });
});

describe('results', () => {
  const entry = (name: string, date: string, value: number): BenchEntry => ({
    name,
    title: name.toUpperCase(),
    peer: null,
    conditions: 'c',
    details: {},
    seconds: 5,
    figures: [{ metric: 'm', unit: 's', fleetmap: value, peer: null, better: 'lower' }],
    run: { date, command: `npm run bench -- --only ${name}`, loadAverageAtEnd: 1.5, machine: { cores: 2, cpuModel: 'x', memoryGiB: 1, os: 'o', node: 'v20', chromium: 'c', loadAverageAtStart: 3.25, commit: 'abc1234' } },
  });

  it('an --only rerun replaces its own entry, with its own date, and keeps every other', () => {
    const before = mergeResults({ format: 2, benchmarks: {} }, [entry('b', '2026-01-01T00:00:00Z', 1), entry('a', '2026-01-01T00:00:00Z', 2)], ['a', 'b']);
    expect(Object.keys(before.benchmarks)).toEqual(['a', 'b']);
    const after = mergeResults(before, [entry('b', '2026-02-02T10:00:00Z', 7)], ['a', 'b']);
    expect(after.benchmarks.a).toEqual(before.benchmarks.a);
    expect(after.benchmarks.b!.figures[0]!.fleetmap).toBe(7);
    expect(after.benchmarks.b!.run.date).toBe('2026-02-02T10:00:00Z');
  });

  it('renders each benchmark with when and under what load it ran, and names those never run', () => {
    const file = mergeResults({ format: 2, benchmarks: {} }, [entry('a', '2026-02-02T10:00:00Z', 2)], ['a', 'b']);
    const section = renderPerformance(file, [{ name: 'a' }, { name: 'b' }]);
    expect(section.startsWith(README_START)).toBe(true);
    expect(section.endsWith(README_END)).toBe(true);
    expect(section).toContain('| A | 2026-02-02 10:00 | 5 s | 3.25 → 1.5 | `npm run bench -- --only a` | abc1234 |');
    expect(section).toContain('Not measured yet: `b`');
    expect(section).toContain('| A         | m      | 2.00 s   |');
  });
});

describe('the soak table', () => {
  it('shows the heap at the same time of day on each later day, and the verdict', () => {
    const MB = 2 ** 20;
    const table = renderSoak({
      date: '2026-11-26T07:34:00Z',
      command: 'node scripts/test/wall-soak.mjs --speed 168',
      machine: { loadAverageAtStart: 14.36 },
      options: { speed: 168, path: '/wall' },
      simulatedHours: 184.8,
      baseline: { usedHeap: 10 * MB, workerHeap: 17 * MB, nodes: 137, listeners: 455 },
      end: { usedHeap: 10.5 * MB, workerHeap: 17.5 * MB, nodes: 140, listeners: 450 },
      trendPerSimulatedDay: 0.012,
      daily: [
        { day: 1, usedHeap: 10.2 * MB, growth: 0.02 },
        { day: 2, usedHeap: 9.9 * MB, growth: -0.01 },
      ],
      pageLoads: 1,
      consoleErrors: 0,
      within: true,
    });
    expect(table).toContain('| `/wall` | 2026-11-26 07:34, 14.36 | 168×, 7.7 days | 10.00 → 10.50 MB (+5.0 %) | day 1: 10.20 MB (+2.0 %); day 2: 9.90 MB (-1.0 %) | +1.2 % |');
    expect(table).toContain('Verdict of the run: within the 10 % a day');
  });
});
