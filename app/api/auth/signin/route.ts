import { z } from 'zod';
import { authRequest, jsonError, seeOther, sessionCookie } from '@/lib/auth/handlers';
import { safeNext } from '@/lib/auth/oidc';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const signInSchema = z.object({
  name: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(1024),
  next: z.string().max(2048).optional(),
});

/**
 * Sign-in with a local account. The sign-in page posts a form (it works before any script has loaded) and gets
 * redirects; a JSON body gets JSON answers. Wrong passwords are throttled per account and per address.
 */
export async function POST(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const json = (request.headers.get('content-type') ?? '').includes('application/json');
  let raw: unknown;
  try {
    raw = json ? await request.json() : Object.fromEntries(await request.formData());
  } catch {
    return jsonError(400, 'The sign-in form could not be read.');
  }
  const parsed = signInSchema.safeParse(raw);
  const next = safeNext(typeof (raw as { next?: unknown })?.next === 'string' ? (raw as { next: string }).next : '/');
  const back = (message: string) => seeOther(`/signin?error=${encodeURIComponent(message)}&next=${encodeURIComponent(next)}`);
  if (a.service.config.mode !== 'local') return json ? jsonError(404, 'Sign-in with a password is off: this server signs in through its identity provider.') : back('Sign-in with a password is off here.');
  if (!parsed.success) return json ? jsonError(400, 'A name and a password are needed.') : back('A name and a password are needed.');

  const r = await a.service.signInLocal(parsed.data.name, parsed.data.password, a.address);
  if (!r.ok) {
    if (!json) return back(r.message);
    return jsonError(r.status, r.message, r.retryAfterS ? { 'Retry-After': String(r.retryAfterS) } : {});
  }
  const cookie = sessionCookie(a, r.session);
  if (!json) return seeOther(next, [cookie]);
  return Response.json({ user: r.user }, { headers: { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
}
