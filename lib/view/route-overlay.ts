// The route overlay's GeoJSON: a line through the route's stops in stop_order, and the stops themselves
// with their role (start, end, or on the way).
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

function located(s: RouteStop): s is RouteStop & { latitude: number; longitude: number } {
  return s.latitude !== null && s.longitude !== null && Number.isFinite(s.latitude) && Number.isFinite(s.longitude);
}

/**
 * The spec lets is_start/is_end be absent in practice (false everywhere); then the first and last stops in
 * stop_order are the ends. Stops without coordinates cannot be drawn and are left out of the line.
 */
export function routeOverlayGeoJson(stops: readonly RouteStop[]): RouteOverlayCollection {
  const ordered = stops.filter(located).sort((a, b) => a.stopOrder - b.stopOrder);
  const flagged = ordered.some((s) => s.isStart || s.isEnd);
  const features: RouteOverlayCollection['features'] = [];
  if (ordered.length >= 2) {
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: ordered.map((s) => [s.longitude, s.latitude]) },
      properties: { kind: 'line' },
    });
  }
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

/** [west, south, east, north] of the drawable stops, or null. */
export function routeOverlayBounds(stops: readonly RouteStop[]): [number, number, number, number] | null {
  const pts = stops.filter(located);
  if (pts.length === 0) return null;
  const lons = pts.map((s) => s.longitude);
  const lats = pts.map((s) => s.latitude);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}
