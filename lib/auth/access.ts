import { roleAtLeast, type Role } from '@/lib/model/access';

// The one place where every page and every /api route says who may use it. proxy.ts enforces it for every
// request before any page or handler runs (so a refusal never costs an upstream request), and
// access.test.ts fails when a page.tsx or route.ts under app/ has no entry here.

export interface RouteAccess {
  /** The least role needed, or 'public' (the sign-in pages and the health checks, which cannot ask for a session). */
  role: Role | 'public';
  /** A wall-display token may use it too (the wall page and the data the wall reads). */
  wall?: true;
  /** A feed token (role feed, ?token= or a bearer header) may use it: the GTFS-Realtime feeds, and nothing else. */
  feed?: true;
  /** Query parameters that need more than `role` (`watch` raises a bus's polling priority: an upstream cost). */
  params?: Record<string, Role>;
}

/**
 * Routes answered by scripts/server/server.mjs itself, before Next.js (so not files under app/): each passes the same
 * guard there (lib/server/live-guard.ts).
 */
export const SERVER_ROUTES = ['/api/live'] as const;

export const ROUTE_ACCESS = {
  // Pages
  '/': { role: 'viewer' },
  '/delays': { role: 'manager' },
  '/wall': { role: 'viewer', wall: true },
  '/ladder': { role: 'viewer' },
  '/replay': { role: 'manager' },
  '/signin': { role: 'public' },
  '/admin': { role: 'admin' },
  // Operations: the fleet table (every bus, from the lists the feed holds) and the integration's status
  '/fleet': { role: 'viewer' },
  '/status': { role: 'admin' },
  // Exceptions over a period (lib/exceptions): what opened, and how long acknowledging and resolving took
  '/exceptions': { role: 'manager' },
  // Live data every view reads (no upstream request of their own)
  '/api/live': { role: 'viewer', wall: true, params: { watch: 'dispatcher' } },
  '/api/network': { role: 'viewer', wall: true },
  // Live headways and ghosts: computed from the same snapshot, scoped like /api/live for a wall limited to routes
  '/api/headways': { role: 'viewer', wall: true },
  '/api/routes': { role: 'viewer', wall: true },
  '/api/buses': { role: 'viewer' },
  '/api/buses/last-trips': { role: 'viewer' },
  '/api/basemap/region.pmtiles': { role: 'viewer', wall: true },
  // On demand: each may cost an upstream request. A rotating wall draws the route in view (its stops are
  // usually cached by the feed's background load).
  '/api/trips/[id]': { role: 'dispatcher' },
  '/api/routes/[id]/stops': { role: 'dispatcher', wall: true },
  // Predictions: a trip's may ask its route's stops or an inactive trip upstream; a stop's come from what the feed holds.
  '/api/trips/[id]/predictions': { role: 'dispatcher' },
  '/api/stops/[id]/arrivals': { role: 'viewer' },
  // GTFS-Realtime for other systems (docs/gtfs-realtime.md): from what the feed holds, no upstream request.
  '/gtfs-rt/vehicle-positions': { role: 'viewer', feed: true },
  '/gtfs-rt/trip-updates': { role: 'viewer', feed: true },
  // History (the store, no upstream): a trip's recorded delays and a bus's track belong to the dispatcher's trip
  // detail; history over routes and the fleet at a past moment to the manager's review.
  '/api/history/trips/[id]': { role: 'dispatcher' },
  '/api/history/buses/[id]/track': { role: 'dispatcher' },
  '/api/history/routes': { role: 'manager' },
  '/api/history/fleet': { role: 'manager' },
  // Exceptions (lib/exceptions): the live list for every view (the wall shows counts), the history over a period for
  // managers, acknowledging and snoozing for dispatchers; read marks are each viewer's own.
  '/api/exceptions': { role: 'viewer', wall: true, params: { from: 'manager', to: 'manager' } },
  '/api/exceptions/read': { role: 'viewer' },
  '/api/exceptions/[id]/acknowledge': { role: 'dispatcher' },
  '/api/exceptions/[id]/snooze': { role: 'dispatcher' },
  '/api/exceptions/deliveries': { role: 'admin' },
  // A load balancer's checks: no session, no data in the answer beyond the snapshot's version
  '/api/health/live': { role: 'public' },
  '/api/health/ready': { role: 'public' },
  // The API's description (lib/openapi): no data, only the routes and their shapes
  '/api/openapi.json': { role: 'public' },
  // The upstream's plan, scopes and error text
  '/api/status': { role: 'admin' },
  '/api/integration': { role: 'admin' },
  // Sign-in and its administration
  '/api/auth/signin': { role: 'public' },
  '/api/auth/oidc/start': { role: 'public' },
  '/api/auth/oidc/callback': { role: 'public' },
  '/api/auth/signout': { role: 'public' },
  '/api/admin/users': { role: 'admin' },
  '/api/admin/users/[name]/sessions': { role: 'admin' },
  '/api/admin/tokens': { role: 'admin' },
  '/api/admin/tokens/[id]': { role: 'admin' },
  '/api/admin/audit': { role: 'admin' },
  // Webhook targets added in the admin page (lib/exceptions: ALERT_WEBHOOKS' and these get every delivery)
  '/api/admin/webhooks': { role: 'admin' },
  '/api/admin/webhooks/[id]': { role: 'admin' },
  '/api/admin/webhooks/[id]/test': { role: 'admin' },
} satisfies Record<string, RouteAccess>;

export type RoutePattern = keyof typeof ROUTE_ACCESS;

/** Paths no entry names (a page that does not exist): signed-in users only, so that nobody maps the app unsigned. */
export const UNLISTED_ACCESS: RouteAccess = { role: 'viewer' };

const compiled = (Object.entries(ROUTE_ACCESS) as Array<[RoutePattern, RouteAccess]>).map(([pattern, access]) => ({
  pattern,
  access,
  re: new RegExp(`^${pattern.replace(/\[[^\]]+\]/g, '[^/]+').replace(/\./g, '\\.')}/?$`),
}));

/** The entry for a request path (already percent-decoded or not: segments never contain a slash here). */
export function routeAccess(pathname: string): { pattern: RoutePattern | null; access: RouteAccess } {
  const hit = compiled.find((c) => c.re.test(pathname));
  return hit ? { pattern: hit.pattern, access: hit.access } : { pattern: null, access: UNLISTED_ACCESS };
}

/** The role a request needs: the route's, raised by any query parameter that asks for more. */
export function requiredRole(access: RouteAccess, search: URLSearchParams): Role | 'public' {
  let need = access.role;
  for (const [param, role] of Object.entries(access.params ?? {})) {
    if (search.has(param) && (need === 'public' || !roleAtLeast(need, role))) need = role;
  }
  return need;
}
