// The basemaps a dispatcher reads the fleet on, drawn by the real app in Chromium under the page's CSP:
// - the default offline basemap, light and dark, at zoom 11, 13 and 16: every one of its layers that is visible
//   at a zoom draws features there (read through MapLibre's rendered features, not pixels);
// - MAP_PMTILES: a small PMTiles archive made here at test time, served by the app in byte ranges and drawn with
//   the Protomaps style, light and dark.
// Both with no console error, no CSP violation and no request to any other host (the fixture checks the last
// two). Screenshots of each at 1440×900 go to e2e/artifacts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { BASEMAP_LABEL_LAYER_IDS, BASEMAP_LAYER_IDS, NETWORK_LAYER_IDS } from '@/lib/map-style/offline-style';
import { PMTILES_ARCHIVE_PATH, PROTOMAPS_SOURCE_ID } from '@/lib/map-style/protomaps-style';
import { expect, guardPage, test } from './support/fixtures';
import { ROOT, startStack, startWithin, type Stack } from './support/stack';

const ARTIFACTS = 'e2e/artifacts';
mkdirSync(ARTIFACTS, { recursive: true });
const THEME_STORAGE_KEY = 'fleetmap-theme';
const THEMES = ['light', 'dark'] as const;
// Harlem: 125th Street's crosstown and the avenues' routes, a neighbourhood name, and Manhattan in view at 11–13.
const HARLEM = { lng: -73.9455, lat: 40.8075 };
const OFFLINE_LAYER_IDS = [...Object.values(BASEMAP_LAYER_IDS), ...Object.values(NETWORK_LAYER_IDS), ...Object.values(BASEMAP_LABEL_LAYER_IDS)];

/** Records CSP violations from the first script on; read them with cspViolations(). */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

async function openWithTheme(page: Page, theme: (typeof THEMES)[number], view: { lng: number; lat: number; zoom: number }, origin = '') {
  await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
  await page.goto(`${origin}/?lng=${view.lng}&lat=${view.lat}&z=${view.zoom}`);
  await expect.poll(() => page.evaluate(() => Boolean(window.__fleetmap?.map.isStyleLoaded())), { timeout: 60_000 }).toBe(true);
}

/** Moves the map and waits until it has drawn the new view with every tile and source loaded. */
async function showZoom(page: Page, view: { lng: number; lat: number; zoom: number }) {
  await page.evaluate(async ({ lng, lat, zoom }) => {
    const map = window.__fleetmap!.map;
    map.jumpTo({ center: [lng, lat], zoom });
    await new Promise<void>((resolve) => {
      map.once('idle', () => resolve());
      map.triggerRepaint();
    });
  }, view);
}

/** Rendered feature count of each of `ids` in the current view, for the layers the style has. */
function renderedCounts(page: Page, ids: readonly string[]): Promise<Record<string, number>> {
  return page.evaluate((layerIds) => {
    const map = window.__fleetmap!.map;
    const out: Record<string, number> = {};
    for (const id of layerIds) if (map.getLayer(id)) out[id] = map.queryRenderedFeatures({ layers: [id] }).length;
    return out;
  }, ids);
}

/** The style's layers among `ids` that draw at `zoom` (inside their zoom range), background excepted. */
function layersVisibleAt(page: Page, ids: readonly string[], zoom: number): Promise<string[]> {
  return page.evaluate(
    ([layerIds, z]) => {
      const style = window.__fleetmap!.map.getStyle();
      return style.layers
        .filter((l) => (layerIds as string[]).includes(l.id) && l.type !== 'background' && (l.minzoom ?? 0) <= (z as number) && (z as number) < (l.maxzoom ?? 24))
        .map((l) => l.id);
    },
    [ids, zoom] as const,
  );
}

test.describe('the default offline basemap', () => {
  for (const theme of THEMES) {
    test(`every layer draws under the CSP at zoom 11, 13 and 16 (${theme})`, async ({ page }) => {
      test.setTimeout(180_000);
      await watchCsp(page);
      await openWithTheme(page, theme, { ...HARLEM, zoom: 13 });
      expect(await page.evaluate(() => window.__fleetmap!.map.getStyle().name)).toBe(`Fleetmap offline (${theme})`);
      const background = await page.evaluate((id) => window.__fleetmap!.map.getLayer(id)?.type, BASEMAP_LAYER_IDS.background);
      expect(background).toBe('background');
      for (const zoom of [11, 13, 16]) {
        await showZoom(page, { ...HARLEM, zoom });
        const expected = await layersVisibleAt(page, OFFLINE_LAYER_IDS, zoom);
        expect(expected, `layers visible at zoom ${zoom}`).toContain(BASEMAP_LAYER_IDS.localLand);
        // Labels are placed over a few frames after the tiles arrive: poll until every visible layer has drawn.
        await expect
          .poll(async () => {
            const counts = await renderedCounts(page, expected);
            return expected.filter((id) => !(counts[id]! > 0));
          }, { timeout: 60_000, message: `layers that drew nothing at zoom ${zoom} (${theme})` })
          .toEqual([]);
        await page.screenshot({ path: `${ARTIFACTS}/basemap-offline-${theme}-z${zoom}.png` });
      }
      expect(await cspViolations(page)).toEqual([]);
    });
  }
});

test.describe('MAP_PMTILES: a self-hosted PMTiles basemap', () => {
  // The archive is made here, at test time, and a stack of its own serves it (the offline tests above keep theirs).
  let stack: Stack;
  let archive: Buffer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const file = join(mkdtempSync(join(tmpdir(), 'fleetmap-e2e-pmtiles-')), 'region.pmtiles');
    // The writer is an ES module script; run as one (Playwright loads this spec as CommonJS).
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'data', 'basemap-pmtiles-fixture.mjs'), file], { stdio: 'inherit' });
    archive = readFileSync(file);
    stack = await startWithin(170_000, (progress) => startStack({ env: { MAP_PMTILES: file }, progress }));
  });
  test.afterAll(async () => {
    await stack?.stop();
  });

  /** A page on the PMTiles stack, failing the test on console errors and requests to any other host. */
  async function pmtilesPage(browser: Browser, run: (page: Page) => Promise<void>) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const guard = guardPage(page, stack.appUrl);
    try {
      await run(page);
      guard.verify();
    } finally {
      await page.close();
    }
  }

  test('the archive is served in byte ranges, and nothing else is', async ({ request }) => {
    const url = (path: string) => `${stack.appUrl}${path}`;
    const first = await request.get(url(PMTILES_ARCHIVE_PATH), { headers: { Range: 'bytes=0-16383' } });
    expect(first.status()).toBe(206);
    const last = Math.min(16_383, archive.length - 1);
    expect(first.headers()['content-range']).toBe(`bytes 0-${last}/${archive.length}`);
    expect(first.headers()['accept-ranges']).toBe('bytes');
    expect(Buffer.from(await first.body()).equals(archive.subarray(0, last + 1))).toBe(true);
    const etag = first.headers()['etag']!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);

    const middle = await request.get(url(PMTILES_ARCHIVE_PATH), { headers: { Range: 'bytes=127-226', 'If-Range': etag } });
    expect(middle.status()).toBe(206);
    expect(middle.headers()['content-range']).toBe(`bytes 127-226/${archive.length}`);
    expect(Buffer.from(await middle.body()).equals(archive.subarray(127, 227))).toBe(true);
    // A client holding an older copy gets the whole current file, not a piece of it.
    const stale = await request.get(url(PMTILES_ARCHIVE_PATH), { headers: { Range: 'bytes=0-9', 'If-Range': '"0-0"' } });
    expect(stale.status()).toBe(200);
    expect((await stale.body()).length).toBe(archive.length);
    expect((await request.get(url(PMTILES_ARCHIVE_PATH), { headers: { 'If-None-Match': etag } })).status()).toBe(304);
    const past = await request.get(url(PMTILES_ARCHIVE_PATH), { headers: { Range: `bytes=${archive.length}-` } });
    expect(past.status()).toBe(416);
    expect(past.headers()['content-range']).toBe(`bytes */${archive.length}`);

    // Only that one file: no path parameter reaches the file system, whatever the request says.
    for (const path of [
      '/api/basemap/region.pmtiles/..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/basemap/..%2F..%2Fpackage.json',
      '/api/basemap/other.pmtiles',
      '/api/basemap/region.pmtiles/extra',
      `/api/basemap/${encodeURIComponent('/etc/passwd')}`,
    ]) {
      const res = await request.get(url(path));
      expect(res.status(), path).toBe(404);
      const text = await res.text();
      expect(text.includes('root:') || text.includes('"dependencies"'), path).toBe(false);
    }
    const withQuery = await request.get(url(`${PMTILES_ARCHIVE_PATH}?path=/etc/passwd`), { headers: { Range: 'bytes=0-6' } });
    expect(await withQuery.text()).toBe('PMTiles');
  });

  for (const theme of THEMES) {
    test(`the Protomaps style draws the archive under the CSP (${theme})`, async ({ browser }) => {
      test.setTimeout(240_000);
      await pmtilesPage(browser, async (page) => {
        await watchCsp(page);
        const answers: number[] = [];
        page.on('response', (res) => {
          if (new URL(res.url()).pathname === PMTILES_ARCHIVE_PATH) answers.push(res.status());
        });
        const view = { lng: -73.985, lat: 40.765, zoom: 14 };
        await openWithTheme(page, theme, view, stack.appUrl);
        expect(await page.evaluate(() => window.__fleetmap!.map.getStyle().name)).toBe(`Fleetmap PMTiles (${theme})`);
        // The network's route codes are placed before the basemap's labels and win a collision with them, and the
        // network grows as the feed loads each route's stops: a route whose code landed on the fixture's one
        // neighbourhood label hid it (seen twice, in the dark run, which comes second and finds more routes loaded).
        // The basemap's labels are checked with the route codes hidden; the network's drawing is checked after.
        await page.evaluate((id) => window.__fleetmap!.map.setLayoutProperty(id, 'visibility', 'none'), NETWORK_LAYER_IDS.routeCodes);
        await showZoom(page, view);
        // A layer of each kind the fixture holds: land, water, a park, three road classes, buildings, road and place labels.
        const drawn = ['earth', 'water', 'landuse_park', 'roads_major', 'roads_minor', 'roads_highway', 'buildings', 'roads_labels_major', 'places_subplace'];
        await expect
          .poll(
            async () => {
              const counts = await renderedCounts(page, drawn);
              return drawn.filter((id) => !(counts[id]! > 0));
            },
            { timeout: 60_000, message: `Protomaps layers that drew nothing (${theme})` },
          )
          .toEqual([]);
        const roads = await page.evaluate((source) => window.__fleetmap!.map.querySourceFeatures(source, { sourceLayer: 'roads' }).map((f) => f.properties.name), PROTOMAPS_SOURCE_ID);
        expect(roads).toContain('Fixture Avenue');
        await page.evaluate((id) => window.__fleetmap!.map.setLayoutProperty(id, 'visibility', 'visible'), NETWORK_LAYER_IDS.routeCodes);
        // The network still draws on top of the basemap.
        await expect.poll(async () => (await renderedCounts(page, [NETWORK_LAYER_IDS.routeLines]))[NETWORK_LAYER_IDS.routeLines], { timeout: 60_000 }).toBeGreaterThan(0);
        expect(answers.length).toBeGreaterThan(0);
        expect(answers.every((s) => s === 206), `archive answers: ${answers.join(', ')}`).toBe(true);
        await page.screenshot({ path: `${ARTIFACTS}/basemap-pmtiles-${theme}-z14.png` });
        expect(await cspViolations(page)).toEqual([]);
      });
    });
  }
});
