import { fromStore } from '@/lib/history/api';
import { recordedTrip } from '@/lib/history/queries';
import { errorResponse, parseId } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** A recorded trip with its delay and status changes and its bus's trail while it ran. */
export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseId((await ctx.params).id, 'Trip id');
  if (!id.ok) return id.response;
  let missing = false;
  const response = await fromStore(async (store) => {
    const trip = await recordedTrip(store.db, id.value);
    missing = trip === null;
    return trip;
  });
  return missing ? errorResponse({ status: 404, message: `Trip ${id.value} was not recorded.`, correlationId: null }) : response;
}
