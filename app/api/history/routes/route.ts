import { appConfig } from '@/lib/config';
import { ensureFeedStarted } from '@/lib/fleet';
import { fromStore, parseQuery } from '@/lib/history/api';
import { routesQuery } from '@/lib/history/params';
import { routesOverPeriod } from '@/lib/history/queries';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Per-route delay figures over a period of service dates (at most 400 days), per day, and by hour of day. */
export async function GET(request: Request): Promise<Response> {
  const q = parseQuery(request, routesQuery);
  if (!q.ok) return q.response;
  const { from, to, route, lateMin, earlyMin } = q.value;
  const base = appConfig().delay;
  const feed = ensureFeedStarted();
  return fromStore((store) =>
    routesOverPeriod(store.db, { from, to, routeIds: route, thresholds: { lateMin: lateMin ?? base.lateMin, earlyMin: earlyMin ?? base.earlyMin }, now: Date.now(), rule: feed.timeRule() }),
  );
}
