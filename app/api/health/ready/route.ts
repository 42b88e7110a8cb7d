import { readiness } from '@/lib/server/health-check';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Ready only with a snapshot to serve (lib/server/health-check.ts): 200, else 503 (also while the server starts). */
export const GET = withAppContext((app) => {
  const check = readiness(() => app.feed.liveSnapshot());
  return Response.json(check.body, { status: check.status, headers: { 'Cache-Control': 'no-store' } });
});
