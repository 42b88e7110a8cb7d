import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, frameAncestorsFrom, originsOf } from '@/lib/security-headers';

export function proxy(request: NextRequest) {
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
  // Pages only: API answers are JSON and static files carry no script.
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon.ico|maplibre-gl-worker.mjs|basemap/|fonts/).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
