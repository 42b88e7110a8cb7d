// Who a request comes from, for the limits the feed keeps per client (watches, on-demand lookups). Today the
// address the connection came from; once sign-in exists this is where the session takes its place, and
// nothing downstream changes (the feed only compares the keys).
//
// The address is written by scripts/server.mjs from the socket, over whatever a client sent in that header, so
// it cannot be forged through the app's own server. Behind a reverse proxy every viewer shares the proxy's
// address: the per-client bounds then act as one shared bound, which is safe, only stricter.

/** Set by scripts/server.mjs on every request; a client's own value is overwritten. */
export const CLIENT_ADDRESS_HEADER = 'x-fleetmap-client-address';

/** A request that did not pass scripts/server.mjs (next dev) shares this one key. */
const UNIDENTIFIED = 'address:unknown';

export function clientKey(request: Request): string {
  return clientKeyOfAddress(request.headers.get(CLIENT_ADDRESS_HEADER));
}

/** The same key from the header's raw value (a request scripts/server.mjs answers itself, such as /api/live). */
export function clientKeyOfAddress(address: string | string[] | null | undefined): string {
  const a = (Array.isArray(address) ? address[0] : address)?.trim();
  return a ? `address:${a}` : UNIDENTIFIED;
}
