// Route shapes as measured polylines: where a point `d` metres along the line lies, and its heading there.
import { bearingDeg, distanceM } from './sphere';

export interface Polyline {
  lon: Float64Array;
  lat: Float64Array;
  /** Distance from the start to each vertex, scaled so the last one equals the stated length. */
  cum: Float64Array;
  lengthM: number;
}

export interface PointOnLine {
  lon: number;
  lat: number;
  heading: number;
}

export function polyline(coords: readonly (readonly [number, number])[], statedLengthM?: number): Polyline {
  const n = coords.length;
  const lon = new Float64Array(n);
  const lat = new Float64Array(n);
  const cum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lon[i] = coords[i]![0];
    lat[i] = coords[i]![1];
    if (i > 0) cum[i] = cum[i - 1]! + distanceM(lon[i - 1]!, lat[i - 1]!, lon[i]!, lat[i]!);
  }
  const measured = cum[n - 1] ?? 0;
  // Stop distances in the data are measured against the stated length; scale so both agree exactly.
  const lengthM = statedLengthM && statedLengthM > 0 ? statedLengthM : measured;
  if (measured > 0 && lengthM !== measured) for (let i = 0; i < n; i++) cum[i] = (cum[i]! * lengthM) / measured;
  return { lon, lat, cum, lengthM };
}

/** The point `distM` along the line (clamped to its ends), with the heading of the segment it lies on. O(log n). */
export function pointAlong(line: Polyline, distM: number): PointOnLine {
  const { lon, lat, cum } = line;
  const last = cum.length - 1;
  const d = Math.min(Math.max(distM, 0), line.lengthM);
  // Last vertex whose distance is <= d, but never the final vertex, so a segment always follows.
  let lo = 0;
  let hi = last - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cum[mid]! <= d) lo = mid;
    else hi = mid - 1;
  }
  // Skip zero-length segments (repeated vertices) so the heading is never undefined.
  let j = lo;
  while (j < last - 1 && cum[j + 1]! - cum[j]! < 1e-9) j++;
  const segLen = cum[j + 1]! - cum[j]!;
  const t = segLen > 0 ? Math.min(1, Math.max(0, (d - cum[j]!) / segLen)) : 0;
  return {
    lon: lon[j]! + t * (lon[j + 1]! - lon[j]!),
    lat: lat[j]! + t * (lat[j + 1]! - lat[j]!),
    heading: bearingDeg(lon[j]!, lat[j]!, lon[j + 1]!, lat[j + 1]!),
  };
}
