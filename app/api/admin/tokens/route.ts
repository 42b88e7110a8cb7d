import { z } from 'zod';
import { authRequest, jsonError } from '@/lib/auth/handlers';
import { parseWallOptions } from '@/lib/page-url/wall-options';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const createSchema = z.object({
  name: z.string().trim().min(1, 'A wall token needs a name (e.g. "depot screen 2")').max(80, 'A token name has at most 80 characters'),
  /** The wall's ?routes= value: comma-separated route codes or ids; blank for the whole network. */
  routes: z.string().max(400).optional(),
  /** `feed`: a token for GTFS-Realtime consumers (reads /gtfs-rt/* only); a wall display's by default. */
  kind: z.enum(['wall', 'feed']).optional(),
});

/** The wall tokens, newest first, with their last use (never the token, which only its creator saw once). */
export async function GET(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  return Response.json({ tokens: await a.service.wallTokens() }, { headers: { 'Cache-Control': 'no-store' } });
}

/** Creates a wall token; the answer carries the wall URL with the token this one time. */
export async function POST(request: Request): Promise<Response> {
  const a = await authRequest(request);
  if (a instanceof Response) return a;
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return jsonError(400, 'The body must be JSON: {"name": "...", "routes": "M15,M101"}.');
  }
  const parsed = createSchema.safeParse(raw);
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? 'The wall token is not valid.');
  // The same reading of routes as the wall's own URL, so a token limits exactly what ?routes= would show.
  if (parsed.data.kind === 'feed') {
    const { token, row } = await a.service.createWallToken(parsed.data.name, null, { actor: a.actor ?? 'admin', address: a.address }, 'feed');
    const q = new URLSearchParams({ token });
    return Response.json({ token: row, wallPath: null, feedPaths: [`/gtfs-rt/vehicle-positions?${q}`, `/gtfs-rt/trip-updates?${q}`] }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
  }
  const options = parseWallOptions({ routes: parsed.data.routes ?? '' });
  if (options.problems.length > 0) return jsonError(400, options.problems[0]!);
  const routes = options.routes.length > 0 ? options.routes : null;
  const { token, row } = await a.service.createWallToken(parsed.data.name, routes, { actor: a.actor ?? 'admin', address: a.address });
  const query = new URLSearchParams({ token, ...(routes ? { routes: routes.join(',') } : {}) });
  return Response.json({ token: row, wallPath: `/wall?${query}` }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
}
