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

/** Great-circle distance in metres (spherical Earth; the error is far below GPS noise at city scale). */
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
