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

/** Every drawable position of a collection's points and lines (a network's stops and route shapes). */
export function* featurePositions(features: Iterable<{ geometry: { type: 'Point'; coordinates: readonly [number, number] } | { type: 'LineString'; coordinates: readonly (readonly [number, number])[] } }>): Generator<LngLat> {
  for (const f of features) {
    const coords = f.geometry.type === 'Point' ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const [lon, lat] of coords) if (isLonLat(lon, lat)) yield [lon, lat];
  }
}
