import type { AuthConfig } from './config';

/**
 * Who a request comes from, as the network saw it: written by scripts/server/server.mjs from the socket on every
 * request, over whatever a client sent in it (lib/http/client-key.ts keys the feed's per-client limits by it too).
 */
export const CLIENT_ADDRESS_HEADER = 'x-fleetmap-client-address';

// What a request says about where it came from, believing X-Forwarded-* only as far as TRUST_PROXY allows.

type Cfg = Pick<AuthConfig, 'trustProxyHops' | 'publicUrl'>;

const list = (v: string | null) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The client's address: the socket's peer, or with N trusted proxies the N-th address from the right of X-Forwarded-For. */
export function clientAddress(headers: Headers, cfg: Cfg): string {
  const peer = headers.get(CLIENT_ADDRESS_HEADER) || 'unknown';
  if (cfg.trustProxyHops === 0) return peer;
  // Each proxy appends the address it saw; entries left of the trusted ones are whatever the client wrote.
  const xff = list(headers.get('x-forwarded-for'));
  return xff[xff.length - cfg.trustProxyHops] ?? xff[0] ?? peer;
}

/** True when the browser reached us over HTTPS (directly, at a trusted proxy that says so, or per PUBLIC_URL). */
export function isHttps(url: URL, headers: Headers, cfg: Cfg): boolean {
  if (url.protocol === 'https:') return true;
  if (cfg.trustProxyHops > 0 && list(headers.get('x-forwarded-proto')).at(-1)?.toLowerCase() === 'https') return true;
  // Browsers open PUBLIC_URL: when it is https, a proxy in front ends TLS even if it does not say so.
  return cfg.publicUrl?.protocol === 'https:';
}

/** The origin browsers use for this app: PUBLIC_URL's, else the request's own Host (forwarded, when trusted). */
export function appOrigin(url: URL, headers: Headers, cfg: Cfg): string {
  if (cfg.publicUrl) return cfg.publicUrl.origin;
  const host = (cfg.trustProxyHops > 0 ? list(headers.get('x-forwarded-host')).at(-1) : null) ?? headers.get('host') ?? url.host;
  return `${isHttps(url, headers, cfg) ? 'https' : 'http'}://${host}`;
}

/**
 * The origin of a redirect's address: PUBLIC_URL's, else the server's own as the framework parsed the request (on
 * a request for this server it makes the address relative), never the Host header: a redirect must not send a
 * browser to whatever host a request named.
 */
export function redirectOrigin(url: URL, cfg: Cfg): string {
  return cfg.publicUrl ? cfg.publicUrl.origin : url.origin;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery: a state-changing request must come from our own pages. Browsers say where a
 * request comes from in Origin (every POST/DELETE by fetch or form) and Sec-Fetch-Site; a request that names
 * another origin, or neither header, is refused. SameSite=Lax cookies are the second wall.
 */
export function isCrossSite(method: string, url: URL, headers: Headers, cfg: Cfg): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = headers.get('origin');
  if (origin && origin !== 'null') return origin !== appOrigin(url, headers, cfg);
  return headers.get('sec-fetch-site') !== 'same-origin';
}
