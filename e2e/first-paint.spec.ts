// The first paint below street zoom. The clustered bus layer is tiled by MapLibre's worker, which on a cold visit
// starts half a second or more after the map's first frame; until it has drawn the fleet, the bus overlay draws
// every bus itself, and then steps aside for the clusters. Shown here by holding the worker's script back: the
// buses must be on the map while no worker can exist, and the clusters must take over once it is let through.
import { OVERLAY_MIN_ZOOM } from '@/components/map/bus-drawing';
import { expect, test } from './support/fixtures';
import { placedBuses, renderedBuses } from './support/map';

// Midtown to Harlem at zoom 11: a borough's worth of buses, clustered once the worker has tiled them.
const VIEW = { lng: -73.965, lat: 40.78, zoom: 11 };

test('below street zoom the buses come before the map worker, and the clusters take over once it has drawn them', async ({ page }) => {
  expect(VIEW.zoom).toBeLessThan(OVERLAY_MIN_ZOOM);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let workerAsked = false;
  await page.context().route('**/maplibre-gl-worker.mjs', async (route) => {
    workerAsked = true;
    await held;
    await route.continue();
  });
  try {
    await page.goto(`/?lng=${VIEW.lng}&lat=${VIEW.lat}&z=${VIEW.zoom}`);
    // Buses on the map with the worker's script still held: drawn by the overlay, every one of them, no cluster.
    await expect.poll(() => page.evaluate(() => window.__fleetmap?.buses?.timing.lastFrameBuses ?? 0), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(workerAsked, 'the map asked for its worker (and is still waiting for it)').toBe(true);
    expect(await page.evaluate(() => window.__fleetmap!.map.getZoom())).toBeLessThan(OVERLAY_MIN_ZOOM);
    expect(await page.evaluate(() => window.__fleetmap!.drawing!.drawn().fleet)).toBe('overlay');
    const early = await renderedBuses(page);
    expect(early.clustered, 'no cluster can be drawn without the worker').toBe(0);
    expect(early.singles.length).toBeGreaterThan(0);
    expect((await placedBuses(page)).every((b) => !b.selected)).toBe(true);
    // What the overlay lists is what its last frame drew (polled: a snapshot may land between a frame and the read).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const h = window.__fleetmap!;
          return h.drawing!.drawn().buses.length === h.buses!.timing.lastFrameBuses;
        }),
      )
      .toBe(true);
  } finally {
    release();
  }
  // The worker comes, tiles the fleet, and the clustered layer takes over: the overlay draws no bus but a selected one.
  await expect.poll(() => page.evaluate(() => window.__fleetmap!.drawing!.drawn().fleet), { timeout: 60_000 }).toBe('clusters');
  await expect
    .poll(async () => {
      const r = await renderedBuses(page);
      return r.clustered + r.singles.length;
    }, { timeout: 30_000 })
    .toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__fleetmap!.drawing!.drawn().buses.filter((b) => b.by === 'overlay').length)).toBe(0);
  await expect.poll(() => page.evaluate(() => window.__fleetmap!.buses!.timing.lastFrameBuses)).toBe(0);
});

// MapLibre comes from its own file on our origin (lib/map-style/maplibre-files.ts), named in the page's <head> so that
// the browser fetches it beside the page's scripts. The preload must carry the page's CSP nonce: refused, it would
// show as a violation and MapLibre would be fetched a second time when the map asks for it.
test('the page preloads MapLibre from its head, under the CSP, and the map is made from that one fetch', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const fetches: Array<{ url: string; encoding: string | undefined; status: number }> = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === '/maplibre-gl.mjs') fetches.push({ url: res.url(), encoding: res.headers()['content-encoding'], status: res.status() });
  });
  await page.goto('/');
  // The server's link; React may add its own copy of the hint as the page hydrates (one fetch all the same, below).
  const preloads = page.locator('head link[rel="modulepreload"][href="/maplibre-gl.mjs"]');
  await expect(preloads.first()).toBeAttached();
  // The nonce is hidden from the attribute once applied; the property keeps it.
  expect(await preloads.evaluateAll((els: HTMLLinkElement[]) => els.map((el) => (el.nonce ?? '').length > 0))).not.toContain(false);
  // The map exists once MapLibre's module has loaded (components/map/load-maplibre.ts), and its style once it has run.
  await expect.poll(() => page.evaluate(() => window.__fleetmap?.map.isStyleLoaded() ?? false), { timeout: 60_000 }).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  expect(fetches).toHaveLength(1);
  expect(fetches[0]!.status).toBe(200);
  expect(fetches[0]!.encoding, 'MapLibre is sent brotli-compressed, as the build scripts are').toBe('br');
  // Nothing of MapLibre is left in the app's own scripts: the bundle no longer carries a copy of it.
  const bundled = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.includes('/_next/static/') && (r as PerformanceResourceTiming).decodedBodySize > 800_000).map((r) => r.name));
  expect(bundled).toEqual([]);
});

test.describe('when MapLibre cannot be fetched', () => {
  // The refused fetches show in Chromium's console as failed loads of MapLibre's file, and of nothing else.
  test.use({ allowedConsoleErrors: [/net::ERR_FAILED \(https?:\/\/[^)]*\/maplibre-gl\.mjs(\?attempt=\d+)?\)$/] });

  test('the map says so, tries again by itself, and draws the buses once the file comes through', async ({ page }) => {
    let refuse = true;
    const asked: string[] = [];
    await page.route(/\/maplibre-gl\.mjs(\?.*)?$/, async (route) => {
      asked.push(new URL(route.request().url()).search);
      if (refuse) await route.abort('failed');
      else await route.continue();
    });
    await page.goto('/');
    const notice = page.getByRole('status').filter({ hasText: 'The map could not be loaded' });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    // The page is no blank page meanwhile: the list is there.
    await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option').first()).toBeVisible();
    // Tried again (a second failed try shows in the notice's count)...
    await expect.poll(() => notice.getAttribute('data-map-load-failure'), { timeout: 60_000 }).toBe('2');
    // ...each time under a URL of its own, so that no browser answers it from a failed import it kept.
    expect(asked.filter((q) => q.startsWith('?attempt=')).length).toBeGreaterThan(0);
    refuse = false;
    await expect.poll(() => page.evaluate(() => window.__fleetmap?.drawing?.drawn().buses.length ?? 0), { message: 'buses drawn once MapLibre loads', timeout: 90_000 }).toBeGreaterThan(0);
    await expect(notice).toHaveCount(0);
  });
});
