// GeoJSON for the bus layers, built from the buses' placements. Pure, so it is tested without a map.
import { estimateAt, type EstimateBasis } from '@/lib/estimate';
import type { EpochMs } from '@/lib/model';
import type { LngLat } from '@/lib/geo/lon-lat';
import type { BusClass } from '@/lib/placement/bus';
import type { BusPlacement } from '@/lib/placement/bus-placement';

export interface BusProperties {
  busId: number;
  /** Delay class of the bus's trip, or `none` when it has no active trip. */
  cls: BusClass;
  stale: boolean;
  /** fix, gps-estimate or schedule-estimate: each is drawn its own way, a guess never as a fix. */
  basis: EstimateBasis;
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

/**
 * One point per placed bus (lib/placement/bus-placement), where its placement puts it at `at`: the clustered layer at
 * low zoom and the tests read these; the moving buses at street zoom are drawn by the bus overlay.
 */
export function busPoints(placements: readonly BusPlacement[], at: EpochMs): BusPoint[] {
  return placements.map((p) => {
    const where = estimateAt(p.estimate, at);
    const heading = where.heading !== null && Number.isFinite(where.heading) ? ((where.heading % 360) + 360) % 360 : null;
    return {
      busId: p.busId,
      position: [where.lon, where.lat],
      properties: { busId: p.busId, cls: p.cls, stale: p.stale, basis: p.estimate.basis, heading: heading ?? 0, hasHeading: heading !== null, label: p.label },
    };
  });
}

/** Splits the points into the clustered collection and the selected bus's own, so a cluster never swallows the selected bus. */
export function busCollections(points: readonly BusPoint[], selectedBusId: number | null): { clustered: BusFeatureCollection; selected: BusFeatureCollection } {
  const clustered: BusFeature[] = [];
  const selected: BusFeature[] = [];
  for (const p of points) {
    const feature: BusFeature = { type: 'Feature', id: p.busId, geometry: { type: 'Point', coordinates: [p.position[0], p.position[1]] }, properties: p.properties };
    (p.busId === selectedBusId ? selected : clustered).push(feature);
  }
  return {
    clustered: { type: 'FeatureCollection', features: clustered },
    selected: { type: 'FeatureCollection', features: selected },
  };
}
