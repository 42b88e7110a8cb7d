import 'server-only';
import type { AuthService } from '@/lib/auth';
import { guardRequest } from '@/lib/auth/guard';
import { hostRefusal } from '@/lib/auth/host-check';
import { gtfsRtAnswer, type GtfsRtKind, type GtfsRtService } from '@/lib/gtfs-rt';
import { errorAnswer, type LiveRequest, type RawAnswer } from '@/lib/http/live-answer';
import { hostVerdict, rawOf, webHeaders } from './live-guard';

// /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates are answered by scripts/server/server.mjs before Next.js, as
// /api/live is (lib/server/live-guard.ts): Next's routing cost far more CPU per request than sending the feed's
// bytes, which are encoded once per snapshot version (and compressed once per encoding). The sign-in check proxy.ts
// makes for every route is made here with the same guard (lib/auth/guard.ts: an administrator's session, or a feed
// token by ?token= or a bearer header; open with sign-in off), then the answer is the route handlers' own
// (lib/gtfs-rt: ETag and 304, ?format=json). With sign-in off, as /api/live's, the answer is made at once from the
// raw request (the host check, then the feed's held answer), without the Web request the guard reads.

export type GtfsRtHandler = (req: LiveRequest) => RawAnswer | Promise<RawAnswer>;

export const GTFS_RT_PATHS: Readonly<Record<string, GtfsRtKind>> = { '/gtfs-rt/vehicle-positions': 'vehicle-positions', '/gtfs-rt/trip-updates': 'trip-updates' };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The feed's answer, HEAD without its body. */
function feedAnswer(service: GtfsRtService, kind: GtfsRtKind, req: LiveRequest, query: URLSearchParams | null, ifNoneMatch: string | null): RawAnswer {
  const a = gtfsRtAnswer(service, kind, query, ifNoneMatch, first(req.headers['accept-encoding']));
  return req.method === 'HEAD' && a.body ? { status: a.status, headers: a.headers, body: null } : a;
}

export function guardedGtfsRt(auth: AuthService, service: GtfsRtService): GtfsRtHandler {
  return (req) => {
    if (auth.config.mode === 'none') {
      const q = req.url.indexOf('?');
      const kind = GTFS_RT_PATHS[q < 0 ? req.url : req.url.slice(0, q)];
      if (!kind) throw new Error(`not a GTFS-Realtime feed: ${req.url}`);
      const host = hostVerdict(first(req.headers.host), auth.config);
      if (host !== 'ok') {
        const { status, message } = hostRefusal(host);
        return errorAnswer(status, message);
      }
      return feedAnswer(service, kind, req, q < 0 ? null : new URLSearchParams(req.url.slice(q + 1)), first(req.headers['if-none-match']) ?? null);
    }
    return checked(auth, service, req);
  };
}

async function checked(auth: AuthService, service: GtfsRtService, req: LiveRequest): Promise<RawAnswer> {
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
  return feedAnswer(service, kind, req, url.searchParams, headers.get('if-none-match'));
}
