import { describe, expect, it } from 'vitest';
import { readableCarried } from './scale';
import { carryParts, describeCarried, type CarriedRun } from './scale-carry';
import type { BenchEntry } from './support/results';

const run = (buses: number, parts: Partial<Record<'sizes' | 'budget' | 'pages' | 'hold' | 'soak', unknown>> = {}): CarriedRun => ({ buses, sizes: null, budget: null, pages: null, hold: null, soak: null, ...parts });

function entry(runs: CarriedRun[], partsFrom?: unknown): BenchEntry {
  return {
    name: 'scale',
    title: 'Scale',
    seconds: 1,
    peer: null,
    conditions: '',
    figures: [],
    details: { runs, goals: {}, ...(partsFrom ? { partsFrom } : {}) },
    run: { date: '2026-11-28T01:27:02.530Z', command: 'npm run bench -- --only scale', loadAverageAtEnd: 1, machine: { commit: 'f561b6d' } as BenchEntry['run']['machine'] },
  };
}

describe('carrying the scale benchmark parts a run did not measure', () => {
  it('fills each fleet from the run before, says where from, and leaves what this run measured alone', () => {
    const runs = [run(855, { sizes: 'new sizes 855' }), run(10_000, { sizes: 'new sizes 10k' })];
    const previous = entry([run(855, { sizes: 'old', budget: 'budget 855', pages: 'pages 855' }), run(10_000, { sizes: 'old', budget: 'budget 10k', hold: 'hold 10k', soak: 'soak 10k' })]);
    const from = carryParts(runs, new Set(['sizes']), previous);
    expect(runs).toEqual([
      run(855, { sizes: 'new sizes 855', budget: 'budget 855', pages: 'pages 855' }),
      run(10_000, { sizes: 'new sizes 10k', budget: 'budget 10k', hold: 'hold 10k', soak: 'soak 10k' }),
    ]);
    const origin = { commit: 'f561b6d', date: '2026-11-28T01:27:02.530Z' };
    expect(from).toEqual({ budget: origin, pages: origin, viewers: origin, soak: origin });
    expect(describeCarried(from)).toBe('budget, pages, viewers, soak (2026-11-28 01:27 UTC at f561b6d)');
  });

  it('keeps the origin of a part the run before had itself carried, and carries nothing the run before lacked', () => {
    const runs = [run(855), run(10_000, { hold: 'hold now' })];
    const older = { commit: 'abc1234', date: '2026-11-27T20:00:00.000Z' };
    const previous = entry([run(855, { sizes: 's' }), run(10_000, { sizes: 's', soak: 'soak then' })], { soak: older });
    const from = carryParts(runs, new Set(['viewers']), previous);
    expect(from).toEqual({ sizes: { commit: 'f561b6d', date: '2026-11-28T01:27:02.530Z' }, soak: older });
    expect(runs[1]!.soak).toBe('soak then');
    expect(runs[0]!.budget).toBeNull();
    expect(describeCarried(from)).toBe('sizes (2026-11-28 01:27 UTC at f561b6d); soak (2026-11-27 20:00 UTC at abc1234)');
  });

  it('does not carry a part whose data the code can no longer read', () => {
    const runs = [run(10_000)];
    const from = carryParts(runs, new Set(['budget']), entry([run(10_000, { sizes: { old: true }, soak: 'soak' })]), (part) => part !== 'sizes');
    expect(runs[0]!.sizes).toBeNull();
    expect(Object.keys(from)).toEqual(['soak']);
  });

  it('carries nothing without a run before, and says nothing', () => {
    const runs = [run(10_000)];
    expect(carryParts(runs, new Set(['sizes']), undefined)).toEqual({});
    expect(describeCarried({})).toBeNull();
  });
});

describe("the scale benchmark's check of a carried part", () => {
  it('refuses viewers measured before the load generator reported its event-loop delay, and reads those after', () => {
    const hold = { viewers: 1_000, polls: { failed: 0, clientCpuPercent: 9.3 }, latencyMs: { p50: 7.6, p99: 1_948, max: 3_427 }, minShareRatio: 0.55, upstreamPerMinute: 750 };
    expect(readableCarried('viewers', { hold, oneViewer: { upstreamPerMinute: 753 } })).toBe(false);
    expect(readableCarried('viewers', { hold: { ...hold, polls: { ...hold.polls, clientLoopDelayMs: { max: 42 } } }, oneViewer: { upstreamPerMinute: 753 } })).toBe(true);
  });

  it('refuses sizes without the roster (before compact-3)', () => {
    expect(readableCarried('sizes', { vehicles: 10_000, json: { full: 1 }, compact: { full: 1 } })).toBe(false);
  });
});
