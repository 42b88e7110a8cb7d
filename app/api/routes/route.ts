import type { RoutesResponse } from '@/lib/model';
import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The routes as the poller last listed them. */
export const GET = withAppContext((app) => {
  const r = app.feed.routesList();
  return r.ok ? jsonResponse(r.value satisfies RoutesResponse) : errorResponse(r.failure);
});
