import 'server-only';
import { roleAtLeast, type AccessDeniedBody, type AccessDeniedReason, type Role } from '@/lib/model/access';
import { requiredRole, routeAccess, type RouteAccess } from './access';
import type { AuthConfig } from './config';
import { cookieReader, readCookies, setCookie } from './cookies';
import { deniedPage, REVOKED_WALL } from './denied-page';
import { checkHost, hostRefusal } from './host-check';
import { clientAddress, isCrossSite, isHttps, redirectOrigin } from './request-info';
import { WALL_COOKIE, WALL_COOKIE_MAX_AGE_S, type AuthService, type Principal } from './service';

// The check every request passes before a page or a handler runs (called by proxy.ts, and by any server that
// answers a path itself): the route's entry in ROUTE_ACCESS, the caller's session or wall token, and CSRF. A
// refusal is decided here, so it never reaches the feed and never costs an upstream request.

export interface GuardRequest {
  method: string;
  url: URL;
  headers: Headers;
}

export type GuardOutcome = { kind: 'allow'; principal: Principal } | { kind: 'respond'; response: Response };

// The API and the GTFS-Realtime feeds answer JSON refusals (their callers are programs); pages redirect.
const isApi = (pathname: string) => pathname.startsWith('/api/') || pathname.startsWith('/gtfs-rt/');

export function deniedJson(status: 401 | 403, reason: AccessDeniedReason, message: string): Response {
  const body: AccessDeniedBody = { error: { status, message, reason } };
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

function hostRefused(verdict: 'malformed' | 'foreign'): Response {
  const { status, message } = hostRefusal(verdict);
  return Response.json({ error: { status, message } }, { status, headers: { 'Cache-Control': 'no-store' } });
}

const NEEDS: Record<Role, string> = {
  viewer: 'a signed-in user',
  dispatcher: 'the dispatcher role or above',
  manager: 'the manager role or above',
  admin: 'the admin role',
};

// Next.js wants absolute redirect addresses from the proxy: on PUBLIC_URL, or on the request's own origin, which
// Next.js then makes relative.
function signInRedirect(req: GuardRequest, cfg: AuthConfig): Response {
  const next = `${req.url.pathname}${req.url.search}`;
  const location = `${redirectOrigin(req.url, cfg)}/signin?next=${encodeURIComponent(next)}`;
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}

// The display keeps its cookie: after a reload or a power cut it still says why it shows nothing, rather than
// a sign-in form nobody at a wall can fill in.
function revoked(req: GuardRequest): Response {
  return isApi(req.url.pathname) ? deniedJson(401, 'wall-token-revoked', REVOKED_WALL.title) : deniedPage(401, { ...REVOKED_WALL, dark: true });
}

function decide(p: Principal, access: RouteAccess, need: Role): 'allow' | 401 | 403 {
  switch (p.kind) {
    case 'open':
      return 'allow';
    case 'user':
      return roleAtLeast(p.role, need) ? 'allow' : 403;
    case 'wall':
      // A wall token may use what is marked for walls, and nothing a query parameter raises above that.
      return access.wall && need === access.role ? 'allow' : 403;
    case 'feed':
      return access.feed && need === access.role ? 'allow' : 403;
    default:
      return 401;
  }
}

export async function guardRequest(service: AuthService, req: GuardRequest): Promise<GuardOutcome> {
  const cfg = service.config;
  const { url, headers, method } = req;
  // A malformed Host, or with sign-in off one that names another site (DNS rebinding): refused before anything.
  const host = checkHost(headers.get('host'), cfg);
  if (host !== 'ok') return { kind: 'respond', response: hostRefused(host) };
  const { access } = routeAccess(url.pathname);
  const need = requiredRole(access, url.searchParams);
  if (cfg.mode !== 'none' && isCrossSite(method, url, headers, cfg)) {
    return { kind: 'respond', response: deniedJson(403, 'csrf', 'This request did not come from a Fleetmap page, so it was refused.') };
  }
  if (need === 'public') return { kind: 'allow', principal: { kind: 'anonymous', revokedWall: false } };

  // A feed's consumer sends its token in the query or as a bearer token (GTFS-Realtime consumers differ). A token
  // that is unknown or revoked is a 401: the consumer's operator must ask for a new one.
  const feedToken = cfg.mode !== 'none' && access.feed ? (url.searchParams.get('token') ?? bearerToken(headers)) : null;
  if (feedToken !== null) {
    const p = await service.feedPrincipal(feedToken);
    if (!p) return { kind: 'respond', response: deniedJson(401, 'sign-in-required', 'This feed token is unknown or was revoked.') };
    return decide(p, access, need) === 'allow' ? { kind: 'allow', principal: p } : { kind: 'respond', response: deniedJson(403, 'role-too-low', 'A feed token reads the GTFS-Realtime feeds only.') };
  }

  const cookies = readCookies(headers.get('cookie'));
  // A wall URL carries its token once: exchanged here for the display's cookie, and dropped from the address bar.
  const wallToken = url.pathname === '/wall' ? url.searchParams.get('token') : null;
  if (wallToken !== null && cfg.mode !== 'none') {
    const p = await service.wallPrincipal(wallToken, clientAddress(headers, cfg));
    if (p.kind !== 'wall') return { kind: 'respond', response: revoked(req) };
    const clean = new URL(url);
    clean.searchParams.delete('token');
    return {
      kind: 'respond',
      response: new Response(null, {
        status: 303,
        headers: {
          Location: `${redirectOrigin(url, cfg)}${clean.pathname}${clean.search}`,
          'Set-Cookie': setCookie(WALL_COOKIE, wallToken, { maxAgeS: WALL_COOKIE_MAX_AGE_S, secure: isHttps(url, headers, cfg) }),
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      }),
    };
  }

  const cookie = cookieReader(cookies, isHttps(url, headers, cfg));
  const principal = await service.principal((name) => cookie(name));
  const verdict = decide(principal, access, need);
  if (verdict === 'allow') return { kind: 'allow', principal };
  if (verdict === 401) {
    if (principal.kind === 'anonymous' && principal.revokedWall) return { kind: 'respond', response: revoked(req) };
    return { kind: 'respond', response: isApi(url.pathname) ? deniedJson(401, 'sign-in-required', 'Sign in to use Fleetmap.') : signInRedirect(req, cfg) };
  }
  const who = principal.kind === 'user' ? `Your role (${principal.role})` : "A wall display's token";
  const message = `${who} does not include this: it needs ${NEEDS[need]}.`;
  if (isApi(url.pathname)) return { kind: 'respond', response: deniedJson(403, 'role-too-low', message) };
  return {
    kind: 'respond',
    response: deniedPage(403, {
      title: 'Not for your role',
      body: message,
      dark: principal.kind === 'wall',
      links: principal.kind === 'wall' ? [{ href: '/wall', label: 'Back to the wall' }] : [{ href: '/', label: 'The map' }, { href: '/signin?switch=1', label: 'Sign in as someone else' }],
    }),
  };
}

function bearerToken(headers: Headers): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  return m ? m[1]! : null;
}

/** The per-client key the feed's limits use for this caller (lib/http/client-key.ts), or null for "by address". */
export function principalKey(p: Principal): string | null {
  // By account, not by session: signing in again brings no fresh allowance (the address counts beside it).
  if (p.kind === 'user') return `account:${p.name.toLowerCase()}`;
  if (p.kind === 'wall') return `wall:${p.id}`;
  if (p.kind === 'feed') return `feed:${p.id}`;
  return null;
}
