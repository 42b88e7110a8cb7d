import { ensureFeedStarted } from '@/lib/fleet';
import { readiness } from '@/lib/server/health-check';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Ready only with a snapshot to serve (lib/server/health-check.ts): 200, else 503. */
export function GET(): Response {
  const feed = ensureFeedStarted();
  const check = readiness(() => feed.liveSnapshot());
  return Response.json(check.body, { status: check.status, headers: { 'Cache-Control': 'no-store' } });
}
