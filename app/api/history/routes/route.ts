import { fromStore, parseQuery } from '@/lib/http/history-api';
import { routesQuery } from '@/lib/http/history-params';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Per-route delay figures over a period of service dates (at most 400 days), per day, and by hour of day. */
export const GET = withAppContext(async (app, request: Request) => {
  const q = parseQuery(request, routesQuery);
  if (!q.ok) return q.response;
  const { from, to, route, lateMin, earlyMin } = q.value;
  const base = app.config.app.delay;
  return fromStore(app.store, (store) =>
    app.storeReads.routesOverPeriod(store.db, { from, to, routeIds: route, thresholds: { lateMin: lateMin ?? base.lateMin, earlyMin: earlyMin ?? base.earlyMin }, now: Date.now(), rule: app.feed.timeRule() }),
  );
});
