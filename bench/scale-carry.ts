// The scale benchmark's parts that a run did not measure (BENCH_SCALE_PARTS), carried from the run before it. A
// whole run takes about two hours; a change to one room is measured by its part alone, and the table keeps every
// other figure as it was last measured. Each carried part keeps the commit and date it was measured at
// (details.partsFrom): the conditions and docs/scale.md say which parts came from which run, so no figure passes
// for newer than it is.
import type { BenchEntry } from './support/results';

export const SCALE_PARTS = ['sizes', 'budget', 'pages', 'viewers', 'soak'] as const;
export type ScalePart = (typeof SCALE_PARTS)[number];

/** Where each part's figures sit in a fleet's run. */
const RUN_KEY = { sizes: 'sizes', budget: 'budget', pages: 'pages', viewers: 'hold', soak: 'soak' } as const;

export interface PartOrigin {
  commit: string;
  /** ISO date the run that measured it started. */
  date: string;
}

/** A fleet's run as bench/scale.ts keeps it: each part's data, or null when not measured. */
export type CarriedRun = { buses: number } & { [K in (typeof RUN_KEY)[ScalePart]]: unknown };

export interface CarryDetails {
  /** The carried parts, each with the run that measured it; a part not named here was measured by this entry's own run. */
  partsFrom?: Partial<Record<ScalePart, PartOrigin>>;
}

/**
 * Fills the parts this run did not measure from `previous` (latest.json's scale entry), fleet by fleet, and says
 * where each came from. A part the previous entry had carried keeps its own origin.
 */
export function carryParts(
  runs: CarriedRun[],
  measured: ReadonlySet<ScalePart>,
  previous: BenchEntry | undefined,
  /** Whether an older part's data still has the shape this code reads (a part that changed shape is not carried). */
  readable: (part: ScalePart, data: unknown) => boolean = () => true,
): Partial<Record<ScalePart, PartOrigin>> {
  const from: Partial<Record<ScalePart, PartOrigin>> = {};
  if (!previous) return from;
  const details = previous.details as CarryDetails & { runs?: CarriedRun[] };
  for (const part of SCALE_PARTS) {
    if (measured.has(part)) continue;
    const key = RUN_KEY[part];
    let carried = false;
    for (const run of runs) {
      const old = details.runs?.find((r) => r.buses === run.buses)?.[key];
      if (run[key] === null && old !== null && old !== undefined && readable(part, old)) {
        run[key] = old;
        carried = true;
      }
    }
    if (carried) from[part] = details.partsFrom?.[part] ?? { commit: previous.run.machine.commit, date: previous.run.date };
  }
  return from;
}

/** "budget, pages (2026-11-28 01:27 UTC at f561b6d)": the carried parts grouped by the run they came from. */
export function describeCarried(from: Partial<Record<ScalePart, PartOrigin>>): string | null {
  const byRun = new Map<string, ScalePart[]>();
  for (const part of SCALE_PARTS) {
    const o = from[part];
    if (!o) continue;
    const label = `${o.date.slice(0, 10)} ${o.date.slice(11, 16)} UTC at ${o.commit}`;
    byRun.set(label, [...(byRun.get(label) ?? []), part]);
  }
  if (byRun.size === 0) return null;
  return [...byRun].map(([label, parts]) => `${parts.join(', ')} (${label})`).join('; ');
}
