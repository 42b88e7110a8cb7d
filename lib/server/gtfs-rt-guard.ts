import 'server-only';
import type { AuthService } from '@/lib/auth';
import { guardRequest } from '@/lib/auth/guard';
import { gtfsRtAnswer, type GtfsRtKind, type GtfsRtService } from '@/lib/gtfs-rt';
import type { LiveRequest, RawAnswer } from '@/lib/http/live-answer';
import { rawOf, webHeaders } from './live-guard';

// /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates are answered by scripts/server/server.mjs before Next.js, as
// /api/live is (lib/server/live-guard.ts): Next's routing cost far more CPU per request than sending the feed's
// bytes, which are encoded once per snapshot version. The sign-in check proxy.ts makes for every route is made here
// with the same guard (lib/auth/guard.ts: an administrator's session, or a feed token by ?token= or a bearer header;
// open with sign-in off), then the answer is the route handlers' own (lib/gtfs-rt: ETag and 304, ?format=json).

export type GtfsRtHandler = (req: LiveRequest) => Promise<RawAnswer>;

export const GTFS_RT_PATHS: Readonly<Record<string, GtfsRtKind>> = { '/gtfs-rt/vehicle-positions': 'vehicle-positions', '/gtfs-rt/trip-updates': 'trip-updates' };

export function guardedGtfsRt(auth: AuthService, service: GtfsRtService): GtfsRtHandler {
  return async (req) => {
    const headers = webHeaders(req.headers);
    // A malformed Host does not make a URL: the guard refuses it (its own check), read against localhost meanwhile.
    let url: URL;
    try {
      url = new URL(req.url, `http://${headers.get('host') ?? 'localhost'}`);
    } catch {
      url = new URL(req.url, 'http://localhost');
    }
    const kind = GTFS_RT_PATHS[url.pathname];
    if (!kind) throw new Error(`not a GTFS-Realtime feed: ${url.pathname}`);
    const outcome = await guardRequest(auth, { method: req.method, url, headers });
    if (outcome.kind === 'respond') return rawOf(outcome.response);
    const a = gtfsRtAnswer(service, kind, url.searchParams, headers.get('if-none-match'));
    const body = a.body;
    return { status: a.status, headers: body ? { ...a.headers, 'Content-Length': String(body.length) } : a.headers, body: req.method === 'HEAD' ? null : body };
  };
}
