import type { TripPredictionsResponse } from '@/lib/model/predictions';
import { onDemandById } from '@/lib/http/responses';
import { predictions } from '@/lib/predictions';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Predicted arrivals at every stop the trip has still to reach (lib/predictions). */
export const GET = onDemandById(
  'Trip id',
  (id, client) => predictions().forTrip(id, client),
  (value): TripPredictionsResponse => ({ predictions: value }),
);
