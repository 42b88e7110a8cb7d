import { authRequest, jsonError } from '@/lib/auth/handlers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Sign out everywhere: ends every session of one user, on every instance. */
export async function DELETE(request: Request, ctx: { params: Promise<{ name: string }> }): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const name = (await ctx.params).name;
  if (name.length > 64 || /[\u0000-\u001f]/.test(name)) return jsonError(400, 'The user name is not valid.');
  const ended = await a.service.signOutEverywhere(name, { actor: a.actor, address: a.address });
  return Response.json({ user: name, sessionsEnded: ended }, { headers: { 'Cache-Control': 'no-store' } });
}
