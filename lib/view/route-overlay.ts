// The route overlay's GeoJSON: a line through the route's stops in stop_order, and the stops themselves
// with their role (start, end, or on the way).
import { lonLatBounds, type LonLatBounds } from '@/lib/geo/lon-lat';
import { routeLine } from '@/lib/geo/route-lines';
import type { RouteStop } from '@/lib/model';

export type StopRole = 'start' | 'end' | 'stop';

export interface RouteOverlayStopProps {
  kind: 'stop';
  stopId: number;
  name: string;
  order: number;
  role: StopRole;
}

export type RouteOverlayCollection = GeoJSON.FeatureCollection<GeoJSON.LineString | GeoJSON.Point, RouteOverlayStopProps | { kind: 'line' }>;

/**
 * The line and the stops as lib/geo/route-lines places them (the network on the server draws the same line).
 * The spec lets is_start/is_end be absent in practice (false everywhere); then the first and last stops in
 * stop_order are the ends.
 */
export function routeOverlayGeoJson(stops: readonly RouteStop[]): RouteOverlayCollection {
  const { stops: ordered, coordinates } = routeLine(stops);
  const flagged = ordered.some((s) => s.isStart || s.isEnd);
  const features: RouteOverlayCollection['features'] = [];
  if (coordinates) features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { kind: 'line' } });
  ordered.forEach((s, i) => {
    const role: StopRole = flagged
      ? s.isStart
        ? 'start'
        : s.isEnd
          ? 'end'
          : 'stop'
      : i === 0
        ? 'start'
        : i === ordered.length - 1
          ? 'end'
          : 'stop';
    features.push({
      type: 'Feature',
      id: s.id,
      geometry: { type: 'Point', coordinates: [s.longitude, s.latitude] },
      properties: { kind: 'stop', stopId: s.id, name: s.stopName, order: s.stopOrder, role },
    });
  });
  return { type: 'FeatureCollection', features };
}

/** The bounds of the drawable stops, or null. */
export function routeOverlayBounds(stops: readonly RouteStop[]): LonLatBounds | null {
  return lonLatBounds(routeLine(stops).stops.map((s) => [s.longitude, s.latitude] as const));
}
