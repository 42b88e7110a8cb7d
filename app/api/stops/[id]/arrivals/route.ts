import { onDemandById } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The next predicted arrivals at the physical stop of a route stop, every route serving it (lib/predictions). */
export const GET = withAppContext((app, request: Request, route: { params: Promise<{ id: string }> }) =>
  onDemandById(
    'Stop id',
    async (id) => app.services.predictions.arrivalsAt(id),
    (value) => value,
  )(request, route),
);
