// Who a request comes from, for the limits the feed keeps per client (watches, on-demand lookups): with sign-in on,
// the session (or the wall token) proxy.ts validated; else the address the connection came from. Nothing downstream
// changes with it (the feed only compares the keys).
//
// The address is written by scripts/server/server.mjs from the socket, over whatever a client sent in that header, so
// it cannot be forged through the app's own server. Behind a reverse proxy every viewer shares the proxy's
// address: the per-client bounds then act as one shared bound, which is safe, only stricter.

import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/request-info';

/** Set by scripts/server/server.mjs on every request; a client's own value is overwritten (named by lib/auth). */
export { CLIENT_ADDRESS_HEADER };

/**
 * Set by proxy.ts on every request it let through with a session or wall token (`session:<part of its hash>`,
 * `wall:<id>`), and removed from every other: a client's own value never survives the proxy.
 */
export const CLIENT_PRINCIPAL_HEADER = 'x-fleetmap-client-principal';

/** A request that did not pass scripts/server/server.mjs (next dev) shares this one key. */
const UNIDENTIFIED = 'address:unknown';

export function clientKey(request: Request): string {
  return clientKeyOf(request.headers.get(CLIENT_PRINCIPAL_HEADER), request.headers.get(CLIENT_ADDRESS_HEADER));
}

/**
 * The key from the headers' raw values: the principal and the address together (`account:ann|address:10.0.0.9`),
 * so that each has its own limit (lib/fleet/client-quota.ts), or the address alone.
 */
export function clientKeyOf(principal: string | string[] | null | undefined, address: string | string[] | null | undefined): string {
  const p = (Array.isArray(principal) ? principal[0] : principal)?.trim();
  const a = clientKeyOfAddress(address);
  return p ? `${p}|${a}` : a;
}

/** The same key from the header's raw value (a request scripts/server/server.mjs answers itself, such as /api/live). */
export function clientKeyOfAddress(address: string | string[] | null | undefined): string {
  const a = (Array.isArray(address) ? address[0] : address)?.trim();
  return a ? `address:${a}` : UNIDENTIFIED;
}
