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

/** Each follower's headway on every route and direction, as the bunched and gapped rules read it. */
export function liveHeadways(routes: readonly RouteHeadways[]): LiveHeadway[] {
  const out: LiveHeadway[] = [];
  for (const r of routes) {
    for (const d of r.directions) {
      const busOf = new Map(d.buses.map((b) => [b.tripId, b.busId]));
      for (const g of d.gaps) {
        if (g.ratio === null || (g.cls !== 'bunched' && g.cls !== 'gapped')) continue;
        out.push({ tripId: g.followerTripId, busId: busOf.get(g.followerTripId) ?? null, routeId: r.routeId, routeCode: r.routeCode, ratio: g.ratio, class: g.cls });
      }
    }
  }
  return out;
}
