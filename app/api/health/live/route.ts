
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The process answers (a load balancer's liveness check): nothing else is looked at. */
export function GET(): Response {
  return Response.json({ live: true }, { headers: { 'Cache-Control': 'no-store' } });
}
