import type { NetworkResponse } from '@/lib/model';
import { jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Route lines and stops as GeoJSON; pendingRoutes counts routes whose stops are still being loaded, and
 * routesListed is false until the feed has listed the routes once.
 */
export const GET = withAppContext((app) => jsonResponse(app.feed.networkGeoJson() satisfies NetworkResponse));
