import type { TripResponse } from '@/lib/client/api-types';
import { ensureFeedStarted } from '@/lib/fleet';
import { answerResponse, parseId } from '@/lib/fleet/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** One trip, fetched on demand within the budget's headroom (cached briefly, shared by every viewer). */
export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseId((await ctx.params).id, 'Trip id');
  if (!id.ok) return id.response;
  const answer = await ensureFeedStarted().trip(id.value);
  return answerResponse(answer, (trip, fetchedAt): TripResponse => ({ trip, fetchedAt }));
}
