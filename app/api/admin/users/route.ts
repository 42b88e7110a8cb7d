import { authRequest } from '@/lib/auth/handlers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Users (local accounts, and those seen at an OpenID Connect sign-in) with their live session counts. */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  return Response.json({ users: await a.service.users() }, { headers: { 'Cache-Control': 'no-store' } });
}
