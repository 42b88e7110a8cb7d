import { authRequest, seeOther, sessionCookie } from '@/lib/auth/handlers';
import { clearCookie } from '@/lib/auth/cookies';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_PATH } from '@/lib/auth/oidc';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The provider sends the browser back here with a code: exchanged, checked, and turned into a session. */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const clearFlow = clearCookie(OIDC_FLOW_COOKIE, { secure: a.secure, path: OIDC_FLOW_PATH });
  const fail = (message: string) => seeOther(`/signin?error=${encodeURIComponent(message)}`, [clearFlow]);
  if (!a.service.oidc) return fail('Sign-in through an identity provider is off here.');
  const search = new URL(request.url).searchParams;
  if (search.has('error')) return fail(`The identity provider refused the sign-in (${(search.get('error') ?? '').slice(0, 80)}).`);
  let result;
  try {
    result = await a.service.oidc.finish(search, a.cookies.get(OIDC_FLOW_COOKIE));
  } catch (e) {
    // The reason goes to the log (never a token: openid-client's messages name the check that failed).
    console.warn(JSON.stringify({ msg: 'oidc sign-in failed', error: e instanceof Error ? e.message : String(e) }));
    return fail('The sign-in could not be completed; please sign in again.');
  }
  const r = await a.service.signInOidc(result.identity.name, result.identity.role, a.address, result.identity.groups);
  if (!r.ok) return fail(r.message);
  return seeOther(result.next, [clearFlow, sessionCookie(a, r.session)]);
}
