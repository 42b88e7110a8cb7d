// The one percentile of the project: the delay board, the feed's age figures and the benchmarks all use it, so
// a median or a p95 means the same thing wherever it is shown.

/**
 * The p-quantile (0..1) of ascending `sorted` values by linear interpolation between closest ranks
 * (Hyndman & Fan type 7, the default of R, NumPy and spreadsheet PERCENTILE.INC): h = (n − 1)·p, then
 * x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). p = 0.5 is the usual median. null for no values.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile: p must be within 0..1, got ${p}`);
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const below = sorted[lo]!;
  const above = sorted[Math.min(lo + 1, n - 1)]!;
  return below + (h - lo) * (above - below);
}
