import 'server-only';
import { regularityConfig } from '@/lib/config';
import type { Store } from '@/lib/history/store';
import type { RecorderStatus, RouteHeadways } from '@/lib/model';
import type { HeadwayService } from '@/lib/regularity/service';
import type { LiveHeadway } from './rules';
import { exceptionsConfig } from './config';
import { ExceptionService, type ExceptionFeed } from './service';

export { ExceptionService, type ExceptionFeed } from './service';
export { ExceptionStore } from './store';

/**
 * Server start (lib/server/services.ts): the exception service on the application context's feed and store, reading
 * the live headways from that service. It evaluates only while the feed leads; the context keeps it
 * (`app.services.exceptions`), and the /api/exceptions handlers are given it.
 */
export function startExceptions(o: {
  feed: ExceptionFeed;
  store: () => Promise<Store>;
  headways: Pick<HeadwayService, 'answer'>;
  recorder: () => RecorderStatus['state'] | null;
}): ExceptionService {
  return new ExceptionService({
    feed: o.feed,
    db: async () => (await o.store()).db,
    config: exceptionsConfig(),
    ghostAfterS: regularityConfig().ghostAfterS,
    recorder: o.recorder,
    headways: () => liveHeadways(o.headways.answer(null, null).routes),
  }).start();
}

/**
 * Each follower's headway on every route and direction, as the bunched and gapped rules read it: the bunched and
 * gapped gaps between two buses whose fixes are fresh. A gap with a stale bus at either end (its last fix older than
 * STALE_AFTER_S) stands on a position carried forward minutes from where the bus was seen, and its class is a guess:
 * the ladder shows it (the stale bus drawn so), but no exception is raised on it. On a large fleet, where the feed
 * sees each bus every several minutes, those guesses were most of the alerts: at 10,000 buses on a 1,200/min key
 * (the scale soak, 7 December 2026) 1,642 bunched exceptions were open at once, and of 2,181 bunched or gapped gaps
 * among 5,070 buses on the line, 108 were between two buses with fresh fixes.
 */
export function liveHeadways(routes: readonly RouteHeadways[]): LiveHeadway[] {
  const out: LiveHeadway[] = [];
  for (const r of routes) {
    for (const d of r.directions) {
      const byTrip = new Map(d.buses.map((b) => [b.tripId, b]));
      for (const g of d.gaps) {
        if (g.ratio === null || (g.cls !== 'bunched' && g.cls !== 'gapped')) continue;
        const leader = byTrip.get(g.leaderTripId);
        const follower = byTrip.get(g.followerTripId);
        if (leader?.stale !== false || follower?.stale !== false) continue;
        out.push({ tripId: g.followerTripId, busId: follower.busId, routeId: r.routeId, routeCode: r.routeCode, ratio: g.ratio, class: g.cls });
      }
    }
  }
  return out;
}
