import 'server-only';
import { appConfig, regularityConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import { tripMatchesRouteToken, type EpochMs, type HeadwaysResponse, type RegularityConfig, type RouteHeadways } from '@/lib/model';
import { LiveHeadways } from './live';

// The live headways service: a room beside the feed that reads its snapshots and its network (never the other way
// round). Every route's headways are computed at most once per snapshot version and REFRESH_MS, and again on each
// walk of the active trips, so each bus's recent pace is known before anybody opens a ladder; /api/headways picks
// the routes asked for from that.

/** A ladder polls about this often; between answers it moves buses itself. */
const REFRESH_MS = 5_000;

type FeedSource = Pick<Feed, 'liveSnapshot' | 'networkGeoJson' | 'events'>;

interface Computed {
  epoch: string;
  version: number;
  at: EpochMs;
  routes: RouteHeadways[];
}

export class HeadwayService {
  private readonly live: LiveHeadways;
  private last: Computed | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: FeedSource,
    o: { config: RegularityConfig; staleAfterS: number; now?: () => EpochMs },
  ) {
    this.live = new LiveHeadways(o);
    this.now = o.now ?? Date.now;
    const offTrips = feed.events.on('trips', () => void this.current());
    const offShift = feed.events.on('time-shift', () => {
      this.live.forgetTimes();
      this.last = null;
    });
    this.unsubscribe = () => {
      offTrips();
      offShift();
    };
  }

  private readonly now: () => EpochMs;

  private current(): Computed {
    const { snapshot } = this.feed.liveSnapshot();
    const now = this.now();
    const last = this.last;
    if (last && last.epoch === snapshot.epoch && last.version === snapshot.version && now - last.at < REFRESH_MS) return last;
    const routes = this.live.update(snapshot, this.feed.networkGeoJson(), now);
    return (this.last = { epoch: snapshot.epoch, version: snapshot.version, at: now, routes });
  }

  /**
   * The routes asked for (tokens as people type them: `M15`, `m15`, or an id; every route when null), within the
   * routes the caller may see (a wall token limited to routes; null: all).
   */
  answer(asked: readonly string[] | null, limitedTo: readonly string[] | null): HeadwaysResponse {
    const c = this.current();
    const matches = (r: RouteHeadways, token: string) => tripMatchesRouteToken({ routeId: r.routeId, routeCode: r.routeCode }, token);
    const visible = limitedTo ? c.routes.filter((r) => limitedTo.some((t) => matches(r, t))) : c.routes;
    const routes = asked ? visible.filter((r) => asked.some((t) => matches(r, t))) : visible;
    const unknownRoutes = asked ? asked.filter((t) => !visible.some((r) => matches(r, t))) : [];
    return { at: c.at, epoch: c.epoch, version: c.version, config: this.live.config, routes, unknownRoutes };
  }

  close(): void {
    this.unsubscribe();
  }
}

/**
 * Server start (lib/server/services.ts): the headway service of the application context's feed, which it keeps in
 * the context (`app.services.headways`).
 */
export function startHeadways(feed: FeedSource): HeadwayService {
  return new HeadwayService(feed, { config: regularityConfig(), staleAfterS: appConfig().staleAfterS });
}
