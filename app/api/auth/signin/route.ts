import { z } from 'zod';
import { authRequest, jsonError, seeOther, sessionCookie } from '@/lib/auth/handlers';
import { safeNext } from '@/lib/auth/oidc';
import { SIGN_IN_ERRORS, signInErrorPath, type SignInErrorCode } from '@/lib/auth/sign-in-errors';

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
    return jsonError(400, SIGN_IN_ERRORS.unreadable);
  }
  const parsed = signInSchema.safeParse(raw);
  const next = safeNext(typeof (raw as { next?: unknown })?.next === 'string' ? (raw as { next: string }).next : '/');
  // Back to the form with a code its page turns into a sentence of its own (never text from the request).
  const back = (code: SignInErrorCode, waitS?: number) => seeOther(signInErrorPath(code, { waitS, next }));
  if (a.service.config.mode !== 'local') return json ? jsonError(404, 'Sign-in with a password is off: this server signs in through its identity provider.') : back('password-off');
  if (!parsed.success) return json ? jsonError(400, SIGN_IN_ERRORS.incomplete) : back('incomplete');

  const r = await a.service.signInLocal(parsed.data.name, parsed.data.password, a.address);
  if (!r.ok) {
    if (!json) return back(r.code, r.retryAfterS);
    return jsonError(r.status, r.message, r.retryAfterS ? { 'Retry-After': String(r.retryAfterS) } : {});
  }
  const cookie = sessionCookie(a, r.session);
  if (!json) return seeOther(next, [cookie]);
  return Response.json({ user: r.user }, { headers: { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
}
