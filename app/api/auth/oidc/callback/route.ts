import { logger } from '@/lib/log';
import { authRequest, seeOther, sessionCookie } from '@/lib/auth/handlers';
import { clearCookie } from '@/lib/auth/cookies';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_PATH } from '@/lib/auth/oidc';
import { signInErrorPath, type SignInErrorCode } from '@/lib/auth/sign-in-errors';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The provider sends the browser back here with a code: exchanged, checked, and turned into a session. */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const clearFlow = clearCookie(OIDC_FLOW_COOKIE, { secure: a.secure, path: OIDC_FLOW_PATH });
  const fail = (code: SignInErrorCode) => seeOther(signInErrorPath(code), [clearFlow]);
  if (!a.service.oidc) return fail('provider-off');
  const search = new URL(request.url).searchParams;
  if (search.has('error')) {
    logger().warn({ error: (search.get('error') ?? '').slice(0, 80) }, 'oidc sign-in refused by the provider');
    return fail('provider-refused');
  }
  let result;
  try {
    result = await a.service.oidc.finish(search, a.cookie(OIDC_FLOW_COOKIE, OIDC_FLOW_PATH));
  } catch (e) {
    // The reason goes to the log (never a token: openid-client's messages name the check that failed).
    logger().warn({ error: e instanceof Error ? e.message : String(e) }, 'oidc sign-in failed');
    return fail('provider-failed');
  }
  const r = await a.service.signInOidc(result.identity, result.identity.role, a.address, result.identity.groups);
  if (!r.ok) return fail(r.code);
  return seeOther(result.next, [clearFlow, sessionCookie(a, r.session)]);
}
