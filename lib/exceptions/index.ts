import 'server-only';
import { regularityConfig } from '@/lib/config';
import { processStore } from '@/lib/history';
import type { RecorderStatus, RouteHeadways } from '@/lib/model';
import { headwayService } from '@/lib/regularity/service';
import type { LiveHeadway } from './rules';
import { exceptionsConfig } from './config';
import { ExceptionService, type ExceptionFeed } from './service';

export { ExceptionService, type ExceptionFeed } from './service';
export { ExceptionStore } from './store';

// One exception service per server process, found by route handlers through a registry symbol on globalThis (Next.js
// may load route handlers as separate module graphs; see lib/fleet/index.ts).
const SERVICE = Symbol.for('fleetmap.exceptions');
type Holder = { [SERVICE]?: ExceptionService };

/** Server start: the exception service on the process's feed and store. It evaluates only while the feed leads. */
export function startExceptions(feed: ExceptionFeed, recorder: () => RecorderStatus['state'] | null): ExceptionService {
  const holder = globalThis as Holder;
  holder[SERVICE] ??= new ExceptionService({
    feed,
    db: async () => (await processStore()).db,
    config: exceptionsConfig(),
    ghostAfterS: regularityConfig().ghostAfterS,
    recorder,
    headways: () => liveHeadways(headwayService().answer(null, null).routes),
  }).start();
  return holder[SERVICE];
}

export function exceptionService(): ExceptionService | null {
  return (globalThis as Holder)[SERVICE] ?? null;
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
