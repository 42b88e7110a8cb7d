// ETag comparison (RFC 9110, weak comparison): shared by every conditional answer (/api/live in lib/http, the
// GTFS-Realtime feeds in lib/gtfs-rt).

/** True when If-None-Match names this ETag (or `*`), weak or strong alike. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === mine);
}
