// Spherical geometry at city scale, shared by the simulator, the server, the browser and the benchmarks: metres
// and degrees, longitude before latitude (GeoJSON's order) in every signature, heading clockwise from north.
// A spherical Earth of the mean radius: its error is far below GPS noise over a city.

export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
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
