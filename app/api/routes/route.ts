import type { RoutesResponse } from '@/lib/model';
import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { routeInScope, wallRoutes } from '@/lib/http/wall-scope';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The routes as the poller last listed them; a wall token limited to routes gets those. */
export const GET = withAppContext((app, request: Request) => {
  const r = app.feed.routesList();
  if (!r.ok) return errorResponse(r.failure);
  const scope = wallRoutes(request);
  const body: RoutesResponse = scope === null ? r.value : { ...r.value, routes: r.value.routes.filter((route) => routeInScope(route, scope)) };
  return jsonResponse(body);
});
