// The live headways of a stream of snapshots: the map's placement (placeBuses, with the recent fixes and the cache
// the map keeps) and each bus's recent pace, carried from one snapshot to the next. Pure: the server's service,
// the benchmark and the truth test feed it the same way.
import type { EpochMs, LiveSnapshot, NetworkResponse, RegularityConfig, RouteHeadways, RouteStop } from '@/lib/model';
import { PlacementCache, RecentFixes, placeBuses, placementsOf, routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { RecentPace, computeHeadways } from './headways';

export type RouteNames = ReadonlyMap<number, { code: string | null; name: string | null }>;

function routeNamesFromNetwork(network: Pick<NetworkResponse, 'features'> | null): RouteNames {
  const names = new Map<number, { code: string | null; name: string | null }>();
  for (const f of network?.features ?? []) {
    const p = f.properties;
    if (p.kind === 'route' && typeof p.routeId === 'number') names.set(p.routeId, { code: typeof p.code === 'string' ? p.code : null, name: typeof p.name === 'string' ? p.name : null });
  }
  return names;
}

export class LiveHeadways {
  private recent = new RecentFixes();
  private cache = new PlacementCache();
  private pace = new RecentPace();
  private network: Pick<NetworkResponse, 'features'> | null = null;
  private stopsByRoute: Map<number, RouteStop[]> = new Map();
  private names: RouteNames = new Map();

  constructor(private readonly o: { staleAfterS: number; config: RegularityConfig }) {}

  get config(): RegularityConfig {
    return this.o.config;
  }

  /** The feed moved its reading of upstream times (TimeShiftEvent): what is held in the old reading is forgotten. */
  forgetTimes(): void {
    this.recent = new RecentFixes();
    this.cache = new PlacementCache();
    this.pace = new RecentPace();
  }

  /** Every route's headways at `now`, from the snapshot and the network (route stops) the map reads too. */
  update(snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>, network: Pick<NetworkResponse, 'features'> | null, now: EpochMs, routeIds?: ReadonlySet<number>): RouteHeadways[] {
    if (network !== this.network) {
      this.network = network;
      this.stopsByRoute = routeStopsFromNetwork(network ?? undefined);
      this.names = routeNamesFromNetwork(network);
    }
    return this.place(snapshot, this.stopsByRoute, this.names, now, routeIds);
  }

  /** The same from route stops already cut out of the network (a replay's), kept by identity for the placement cache. */
  place(snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>, stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>, names: RouteNames, now: EpochMs, routeIds?: ReadonlySet<number>): RouteHeadways[] {
    this.recent.record(snapshot.vehicles);
    const placements = placeBuses(snapshot.vehicles, { mode: 'estimates', stopsByRoute, recent: this.recent, now, staleAfterS: this.o.staleAfterS, cache: this.cache });
    this.pace.record(snapshot.vehicles, placementsOf(snapshot.vehicles, placements));
    return computeHeadways({ snapshot, placements, stopsByRoute, routeNames: names, pace: this.pace, now, config: this.o.config, routeIds });
  }
}
