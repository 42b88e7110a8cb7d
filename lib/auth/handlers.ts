import 'server-only';
import { clearCookie, cookieReader, readCookies, setCookie } from './cookies';
import { authService } from './index';
import { clientAddress, isHttps } from './request-info';
import { SESSION_COOKIE, type AuthService, type Principal } from './service';

// What the sign-in and admin route handlers share: the service, who is asking (proxy.ts already checked the role
// from ROUTE_ACCESS; handlers need the name for the audit log), and the session cookie.

export interface AuthRequest {
  service: AuthService;
  principal: Principal;
  cookies: Map<string, string>;
  /** A cookie by its base name (over HTTPS it is sent with the __Host- or __Secure- prefix). */
  cookie: (name: string, path?: string) => string | undefined;
  address: string;
  secure: boolean;
  /** The audit log's actor: the signed-in user's name. */
  actor: string | null;
}

export async function authRequest(request: Request): Promise<AuthRequest | Response> {
  const service = authService();
  if (!service || service.config.mode === 'none') {
    return Response.json({ error: { status: 404, message: 'Sign-in is off (AUTH_MODE=none): there are no accounts, sessions or wall tokens.' } }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  const url = new URL(request.url);
  const cookies = readCookies(request.headers.get('cookie'));
  const secure = isHttps(url, request.headers, service.config);
  const cookie = cookieReader(cookies, secure);
  const principal = await service.principal((n) => cookie(n));
  return {
    service,
    principal,
    cookies,
    cookie,
    address: clientAddress(request.headers, service.config),
    secure,
    actor: principal.kind === 'user' ? principal.name : null,
  };
}

export function sessionCookie(a: Pick<AuthRequest, 'service' | 'secure'>, session: string): string {
  return setCookie(SESSION_COOKIE, session, { maxAgeS: a.service.config.sessionTtlMs / 1000, secure: a.secure });
}

export function clearSessionCookie(a: Pick<AuthRequest, 'secure'>): string {
  return clearCookie(SESSION_COOKIE, { secure: a.secure });
}

// Resolves a path against this base only to percent-encode it; the Location sent stays relative.
const BASE = 'http://fleetmap.invalid';

/**
 * A path of this site as a Location value: percent-encoded by URL, so that a `next` such as `/Ā` is sent as
 * `/%C4%80` (a header value with such a character made the whole answer a 500, cookie lost).
 */
export function locationOf(path: string): string {
  const u = new URL(path, BASE);
  return u.origin === BASE ? `${u.pathname}${u.search}${u.hash}` : u.href;
}

/** A redirect after a form POST or an OIDC return (303: the browser follows with a GET). */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: locationOf(location), 'Cache-Control': 'no-store' });
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
}

export function jsonError(status: number, message: string, extra: Record<string, string> = {}): Response {
  return Response.json({ error: { status, message } }, { status, headers: { 'Cache-Control': 'no-store', ...extra } });
}
