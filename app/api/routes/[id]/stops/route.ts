import type { RouteStopsResponse } from '@/lib/client/api-types';
import { ensureFeedStarted } from '@/lib/fleet';
import { answerResponse, parseId } from '@/lib/fleet/http';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** A route's stops, fetched on demand (or from the background load) and cached for minutes. */
export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseId((await ctx.params).id, 'Route id');
  if (!id.ok) return id.response;
  const answer = await ensureFeedStarted().routeStops(id.value);
  return answerResponse(answer, (stops, fetchedAt): RouteStopsResponse => ({ ...stops, fetchedAt }));
}
