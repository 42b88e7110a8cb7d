// The ladder's state in the URL (/ladder?route=M15,M101&trip=…) and the wall's `ladder=`: read by pages on the
// server and by the ladder in the browser.

/** Route tokens from `?route=M15,M101` (the ladder's and the wall's `ladder=`): trimmed, no repeats, at most 12. */
export function parseRouteTokens(raw: string | null | undefined): string[] {
  if (!raw) return [];
  const out: string[] = [];
  for (const t of raw.split(',')) {
    const token = t.trim().slice(0, 32);
    if (token && !out.some((o) => o.toLowerCase() === token.toLowerCase())) out.push(token);
  }
  return out.slice(0, 12);
}

/** The ladder of some routes, e.g. from the dispatcher's route filter or the trip panel. */
export function ladderHref(routes: readonly string[]): string {
  return routes.length ? `/ladder?route=${routes.map(encodeURIComponent).join(',')}` : '/ladder';
}

export interface LadderUrlState {
  routes: string[];
  /** The selected trip (a bus's or a ghost's), shown on the map by /?trip=. */
  tripId: number | null;
}

export function parseLadderUrl(params: Pick<URLSearchParams, 'get'>): LadderUrlState {
  const trip = params.get('trip');
  const id = trip !== null && /^[1-9]\d{0,15}$/.test(trip) ? Number(trip) : null;
  return { routes: parseRouteTokens(params.get('route')), tripId: id !== null && Number.isSafeInteger(id) ? id : null };
}

export function serializeLadderUrl(s: LadderUrlState): string {
  const parts: string[] = [];
  if (s.routes.length) parts.push(`route=${s.routes.map(encodeURIComponent).join(',')}`);
  if (s.tripId !== null) parts.push(`trip=${s.tripId}`);
  return parts.join('&');
}
