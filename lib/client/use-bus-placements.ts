'use client';
// Where the map draws each bus, from the snapshot's vehicles: estimates along their routes (the routes' stops
// come from the network the map loads anyway) or the last fixes, as the view asks. Placed again with each
// snapshot and on a beat, so fixes turn stale and estimates change basis on time; between placements the bus
// overlay moves the buses itself.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Vehicle } from '@/lib/model';
import { PlacementCache, RecentFixes, placeBuses, routeStopsFromNetwork, type BusPlacement, type PositionMode } from '@/lib/placement/bus-placement';
import { networkQuery } from './queries';
import { useServerNow } from './use-server-now';

// Stale flags are re-evaluated on this beat, rounding time up so a bus turns stale early, never late.
const PLACE_BEAT_MS = 5_000;

export interface BusPlacements {
  /** Server time now (ms), for ages on screen. */
  now: number;
  /** The beat's instant the placements were made for. */
  placedAt: number;
  placements: BusPlacement[];
}

/**
 * `generatedAt` is the snapshot's: ages are measured against it plus the time elapsed locally. `asOf` fixes the
 * moment instead (a replay draws buses as old as they were then, however long it stays paused).
 */
export function useBusPlacements(vehicles: readonly Vehicle[], generatedAt: number, staleAfterS: number, mode: PositionMode, asOf: number | null = null): BusPlacements {
  const server = useServerNow(generatedAt);
  const now = asOf ?? server.now;
  const placedAt = asOf ?? Math.ceil(now / PLACE_BEAT_MS) * PLACE_BEAT_MS;
  const { data: network } = useQuery(networkQuery());
  const stopsByRoute = useMemo(() => routeStopsFromNetwork(network), [network]);
  const [recent] = useState(() => new RecentFixes());
  const [cache] = useState(() => new PlacementCache());
  // Each snapshot's fixes join the bus's recent ones (a repeated GPS time is ignored, so running twice is harmless).
  const recorded = useMemo(() => {
    recent.record(vehicles);
    return vehicles;
  }, [recent, vehicles]);
  const placements = useMemo(
    () => placeBuses(recorded, { mode, stopsByRoute, recent, now: placedAt, staleAfterS, cache }),
    [recorded, mode, stopsByRoute, recent, placedAt, staleAfterS, cache],
  );
  return { now, placedAt, placements };
}
