import type { RoutesResponse } from '@/lib/model';
import { ensureFeedStarted } from '@/lib/fleet';
import { errorResponse, jsonResponse } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The routes as the poller last listed them. */
export function GET(): Response {
  const r = ensureFeedStarted().routesList();
  return r.ok ? jsonResponse(r.value satisfies RoutesResponse) : errorResponse(r.failure);
}
