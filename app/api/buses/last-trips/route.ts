import { logger } from '@/lib/log';
import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';
import { lastTrips } from '@/lib/server/integration';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Each bus's last trip as history recorded it; `recorded: false` when no recorder runs here. */
export const GET = withAppContext(async (app) => {
  try {
    return jsonResponse(await lastTrips(app.feed, app.status));
  } catch (e) {
    // A broken store shows as a failed column, never as a broken fleet table; its error stays in the log (a
    // store's message may name its host), not in the answer.
    logger().warn({ error: e instanceof Error ? e.name : 'unknown' }, 'last trips unavailable');
    return errorResponse({ status: 503, message: 'History could not be read.', correlationId: null });
  }
});
