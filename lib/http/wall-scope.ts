import type { NetworkResponse, Route } from '@/lib/model';
import { tripMatchesRouteToken } from '@/lib/model/route-scope';

// A wall-display token limited to some routes reads those routes only: their buses and trips in /api/live
// (lib/http/live-scope.ts), and here their lines, stops and stop lookups. Without this, a token made for M15 read
// the whole network and could make the feed look up any route's stops upstream. A token with every route (no
// list) reads everything, as a signed-in viewer does.

/**
 * Set by proxy.ts on a request it let through with a wall token limited to routes (a JSON array of the token's
 * route names), and removed from every other: a client's own value never survives the proxy.
 */
export const WALL_ROUTES_HEADER = 'x-fleetmap-wall-routes';

/** The routes the caller is limited to, or null for every route. */
export function wallRoutes(request: Request): string[] | null {
  const raw = request.headers.get(WALL_ROUTES_HEADER);
  if (raw === null) return null;
  try {
    const routes = JSON.parse(raw) as unknown;
    return Array.isArray(routes) ? routes.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    // The proxy wrote it: unreadable means nothing is allowed, never everything.
    return [];
  }
}

export function routeInScope(route: Pick<Route, 'id' | 'code'>, routes: readonly string[]): boolean {
  return routes.some((token) => tripMatchesRouteToken({ routeId: route.id, routeCode: route.code }, token));
}

/** The network's lines and stops of the routes in scope only. */
export function networkInScope(network: NetworkResponse, routes: readonly string[]): NetworkResponse {
  const allowed = new Set<number>();
  for (const f of network.features) {
    const p = f.properties;
    if (p.kind === 'route' && typeof p.routeId === 'number' && routeInScope({ id: p.routeId, code: typeof p.code === 'string' ? p.code : null }, routes)) allowed.add(p.routeId);
  }
  return { ...network, features: network.features.filter((f) => typeof f.properties.routeId === 'number' && allowed.has(f.properties.routeId)) };
}

export const OUT_OF_SCOPE_MESSAGE = "A wall display's token does not include this route.";
