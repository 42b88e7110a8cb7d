// Route shapes as measured polylines: where a point `d` metres along the line lies and its heading there, and the
// point of the line nearest a position (a GPS fix snapped onto its route).
import { EARTH_RADIUS_M, bearingDeg, distanceM } from './sphere';

const RAD = Math.PI / 180;

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

export interface Projection {
  /** Metres along the line of the nearest point (on the same scale as `cum`). */
  alongM: number;
  /** Metres from the point to the line. */
  offM: number;
  lon: number;
  lat: number;
  /** The segment the nearest point lies on: from vertex `segment` to the next. */
  segment: number;
  /** Heading of that segment. */
  heading: number;
}

/**
 * The point of the line nearest to (lon, lat), searched between `fromM` and `toM` along it (the whole line by
 * default; a window tells apart the passes of a line that comes back on itself, such as a loop). Each segment is
 * flattened around the query point, which at city scale errs by far less than GPS noise. O(n) in vertices; null
 * for a window that holds no part of the line, or a line of no length.
 */
export function projectOnto(line: Polyline, lon: number, lat: number, fromM = 0, toM = line.lengthM): Projection | null {
  const { cum } = line;
  const n = cum.length;
  const lo = Math.max(0, fromM);
  const hi = Math.min(line.lengthM, toM);
  if (n < 2 || hi < lo) return null;
  const mPerLat = EARTH_RADIUS_M * RAD;
  const mPerLon = mPerLat * Math.cos(lat * RAD);
  // The nearest segment and where on it; the projection (and its heading, trigonometry) is built once, at the end:
  // a fix is snapped thousands of times per snapshot at 10,000 buses.
  let bestI = -1;
  let bestT = 0;
  let bestOff2 = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n - 1; i++) {
    const a = cum[i]!;
    const b = cum[i + 1]!;
    if (b < lo || a > hi) continue;
    // Segment from A to B in metres, with the query point at the origin.
    const ax = (line.lon[i]! - lon) * mPerLon;
    const ay = (line.lat[i]! - lat) * mPerLat;
    const dx = (line.lon[i + 1]! - line.lon[i]!) * mPerLon;
    const dy = (line.lat[i + 1]! - line.lat[i]!) * mPerLat;
    const len2 = dx * dx + dy * dy;
    // A repeated vertex has no heading; the segments either side of it hold the same points.
    if (len2 === 0) continue;
    let t = -(ax * dx + ay * dy) / len2;
    // Keep within the window: a segment that straddles an end of it is cut there.
    const span = b - a;
    const tMin = span > 0 ? Math.max(0, (lo - a) / span) : 0;
    const tMax = span > 0 ? Math.min(1, (hi - a) / span) : 1;
    t = Math.min(tMax, Math.max(tMin, t));
    const px = ax + t * dx;
    const py = ay + t * dy;
    const off2 = px * px + py * py;
    if (off2 < bestOff2) {
      bestOff2 = off2;
      bestI = i;
      bestT = t;
    }
  }
  if (bestI < 0) return null;
  const i = bestI;
  const t = bestT;
  return {
    alongM: cum[i]! + t * (cum[i + 1]! - cum[i]!),
    offM: Math.sqrt(bestOff2),
    lon: line.lon[i]! + t * (line.lon[i + 1]! - line.lon[i]!),
    lat: line.lat[i]! + t * (line.lat[i + 1]! - line.lat[i]!),
    segment: i,
    heading: bearingDeg(line.lon[i]!, line.lat[i]!, line.lon[i + 1]!, line.lat[i + 1]!),
  };
}
