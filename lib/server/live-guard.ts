import 'server-only';
import { authService } from '@/lib/auth';
import { guardRequest, principalKey } from '@/lib/auth/guard';
import { CLIENT_PRINCIPAL_HEADER } from '@/lib/http/client-key';
import type { LiveHandler, LiveRequest, RawAnswer } from '@/lib/http/live-answer';

// /api/live is answered by scripts/server.mjs before Next.js (and so before proxy.ts), so the sign-in check that
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

export function guardedLive(answer: LiveHandler): (req: LiveRequest) => Promise<RawAnswer> {
  return async (req) => {
    // Sign-in off: the guard lets every caller in as "open", with no principal and every route; answered without
    // building the Web request it would read (this is the path each poll of every viewer takes).
    if (authService()?.config.mode === 'none') {
      const { [CLIENT_PRINCIPAL_HEADER]: _client, ...rest } = req.headers as Record<string, string | string[] | undefined>;
      return answer({ ...req, headers: rest, routes: null });
    }
    const headers = webHeaders(req.headers);
    const url = new URL(req.url, `http://${headers.get('host') ?? 'localhost'}`);
    const outcome = await guardRequest(authService(), { method: req.method, url, headers });
    if (outcome.kind === 'respond') return rawOf(outcome.response);
    // A client's own value of the header never passes; the guard's principal replaces it.
    const { [CLIENT_PRINCIPAL_HEADER]: _client, ...rest } = req.headers as Record<string, string | string[] | undefined>;
    const key = principalKey(outcome.principal);
    // A wall token limited to routes gets only their buses and trips (lib/http/live-scope.ts).
    const routes = outcome.principal.kind === 'wall' ? outcome.principal.routes : null;
    return answer({ ...req, headers: key ? { ...rest, [CLIENT_PRINCIPAL_HEADER]: key } : rest, routes });
  };
}
