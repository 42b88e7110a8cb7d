// The live snapshots a page holds, as the test can follow them on the wire: full answers as they come, deltas
// applied as the page applies them (the page reads the compact form: lib/model applyCompactDelta), full answers
// decoded with the roster they name (lib/model/live-roster.ts), asked for as the page asks for it.
import type { APIRequestContext, Page } from '@playwright/test';
import { applyCompactDelta, decodeCompactFull, decodeRoster, LIVE_ROSTER_SHAPE, type CompactAnswer, type CompactFull, type CompactRoster, type LiveRoster, type LiveSnapshot } from '@/lib/model';

/** The roster of `version` as /api/live answers it to this request context's viewer. */
export async function fetchRoster(request: APIRequestContext, version: string): Promise<LiveRoster> {
  const res = await request.get(`/api/live?${new URLSearchParams({ shape: 'roster', roster: version })}`);
  if (!res.ok()) throw new Error(`the roster ${version}: HTTP ${res.status()}`);
  return decodeRoster((await res.json()) as CompactRoster);
}

/** A full compact answer decoded as the page decodes it, with the roster it names. */
export async function decodeFull(request: APIRequestContext, a: CompactFull): Promise<LiveSnapshot> {
  return decodeCompactFull(a, await fetchRoster(request, a.roster));
}

/**
 * Every snapshot the page came to hold through /api/live, by version. The page starts from the snapshot rendered
 * into its HTML, which the test cannot read off the wire: so the page's first poll is sent without `since` and
 * answered in full, and every later one is a delta that the capture applies. Call before page.goto.
 */
export async function captureLive(page: Page): Promise<Map<number, LiveSnapshot>> {
  const received = new Map<number, LiveSnapshot>();
  let held: LiveSnapshot | null = null;
  let first = true;
  await page.route(/\/api\/live(\?|$)/, async (route) => {
    const url = new URL(route.request().url());
    if (first && url.searchParams.has('since')) {
      first = false;
      url.searchParams.delete('since');
      await route.continue({ url: url.toString() });
      return;
    }
    await route.continue();
  });
  page.on('response', async (res) => {
    if (new URL(res.url()).pathname !== '/api/live' || res.status() !== 200) return;
    const body = (await res.json().catch(() => null)) as CompactAnswer | CompactRoster | null;
    if (!body || body.shape === LIVE_ROSTER_SHAPE) return;
    if (body.kind === 'delta') {
      const next = held ? applyCompactDelta(held, body) : null;
      if (!next) return;
      held = next;
    } else held = await decodeFull(page.request, body);
    received.set(held.version, held);
  });
  return received;
}
