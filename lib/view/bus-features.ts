// GeoJSON for the bus layers, built from the snapshot's vehicles. Pure, so it is tested without a map.
import type { DelayClass, EpochMs, Vehicle } from '@/lib/model';
import { isLonLat, type LngLat } from '@/lib/geo/lon-lat';
import { isStaleAge, locationAgeS } from './ages';

export type BusClass = DelayClass | 'none';

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

/** The one rule for "this bus has a position": every view that draws, lists or counts positions asks it. */
export function hasPosition(v: Vehicle): v is Vehicle & { lat: number; lon: number } {
  return isLonLat(v.lon, v.lat);
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
