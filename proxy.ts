import { NextResponse, type NextRequest } from 'next/server';
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

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/api/')) {
    if (!hasBrokenEscape(request.nextUrl.pathname)) return NextResponse.next();
    return Response.json({ error: { status: 400, message: 'The request path is not valid percent-encoding.' } }, { status: 400, headers: { 'Cache-Control': 'no-cache' } });
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = contentSecurityPolicy({
    nonce,
    mapOrigins: originsOf([process.env.MAP_STYLE_URL, process.env.MAP_STYLE_URL_DARK]),
    frameAncestors: frameAncestorsFrom(process.env.FRAME_ANCESTORS),
    dev: process.env.NODE_ENV === 'development',
  });
  // Next.js reads the nonce for its own scripts from the request's CSP header.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Pages get the CSP (API answers are JSON and static files carry no script).
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon.ico|maplibre-gl-worker.mjs|basemap/|fonts/).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
    // The API routes with an [id] segment, only to refuse broken percent-escapes.
    '/api/trips/:path*',
    '/api/routes/:path*',
  ],
};
