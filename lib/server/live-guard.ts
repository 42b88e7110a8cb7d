import 'server-only';
import type { AuthService } from '@/lib/auth';
import { guardRequest, principalKey } from '@/lib/auth/guard';
import { CLIENT_PRINCIPAL_HEADER } from '@/lib/http/client-key';
import type { LiveHandler, LiveRequest, RawAnswer } from '@/lib/http/live-answer';

// /api/live is answered by scripts/server/server.mjs before Next.js (and so before proxy.ts), so the sign-in check that
// proxy.ts makes for every other route is made here, with the same guard: a refusal never reaches the feed, and a
// signed-in caller's per-client limits count by session (the principal header), as on every other route. A wall
// token limited to some routes is answered with those routes' buses and trips only.

function webHeaders(h: LiveRequest['headers']): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

async function rawOf(res: Response): Promise<RawAnswer> {
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

async function checked(auth: AuthService, answer: LiveHandler, req: LiveRequest): Promise<RawAnswer> {
  const headers = webHeaders(req.headers);
  const url = new URL(req.url, `http://${headers.get('host') ?? 'localhost'}`);
  const outcome = await guardRequest(auth, { method: req.method, url, headers });
  if (outcome.kind === 'respond') return rawOf(outcome.response);
  // A client's own value of the header never passes; the guard's principal replaces it. A wall token limited to
  // routes gets only their buses and trips (lib/http/live-scope.ts).
  return answer(asCaller(req, principalKey(outcome.principal), outcome.principal.kind === 'wall' ? outcome.principal.routes : null));
}

export function guardedLive(auth: AuthService, answer: LiveHandler): LiveHandler {
  return (req) => {
    // Sign-in off: the guard lets every caller in as "open", with no principal and every route. Answered here, at
    // once, without building the Web request the check reads (this is the path each poll of every viewer takes).
    if (auth.config.mode === 'none') return answer(asCaller(req, null, null));
    return checked(auth, answer, req);
  };
}
