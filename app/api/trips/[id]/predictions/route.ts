import type { TripPredictionsResponse } from '@/lib/model/predictions';
import { onDemandById } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Predicted arrivals at every stop the trip has still to reach (lib/predictions). */
export const GET = withAppContext((app, request: Request, route: { params: Promise<{ id: string }> }) =>
  onDemandById(
    'Trip id',
    (id, client) => app.services.predictions.forTrip(id, client),
    (value): TripPredictionsResponse => ({ predictions: value }),
  )(request, route),
);
