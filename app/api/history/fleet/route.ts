import { fromStore, parseQuery } from '@/lib/http/history-api';
import { fleetQuery } from '@/lib/http/history-params';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Every bus as Fleetmap knew it at `at`: its last fix fetched before then (within a day) and its trip then. */
export const GET = withAppContext(async (app, request: Request) => {
  const q = parseQuery(request, fleetQuery);
  if (!q.ok) return q.response;
  return fromStore(app.store, (store) => app.storeReads.fleetAt(store.db, q.value.at, q.value.route));
});
