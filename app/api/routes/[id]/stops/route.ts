import type { RouteStopsResponse } from '@/lib/model';
import { onDemandById } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** A route's stops, fetched on demand (or from the background load) and cached for minutes. */
export const GET = withAppContext((app, request: Request, route: { params: Promise<{ id: string }> }) =>
  onDemandById(
    'Route id',
    (id, client) => app.feed.routeStops(id, client),
    (stops, fetchedAt): RouteStopsResponse => ({ ...stops, fetchedAt }),
  )(request, route),
);
