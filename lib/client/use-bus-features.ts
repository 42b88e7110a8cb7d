'use client';
// What the bus layers draw, from the snapshot's vehicles: points with their delay class and stale flag, each
// bus gliding to its new fix, and the selected bus apart from the clustered rest.
import { useMemo } from 'react';
import type { Vehicle } from '@/lib/model';
import { lonLatBounds, type LngLat, type LonLatBounds } from '@/lib/geo/lon-lat';
import { busCollections, busPoints, type BusFeatureCollection } from '@/lib/view/bus-features';
import { useGlide } from './use-glide';
import { useServerNow } from './use-server-now';

// Stale flags are re-evaluated on this beat, rounding time up so a bus turns stale early, never late.
const STALE_BEAT_MS = 5_000;

export interface BusFeatures {
  /** Server time now (ms), for ages on screen. */
  now: number;
  /** Where each bus is drawn this frame (mid-glide positions included). */
  drawn: ReadonlyMap<number, LngLat>;
  clustered: BusFeatureCollection;
  selected: BusFeatureCollection;
  /** Bounds of every drawn bus at its latest fix; null without any. */
  bounds: LonLatBounds | null;
}

/**
 * `generatedAt` is the snapshot's: ages are measured against it plus the time elapsed locally. `asOf` fixes the
 * moment instead (a replay draws buses as old as they were then, however long it stays paused).
 */
export function useBusFeatures(vehicles: readonly Vehicle[], generatedAt: number, staleAfterS: number, selectedBusId: number | null, asOf: number | null = null): BusFeatures {
  const server = useServerNow(generatedAt);
  const now = asOf ?? server.now;
  const staleBeat = Math.ceil(now / STALE_BEAT_MS) * STALE_BEAT_MS;
  const points = useMemo(() => busPoints(vehicles, staleBeat, staleAfterS), [vehicles, staleBeat, staleAfterS]);
  const targets = useMemo(() => new Map<number, LngLat>(points.map((p) => [p.busId, p.position])), [points]);
  const drawn = useGlide(targets);
  const { clustered, selected } = useMemo(() => busCollections(points, drawn, selectedBusId), [points, drawn, selectedBusId]);
  const bounds = useMemo(() => lonLatBounds(targets.values()), [targets]);
  return { now, drawn, clustered, selected, bounds };
}
