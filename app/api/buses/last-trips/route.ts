import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { ensureFeedStarted } from '@/lib/fleet';
import { lastTrips } from '@/lib/server/integration';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Each bus's last trip as history recorded it; `recorded: false` when no recorder runs here. */
export async function GET(): Promise<Response> {
  try {
    return jsonResponse(await lastTrips(ensureFeedStarted()));
  } catch (e) {
    // A broken store shows as a failed column, never as a broken fleet table; its error stays in the log (a
    // store's message may name its host), not in the answer.
    console.warn(JSON.stringify({ msg: 'last trips unavailable', error: e instanceof Error ? e.name : 'unknown' }));
    return errorResponse({ status: 503, message: 'History could not be read.', correlationId: null });
  }
}
