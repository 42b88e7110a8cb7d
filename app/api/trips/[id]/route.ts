import type { TripResponse } from '@/lib/model';
import { onDemandById } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** One trip, fetched on demand within the budget's headroom (cached briefly, shared by every viewer). */
export const GET = withAppContext((app, request: Request, route: { params: Promise<{ id: string }> }) =>
  onDemandById(
    'Trip id',
    (id, client) => app.feed.trip(id, client),
    (trip, fetchedAt): TripResponse => ({ trip, fetchedAt }),
  )(request, route),
);
