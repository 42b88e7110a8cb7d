import { SESSION_COOKIE } from '@/lib/auth';
import { authRequest, clearSessionCookie, seeOther } from '@/lib/auth/handlers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const SIGNED_OUT_PATH = '/signin?signedOut=1';

/**
 * Ends this browser's session (in the store, so on every instance) and clears its cookie. Signed in through an
 * OpenID Connect provider that offers it, the browser goes on to the provider's end-session endpoint, which ends
 * the provider's session too and sends it back to the signed-out page (otherwise the next "sign in with your
 * organization's account" would sign the same person straight back in).
 */
export async function POST(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return seeOther('/');
  const session = a.cookie(SESSION_COOKIE);
  if (session) await a.service.signOut(session, { actor: a.actor, address: a.address });
  const oidc = a.service.oidc;
  const endSession = session && oidc ? await oidc.endSessionUrl(new URL(SIGNED_OUT_PATH, oidc.redirectUri)) : null;
  return seeOther(endSession ? endSession.href : SIGNED_OUT_PATH, [clearSessionCookie(a)]);
}
