import { ensureFeedStarted } from '@/lib/fleet';
import { clientKey } from '@/lib/http/client-key';
import { parseId, snapshotResponse } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The live snapshot every viewer shares; `watch` raises one bus's polling priority for a while. */
export function GET(request: Request): Response {
  const watch = new URL(request.url).searchParams.get('watch');
  const feed = ensureFeedStarted();
  if (watch !== null) {
    const id = parseId(watch, 'watch (a bus id)');
    if (!id.ok) return id.response;
    feed.watch(id.value, clientKey(request));
  }
  return snapshotResponse(request, feed.liveSnapshot());
}
