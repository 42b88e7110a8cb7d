import { fromStore, parseQuery } from '@/lib/http/history-api';
import { trackQuery } from '@/lib/http/history-params';
import { parseId } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** One bus's stored fixes fetched within from..to (at most 24 hours). */
export const GET = withAppContext(async (app, request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = parseId((await ctx.params).id, 'Bus id');
  if (!id.ok) return id.response;
  const q = parseQuery(request, trackQuery);
  if (!q.ok) return q.response;
  return fromStore(app.store, (store) => app.storeReads.busTrack(store.db, id.value, q.value.from, q.value.to));
});
