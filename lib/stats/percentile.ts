// The one percentile of the project: the delay board, the feed's age figures, the history's rollups and the
// benchmarks all use it, so a median or a p95 means the same thing wherever it is shown.

/**
 * The p-quantile (0..1) of `n` ascending values, the i-th (0-based) read by `at`, by linear interpolation between
 * closest ranks (Hyndman & Fan type 7, the default of R, NumPy and spreadsheet PERCENTILE.INC): h = (n − 1)·p,
 * then x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). p = 0.5 is the usual median. null for no values.
 */
function quantileOf(n: number, at: (i: number) => number, p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile: p must be within 0..1, got ${p}`);
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const below = at(lo);
  return below + (h - lo) * (at(Math.min(lo + 1, n - 1)) - below);
}

/** The p-quantile (0..1) of ascending `sorted` values (type 7, see quantileOf); null for no values. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  return quantileOf(sorted.length, (i) => sorted[i]!, p);
}

/**
 * The same p-quantile of a histogram: ascending distinct `values`, each seen `counts[k]` times, without making one
 * value per observation (a month of a network's trips is a quarter of a million).
 */
export function percentileOfCounts(values: readonly number[], counts: readonly number[], p: number): number | null {
  let n = 0;
  for (const c of counts) n += c;
  /** The i-th smallest observation (0-based). */
  const at = (i: number): number => {
    for (let k = 0, seen = 0; k < values.length; k++) if ((seen += counts[k]!) > i) return values[k]!;
    return values[values.length - 1]!;
  };
  return quantileOf(n, at, p);
}
