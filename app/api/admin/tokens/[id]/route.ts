import { authRequest, jsonError } from '@/lib/auth/handlers';
import { parseId } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Revokes a wall token: its display shows "this display's access was revoked" at its next poll. */
export async function DELETE(request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  const id = parseId((await ctx.params).id, 'Token id');
  if (!id.ok) return id.response;
  const row = await a.service.revokeWallToken(id.value, { actor: a.actor ?? 'admin', address: a.address });
  if (!row) return jsonError(404, 'No such wall token, or it was already revoked.');
  return Response.json({ token: row }, { headers: { 'Cache-Control': 'no-store' } });
}
