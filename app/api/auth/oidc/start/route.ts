import { logger } from '@/lib/log';
import { authRequest, seeOther } from '@/lib/auth/handlers';
import { signInErrorPath } from '@/lib/auth/sign-in-errors';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_MAX_AGE_S, OIDC_FLOW_PATH } from '@/lib/auth/oidc';
import { setCookie } from '@/lib/auth/cookies';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Starts an OpenID Connect sign-in: the PKCE verifier, state and nonce go in a short-lived cookie, the browser to the provider. */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const next = new URL(request.url).searchParams.get('next') ?? '/';
  if (!a.service.oidc) return seeOther(signInErrorPath('provider-off'));
  try {
    const { url, flow } = await a.service.oidc.start(next);
    return seeOther(url.href, [setCookie(OIDC_FLOW_COOKIE, flow, { maxAgeS: OIDC_FLOW_MAX_AGE_S, secure: a.secure, path: OIDC_FLOW_PATH })]);
  } catch (e) {
    logger().error({ error: e instanceof Error ? e.message : String(e) }, 'oidc discovery failed');
    return seeOther(signInErrorPath('provider-unreachable'));
  }
}
