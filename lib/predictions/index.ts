import 'server-only';
import type { Feed } from '@/lib/fleet';
import { PredictionService } from './service';

export { PredictionService, type PredictionSet } from './service';
export { nextArrivalOf, withNextArrivals } from './next-arrivals';
export { predictTrip, type PredictInput, type TripPrediction, type PaceProfile } from './predict';

/**
 * Server start (lib/server/services.ts): the service subscribes to the feed's events before the feed starts, and the
 * application context keeps it (`app.services.predictions`).
 */
export function startPredictions(feed: Feed): PredictionService {
  return new PredictionService(feed);
}
