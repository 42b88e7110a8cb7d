import { authRequest } from '@/lib/auth/handlers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The audit log, newest first: sign-ins, sign-outs, wall tokens, user changes. */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  return Response.json({ entries: await a.service.auditLog(300) }, { headers: { 'Cache-Control': 'no-store' } });
}
