import type { RouteStopsResponse } from '@/lib/model';
import { ensureFeedStarted } from '@/lib/fleet';
import { onDemandById } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** A route's stops, fetched on demand (or from the background load) and cached for minutes. */
export const GET = onDemandById(
  'Route id',
  (id, client) => ensureFeedStarted().routeStops(id, client),
  (stops, fetchedAt): RouteStopsResponse => ({ ...stops, fetchedAt }),
);
