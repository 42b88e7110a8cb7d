import 'server-only';
import type { AuthService } from '@/lib/auth';
import { guardRequest, principalKey } from '@/lib/auth/guard';
import { CLIENT_PRINCIPAL_HEADER } from '@/lib/http/client-key';
import type { AuthConfig } from '@/lib/auth/config';
import { checkHost, hostRefusal, type HostVerdict } from '@/lib/auth/host-check';
import { errorAnswer, FRAGMENT_MESSAGE, liveQuery, type LiveHandler, type LiveRequest, type RawAnswer } from '@/lib/http/live-answer';

// /api/live is answered by scripts/server/server.mjs before Next.js (and so before proxy.ts), so the sign-in check that
// proxy.ts makes for every other route is made here, with the same guard: a refusal never reaches the feed, and a
// signed-in caller's per-client limits count by session (the principal header), as on every other route. A wall
// token limited to some routes is answered with those routes' buses and trips only.

export function webHeaders(h: LiveRequest['headers']): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

export async function rawOf(res: Response): Promise<RawAnswer> {
  const body = res.status === 204 || res.status === 304 ? null : Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries(res.headers.entries());
  if (body) headers['content-length'] = String(body.length);
  return { status: res.status, headers, body };
}

/** The request with no principal header a client could have forged, and the routes (or all: null) it may see. */
function asCaller(req: LiveRequest, principal: string | null, routes: readonly string[] | null): LiveRequest {
  const forged = req.headers[CLIENT_PRINCIPAL_HEADER] !== undefined;
  if (!forged && principal === null) return { ...req, routes };
  const { [CLIENT_PRINCIPAL_HEADER]: _client, ...rest } = req.headers as Record<string, string | string[] | undefined>;
  return { ...req, headers: principal ? { ...rest, [CLIENT_PRINCIPAL_HEADER]: principal } : rest, routes };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Host verdicts by header value and configuration: viewers poll with a handful of distinct values. */
const hostVerdicts = new WeakMap<AuthConfig, Map<string, HostVerdict>>();

export function hostVerdict(host: string | undefined, cfg: AuthConfig): HostVerdict {
  if (host === undefined) return checkHost(host, cfg);
  let seen = hostVerdicts.get(cfg);
  if (!seen) hostVerdicts.set(cfg, (seen = new Map()));
  let v = seen.get(host);
  if (v === undefined) {
    v = checkHost(host, cfg);
    if (seen.size >= 64) seen.clear();
    seen.set(host, v);
  }
  return v;
}

async function checked(auth: AuthService, answer: LiveHandler, req: LiveRequest, query: URLSearchParams): Promise<RawAnswer> {
  const headers = webHeaders(req.headers);
  // The check reads the very parse the answer will read: one question, whatever the target's bytes.
  const url = new URL('/api/live', `http://${headers.get('host') ?? 'localhost'}`);
  url.search = query.toString();
  const outcome = await guardRequest(auth, { method: req.method, url, headers });
  if (outcome.kind === 'respond') return rawOf(outcome.response);
  // A client's own value of the header never passes; the guard's principal replaces it. A wall token limited to
  // routes gets only their buses and trips (lib/http/live-scope.ts).
  const p = outcome.principal;
  return answer({ ...asCaller(req, principalKey(p), p.kind === 'wall' ? p.routes : null), query, fullHealth: p.kind === 'user' && p.role === 'admin' });
}

export function guardedLive(auth: AuthService, answer: LiveHandler): LiveHandler {
  return (req) => {
    const query = liveQuery(req.url);
    if (query === null) return errorAnswer(400, FRAGMENT_MESSAGE);
    // A malformed Host, or with sign-in off another site's name (DNS rebinding), before anything else.
    const host = hostVerdict(first(req.headers.host), auth.config);
    if (host !== 'ok') {
      const { status, message } = hostRefusal(host);
      return errorAnswer(status, message);
    }
    // Sign-in off: the guard lets every caller in as "open", with no principal and every route. Answered here, at
    // once, without building the Web request the check reads (this is the path each poll of every viewer takes).
    // Everyone is an administrator then (the open principal): the full health goes with the answer.
    if (auth.config.mode === 'none') return answer({ ...asCaller(req, null, null), query, fullHealth: true });
    return checked(auth, answer, req, query);
  };
}
