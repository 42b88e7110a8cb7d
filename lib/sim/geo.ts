// Small spherical geometry for positions along route shapes; metres and degrees, heading clockwise from north.

export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function distanceM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const a = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from the first point to the second, 0..360. */
export function bearingDeg(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const y = Math.sin((lon2 - lon1) * RAD) * Math.cos(lat2 * RAD);
  const x = Math.cos(lat1 * RAD) * Math.sin(lat2 * RAD) - Math.sin(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.cos((lon2 - lon1) * RAD);
  return normalizeHeading(Math.atan2(y, x) / RAD);
}

export function normalizeHeading(deg: number): number {
  const h = deg % 360;
  return h < 0 ? h + 360 : h;
}

/** The point `eastM`/`northM` metres away (flat-earth approximation, fine for GPS noise and parking bays). */
export function offsetLonLat(lon: number, lat: number, eastM: number, northM: number): [number, number] {
  const dLat = northM / (EARTH_RADIUS_M * RAD);
  const dLon = eastM / (EARTH_RADIUS_M * RAD * Math.cos(lat * RAD));
  return [lon + dLon, lat + dLat];
}

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
