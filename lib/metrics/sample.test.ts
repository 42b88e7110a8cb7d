import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScrape } from '@/lib/testing/prometheus';

// docs/operations.md shows a scrape of a running app, written by scripts/bench/metrics-sample.mjs. It must parse,
// and hold every fleetmap_ metric the server registers (a new one means taking the sample again).

const ROOT = join(__dirname, '..', '..');
const START = '<!-- sample scrape: written by `node scripts/bench/metrics-sample.mjs` from a running app; do not edit by hand -->';
const END = '<!-- end of the sample scrape -->';

function registeredNames(): string[] {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .flatMap((f) => [...readFileSync(join(__dirname, f), 'utf8').matchAll(/name: '(fleetmap_[a-z_]+)'/g)].map((m) => m[1]!));
}

describe('the sample scrape in docs/operations.md', () => {
  it('parses, and holds every fleetmap_ metric the server registers', () => {
    const page = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const section = page.slice(page.indexOf(START), page.indexOf(END));
    expect(section.length, 'the markers').toBeGreaterThan(START.length);
    const text = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const scrape = parseScrape(text);
    const names = registeredNames();
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !scrape.has(n)), 'run node scripts/bench/metrics-sample.mjs').toEqual([]);
  });
});
