// What the wall shows at a given moment: which routes, which buses, which figures. Pure, so it is tested
// without a browser and every panel reads the same selection.
import type { LiveSnapshot, Vehicle } from '@/lib/model';
import { activeTrips, routeKey, routeLabel, tripMatchesRouteToken, type ActiveTrip } from './trips';
import { delayFigures } from '@/lib/stats/delay-figures';
import { mostDelayedTrips, type DelayFigures } from './delays';
import { rotationIndex } from '@/lib/page-url/wall-options';

export const WALL_WORST_COUNT = 3;

export interface WallRoute {
  key: string;
  routeId: number | null;
  label: string;
  name: string | null;
}

export interface WallView {
  /** Routes in scope with active trips, in natural order of their codes. */
  routes: WallRoute[];
  /** The route on screen while rotating; null shows every route in scope. */
  current: WallRoute | null;
  rotation: { index: number; count: number } | null;
  vehicles: Vehicle[];
  trips: ActiveTrip[];
  figures: DelayFigures;
  worst: ActiveTrip[];
  /** Requested route tokens with no active trip right now. */
  idleRoutes: string[];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function wallView(
  snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'thresholds'>,
  opts: { routes: readonly string[]; rotateS: number | null },
  now: number,
): WallView {
  const all = activeTrips(snapshot);
  const inScope = opts.routes.length ? all.filter((t) => opts.routes.some((r) => tripMatchesRouteToken(t, r))) : all;
  const idleRoutes = opts.routes.filter((r) => !all.some((t) => tripMatchesRouteToken(t, r)));

  const byKey = new Map<string, WallRoute>();
  for (const t of inScope) {
    const key = routeKey(t);
    const known = byKey.get(key);
    if (!known) byKey.set(key, { key, routeId: t.routeId, label: routeLabel(t), name: t.routeName });
    else if (!known.name && t.routeName) known.name = t.routeName;
  }
  const routes = [...byKey.values()].sort((a, b) => collator.compare(a.label, b.label) || a.key.localeCompare(b.key));

  let current: WallRoute | null = null;
  let rotation: WallView['rotation'] = null;
  if (opts.rotateS !== null && routes.length > 0) {
    const index = rotationIndex(now, opts.rotateS, routes.length);
    current = routes[index]!;
    rotation = { index, count: routes.length };
  }

  const trips = current ? inScope.filter((t) => routeKey(t) === current.key) : inScope;
  const tripIds = new Set(trips.map((t) => t.tripId));
  // The whole network also shows buses between trips; a route view shows only that route's buses.
  const filtered = current !== null || opts.routes.length > 0;
  const vehicles = filtered ? snapshot.vehicles.filter((v) => v.trip !== null && tripIds.has(v.trip.tripId)) : snapshot.vehicles;

  return {
    routes,
    current,
    rotation,
    vehicles,
    trips,
    figures: delayFigures(trips, snapshot.thresholds),
    worst: mostDelayedTrips(trips, WALL_WORST_COUNT),
    idleRoutes,
  };
}
