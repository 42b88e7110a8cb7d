// Positions as [longitude, latitude] (GeoJSON's order): the rule for a position that can be drawn, and bounds.

export type LngLat = readonly [number, number];

/** [west, south, east, north]. */
export type LonLatBounds = [number, number, number, number];

/** Both numbers finite, latitude within ±90° and longitude within ±180°: anything else cannot be drawn. */
export function isLonLat(lon: number | null, lat: number | null): boolean {
  return lon !== null && lat !== null && Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** The bounds of the points, or null when there are none. */
export function lonLatBounds(points: Iterable<LngLat>): LonLatBounds | null {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const [lon, lat] of points) {
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  }
  return w === Infinity ? null : [w, s, e, n];
}
