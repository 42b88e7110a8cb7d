import { fromStore } from '@/lib/http/history-api';
import { errorResponse, parseId } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** A recorded trip with its delay and status changes and its bus's trail while it ran. */
export const GET = withAppContext(async (app, _request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = parseId((await ctx.params).id, 'Trip id');
  if (!id.ok) return id.response;
  let missing = false;
  const response = await fromStore(app.store, async (store) => {
    const trip = await app.storeReads.recordedTrip(store.db, id.value);
    missing = trip === null;
    return trip;
  });
  return missing ? errorResponse({ status: 404, message: `Trip ${id.value} was not recorded.`, correlationId: null }) : response;
});
