// The live snapshots a page holds, as the test can follow them on the wire: full answers as they come, deltas
// applied as the page applies them (the page reads the compact form: lib/model applyCompactDelta).
import type { Page } from '@playwright/test';
import { applyCompactDelta, decodeCompactFull, type CompactAnswer, type LiveSnapshot } from '@/lib/model';

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
    const body = (await res.json().catch(() => null)) as CompactAnswer | null;
    if (!body) return;
    if (body.kind === 'delta') {
      const next = held ? applyCompactDelta(held, body) : null;
      if (!next) return;
      held = next;
    } else held = decodeCompactFull(body);
    received.set(held.version, held);
  });
  return received;
}
