// Hand-made routes, trips and fixes for the estimator's tests, laid out in metres east/north of a point in
// Manhattan so that a test reads as geometry.
import { offsetLonLat } from '@/lib/geo/sphere';
import type { RouteStop } from '@/lib/model';
import type { EstimateTrip, RecentFix } from '@/lib/estimate/estimate';

export const ORIGIN = { lon: -73.985, lat: 40.75 } as const;

/** The point `east`/`north` metres from ORIGIN, as [lon, lat]. */
export function at(east: number, north: number): [number, number] {
  return offsetLonLat(ORIGIN.lon, ORIGIN.lat, east, north);
}

/**
 * Stops through the given points (metres from ORIGIN), numbered from `firstOrder`, the first flagged is_start and
 * the last is_end unless `flags` is false.
 */
export function stopsAlong(points: readonly (readonly [number, number])[], opts: { firstOrder?: number; firstId?: number; flags?: boolean; routeId?: number } = {}): RouteStop[] {
  const { firstOrder = 1, firstId = 100, flags = true, routeId = 1 } = opts;
  return points.map(([east, north], i) => {
    const [longitude, latitude] = at(east, north);
    return {
      id: firstId + i,
      routeId,
      stopName: `Stop ${firstOrder + i}`,
      stopOrder: firstOrder + i,
      latitude,
      longitude,
      isStart: flags && i === 0,
      isEnd: flags && i === points.length - 1,
      status: 'active',
    };
  });
}

/** `n` stops every `spacing` metres northwards from ORIGIN. */
export function straightNorth(n: number, spacing: number): RouteStop[] {
  return stopsAlong(Array.from({ length: n }, (_, i) => [0, i * spacing] as const));
}

export const T0 = Date.parse('2026-03-04T17:00:00Z');
export const MIN = 60_000;

/** A trip that left on time at T0 and is planned to take `minutes`. */
export function trip(over: Partial<EstimateTrip> & { minutes?: number } = {}): EstimateTrip {
  const { minutes = 10, ...rest } = over;
  return {
    direction: 'outbound',
    plannedDepartureAt: T0,
    plannedArrivalAt: T0 + minutes * MIN,
    actualDepartureAt: T0,
    actualArrivalAt: null,
    delayMinutes: 0,
    ...rest,
  };
}

/** A fix `east`/`north` metres from ORIGIN at `gpsAt`. */
export function fix(east: number, north: number, gpsAt: number, over: Partial<RecentFix> = {}): RecentFix {
  const [lon, lat] = at(east, north);
  return { lon, lat, gpsAt, speedKmh: 20, heading: 0, accuracy: 5, ...over };
}
