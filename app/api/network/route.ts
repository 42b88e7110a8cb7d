import type { NetworkResponse } from '@/lib/model';
import { jsonResponse } from '@/lib/http/responses';
import { networkInScope, wallRoutes } from '@/lib/http/wall-scope';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Route lines and stops as GeoJSON; pendingRoutes counts routes whose stops are still being loaded, and
 * routesListed is false until the feed has listed the routes once. A wall token limited to routes gets those.
 */
export const GET = withAppContext((app, request: Request) => {
  const network: NetworkResponse = app.feed.networkGeoJson();
  const scope = wallRoutes(request);
  return jsonResponse(scope === null ? network : networkInScope(network, scope));
});
