// GeoJSON for the bus layers, built from the snapshot's vehicles. Pure, so it is tested without a map.
import type { DelayClass, EpochMs, Vehicle } from '@/lib/model';
import { isStaleAge, locationAgeS } from './ages';

export type BusClass = DelayClass | 'none';
export type LngLat = readonly [number, number];

export interface BusProperties {
  busId: number;
  /** Delay class of the bus's trip, or `none` when it has no active trip. */
  cls: BusClass;
  stale: boolean;
  /** Degrees clockwise from north; only meaningful when hasHeading. */
  heading: number;
  hasHeading: boolean;
  /** Route code, else bus name, else plate: what a dispatcher calls the bus. */
  label: string;
}

export interface BusPoint {
  busId: number;
  position: LngLat;
  properties: BusProperties;
}

export type BusFeature = GeoJSON.Feature<GeoJSON.Point, BusProperties> & { id: number };
export type BusFeatureCollection = GeoJSON.FeatureCollection<GeoJSON.Point, BusProperties>;

export function hasPosition(v: Vehicle): v is Vehicle & { lat: number; lon: number } {
  return (
    v.lat !== null &&
    v.lon !== null &&
    Number.isFinite(v.lat) &&
    Number.isFinite(v.lon) &&
    Math.abs(v.lat) <= 90 &&
    Math.abs(v.lon) <= 180
  );
}

export function busLabel(v: Pick<Vehicle, 'busName' | 'plateNumber' | 'busId'> & { trip: { routeCode: string | null } | null }): string {
  return v.trip?.routeCode ?? v.busName ?? v.plateNumber ?? `#${v.busId}`;
}

/** One point per positioned bus; buses without a readable position are never drawn. */
export function busPoints(vehicles: readonly Vehicle[], now: EpochMs, staleAfterS: number): BusPoint[] {
  const out: BusPoint[] = [];
  for (const v of vehicles) {
    if (!hasPosition(v)) continue;
    const heading = v.heading !== null && Number.isFinite(v.heading) ? ((v.heading % 360) + 360) % 360 : null;
    out.push({
      busId: v.busId,
      position: [v.lon, v.lat],
      properties: {
        busId: v.busId,
        cls: v.trip ? v.trip.delayClass : 'none',
        stale: isStaleAge(locationAgeS(v.gpsAt, now), staleAfterS),
        heading: heading ?? 0,
        hasHeading: heading !== null,
        label: busLabel(v),
      },
    });
  }
  return out;
}

/**
 * Splits the points into the clustered collection and the selected bus's own collection, so the selected
 * bus is never swallowed by a cluster. `positions` overrides where a bus is drawn (mid-glide positions).
 */
export function busCollections(
  points: readonly BusPoint[],
  positions: ReadonlyMap<number, LngLat> | null,
  selectedBusId: number | null,
): { clustered: BusFeatureCollection; selected: BusFeatureCollection } {
  const clustered: BusFeature[] = [];
  const selected: BusFeature[] = [];
  for (const p of points) {
    const at = positions?.get(p.busId) ?? p.position;
    const feature: BusFeature = {
      type: 'Feature',
      id: p.busId,
      geometry: { type: 'Point', coordinates: [at[0], at[1]] },
      properties: p.properties,
    };
    (p.busId === selectedBusId ? selected : clustered).push(feature);
  }
  return {
    clustered: { type: 'FeatureCollection', features: clustered },
    selected: { type: 'FeatureCollection', features: selected },
  };
}

/** [west, south, east, north] of the points, or null when there are none. */
export function pointsBounds(points: readonly { position: LngLat }[]): [number, number, number, number] | null {
  if (points.length === 0) return null;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const { position: [lon, lat] } of points) {
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  }
  return [w, s, e, n];
}
