import type { RouteStopsResponse } from '@/lib/model';
import { onDemandById } from '@/lib/http/responses';
import { OUT_OF_SCOPE_MESSAGE, routeInScope, wallRoutes } from '@/lib/http/wall-scope';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * A route's stops, fetched on demand (or from the background load) and cached for minutes. A wall token limited
 * to routes may ask for those routes' stops only: a route it cannot find among them is refused before any lookup.
 */
export const GET = withAppContext(async (app, request: Request, route: { params: Promise<{ id: string }> }) => {
  const scope = wallRoutes(request);
  if (scope !== null) {
    const id = Number((await route.params).id);
    const listed = app.feed.routesList();
    const known = listed.ok ? listed.value.routes.find((r) => r.id === id) : undefined;
    if (!known || !routeInScope(known, scope)) return Response.json({ error: { status: 403, message: OUT_OF_SCOPE_MESSAGE } }, { status: 403, headers: { 'Cache-Control': 'no-store' } });
  }
  return onDemandById(
    'Route id',
    (id, client) => app.feed.routeStops(id, client),
    (stops, fetchedAt): RouteStopsResponse => ({ ...stops, fetchedAt }),
  )(request, route);
});
