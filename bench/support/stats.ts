// Summary statistics for benchmark samples, with the project's one percentile (linear interpolation between
// closest ranks, as on the delay board).
import { percentile as percentileOfSorted } from '../../lib/stats/percentile';

export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** The p-quantile of unsorted samples. */
export function percentile(xs: readonly number[], p: number): number | null {
  return percentileOfSorted([...xs].sort((a, b) => a - b), p);
}

export function median(xs: readonly number[]): number | null {
  return percentile(xs, 0.5);
}

export function max(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((a, b) => (b > a ? b : a));
}

/** min/median/p95/max of samples; null when there are none. */
export function distribution(xs: readonly number[]): { n: number; min: number; median: number; p95: number; max: number } | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return { n: sorted.length, min: sorted[0]!, median: percentileOfSorted(sorted, 0.5)!, p95: percentileOfSorted(sorted, 0.95)!, max: sorted.at(-1)! };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
