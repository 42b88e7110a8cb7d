import { SESSION_COOKIE } from '@/lib/auth';
import { authRequest, clearSessionCookie, seeOther } from '@/lib/auth/handlers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Ends this browser's session (in the store, so on every instance) and clears its cookie. */
export async function POST(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return seeOther('/');
  const session = a.cookies.get(SESSION_COOKIE);
  if (session) await a.service.signOut(session, { actor: a.actor, address: a.address });
  return seeOther('/signin?signedOut=1', [clearSessionCookie(a)]);
}
