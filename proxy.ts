import { NextResponse, type NextRequest } from 'next/server';
import { authService } from '@/lib/auth';
import { readAuthConfig } from '@/lib/auth/config';
import { guardRequest, principalKey } from '@/lib/auth/guard';
import { checkHost, hostRefusal } from '@/lib/auth/host-check';
import { CLIENT_PRINCIPAL_HEADER } from '@/lib/http/client-key';
import { startingResponse } from '@/lib/http/responses';
import { WALL_ROUTES_HEADER } from '@/lib/http/wall-scope';
import { contentSecurityPolicy, frameAncestorsFrom, originsOf } from '@/lib/http/security-headers';

/**
 * Next.js answers a dynamic segment with a broken percent-escape (`/api/trips/%`, `%zz`, `%FF`) with a bare 500
 * before any handler runs: refuse it here as the bad input it is.
 */
function hasBrokenEscape(pathname: string): boolean {
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}

export async function proxy(request: NextRequest) {
  // Who may see what (lib/auth/access.ts): decided before any page or handler runs. Before server start has built
  // the application context there is no sign-in service yet: with sign-in off nothing is checked (routes answer 503
  // until the context exists, pages render without data), with it on nothing is served.
  const service = authService();
  if (!service) {
    const cfg = readAuthConfig();
    if (!(cfg.ok && cfg.config.mode === 'none')) return startingResponse();
    // Sign-in off, and still the Host is checked (DNS rebinding, lib/auth/host-check.ts).
    const host = checkHost(request.headers.get('host'), cfg.config);
    if (host !== 'ok') {
      const { status, message } = hostRefusal(host);
      return Response.json({ error: { status, message } }, { status, headers: { 'Cache-Control': 'no-store' } });
    }
  }
  const guard = service ? await guardRequest(service, { method: request.method, url: request.nextUrl, headers: request.headers }) : ({ kind: 'allow', principal: { kind: 'open' } } as const);
  if (guard.kind === 'respond') return guard.response;
  // The per-client limits count a signed-in caller by session, whatever address it comes from; a client's own
  // value of the header never passes.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.delete(CLIENT_PRINCIPAL_HEADER);
  requestHeaders.delete(WALL_ROUTES_HEADER);
  const key = principalKey(guard.principal);
  if (key) requestHeaders.set(CLIENT_PRINCIPAL_HEADER, key);
  // A wall token limited to routes reads those routes' network and stops only (lib/http/wall-scope.ts).
  if (guard.principal.kind === 'wall' && guard.principal.routes !== null) requestHeaders.set(WALL_ROUTES_HEADER, JSON.stringify(guard.principal.routes));

  if (request.nextUrl.pathname.startsWith('/api/')) {
    if (!hasBrokenEscape(request.nextUrl.pathname)) return NextResponse.next({ request: { headers: requestHeaders } });
    return Response.json({ error: { status: 400, message: 'The request path is not valid percent-encoding.' } }, { status: 400, headers: { 'Cache-Control': 'no-cache' } });
  }
  // A prefetch carries no document: no CSP of its own (its nonce would not be the page's).
  if (request.headers.has('next-router-prefetch')) return NextResponse.next({ request: { headers: requestHeaders } });
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = contentSecurityPolicy({
    nonce,
    mapOrigins: originsOf([process.env.MAP_STYLE_URL, process.env.MAP_STYLE_URL_DARK]),
    frameAncestors: frameAncestorsFrom(process.env.FRAME_ANCESTORS),
    // Sign-out goes on to the provider's end-session endpoint (RP-initiated logout), on the issuer's origin.
    formOrigins: process.env.AUTH_MODE === 'oidc' ? originsOf([process.env.OIDC_ISSUER]) : [],
    dev: process.env.NODE_ENV === 'development',
  });
  // Next.js reads the nonce for its own scripts from the request's CSP header.
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Every page and API route (sign-in guards them all); static files carry no fleet data and no script to protect.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|maplibre-gl.mjs|maplibre-gl-worker.mjs|basemap/|fonts/).*)'],
};
