import type { NetworkResponse } from '@/lib/model';
import { ensureFeedStarted } from '@/lib/fleet';
import { jsonResponse } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Route lines and stops as GeoJSON; pendingRoutes counts routes whose stops are still being loaded, and
 * routesListed is false until the feed has listed the routes once.
 */
export function GET(): Response {
  return jsonResponse(ensureFeedStarted().networkGeoJson() satisfies NetworkResponse);
}
