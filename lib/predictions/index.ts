import 'server-only';
import { ensureFeedStarted, type Feed } from '@/lib/fleet';
import { PredictionService } from './service';

export { PredictionService, type PredictionSet } from './service';
export { predictTrip, type PredictInput, type TripPrediction, type PaceProfile } from './predict';

// One prediction service per server process, beside the feed (see lib/fleet/index.ts for why the registry is a
// symbol on globalThis: Next.js may load route handlers as separate module graphs).
const PREDICTIONS = Symbol.for('fleetmap.predictions');
type Holder = { [PREDICTIONS]?: PredictionService };

/** Server start: the service subscribes to the feed's events before the feed starts. */
export function startPredictions(feed: Feed): PredictionService {
  const holder = globalThis as Holder;
  holder[PREDICTIONS]?.close();
  return (holder[PREDICTIONS] = new PredictionService(feed));
}

/** The process's prediction service (created on the process's feed when server start did not run, as in tests). */
export function predictions(): PredictionService {
  return (globalThis as Holder)[PREDICTIONS] ?? startPredictions(ensureFeedStarted());
}

/** Forgets the process's service (tests). */
export function stopPredictions(): void {
  const holder = globalThis as Holder;
  holder[PREDICTIONS]?.close();
  delete holder[PREDICTIONS];
}
