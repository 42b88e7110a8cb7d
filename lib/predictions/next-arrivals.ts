// The ladder's predictions: each bus of a headways answer (lib/regularity) with its trip's next stop and predicted
// arrival from the prediction set, so the ladder shows them beside the buses without a request per bus. A new
// answer: the headways service's own may be shared by every viewer of the version.
import type { HeadwayBus, HeadwaysResponse } from '@/lib/model';
import type { NextArrival, TripPredictions } from '@/lib/model/predictions';

export function nextArrivalOf(p: TripPredictions | undefined): NextArrival | null {
  const s = p?.stops[0];
  if (!p || !s) return null;
  return { stopId: s.stopId, stopName: s.stopName, arrivalAt: s.arrivalAt, earliestAt: s.earliestAt, latestAt: s.latestAt, basis: p.basis };
}

export function withNextArrivals(answer: HeadwaysResponse, trips: ReadonlyMap<number, TripPredictions>): HeadwaysResponse {
  const add = (buses: HeadwayBus[]) => buses.map((b) => ({ ...b, next: nextArrivalOf(trips.get(b.tripId)) }));
  return {
    ...answer,
    routes: answer.routes.map((r) => ({ ...r, directions: r.directions.map((d) => ({ ...d, buses: add(d.buses), layover: add(d.layover), offLine: add(d.offLine) })) })),
  };
}
