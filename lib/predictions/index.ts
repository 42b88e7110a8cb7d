import 'server-only';
import type { Feed } from '@/lib/fleet';
import type { Store } from '@/lib/history/store';
import { PredictionService } from './service';

export { PredictionService, type PredictionSet } from './service';
export { nextArrivalOf, withNextArrivals } from './next-arrivals';
export { predictTrip, type PredictInput, type TripPrediction, type PaceProfile } from './predict';

/** The seed of the pace profiles from the recorder starts this long after the server (its first requests first). */
export const SEED_DELAY_MS = 10_000;

/**
 * Server start (lib/server/services.ts): the service subscribes to the feed's events before the feed starts, and the
 * application context keeps it (`app.services.predictions`). Given the store, it seeds its pace profiles from the
 * recorded trips of the last days in the background (pace-seed.ts).
 */
export function startPredictions(feed: Feed, store?: () => Promise<Store>): PredictionService {
  const service = new PredictionService(feed);
  if (store) service.seedFromStore(store, SEED_DELAY_MS);
  return service;
}
