// Benchmark 7: what the default offline basemap costs the dispatcher's first paint. The home page opens on the
// dispatcher's street view (zoom 13 over Harlem) with a cold browser cache; measured: navigation to the first
// animation frame with the basemap drawn (local land, the street skeleton and a place name, read through the
// window.__fleetmap test handle), navigation to the first bus drawn, and the compressed bytes of the basemap's
// files (public/basemap/*.geojson) and of the glyphs (public/fonts, which the buses' labels need too). The peer is
// the same page with the basemap's files answered with an empty FeatureCollection: the same app without a basemap
// to fetch, parse and draw, so the difference in first-bus time is the basemap's cost.
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID } from '../components/map/layers/bus-layer';
import { BASEMAP_LABEL_LAYER_IDS, BASEMAP_LAYER_IDS } from '../lib/map-style/offline-style';
import { CHROMIUM_ARGS, findChromium } from '../scripts/test/find-chromium.mjs';
import { startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Figure } from './support/report';
import { median } from './support/stats';

const VIEWPORT = { width: 1440, height: 900 };
const VIEW = '/?lng=-73.9455&lat=40.8075&z=13';
const BUS_LAYER_IDS = [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID];
const BASEMAP_DRAWN_LAYER_IDS = [BASEMAP_LAYER_IDS.localLand, BASEMAP_LAYER_IDS.street, BASEMAP_LABEL_LAYER_IDS.boroughs];
const BASEMAP_FILE = /^\/basemap\//;
const GLYPH_FILE = /^\/fonts\//;

interface Visit {
  basemapMs: number | null;
  firstBusMs: number;
  basemapBytes: number;
  glyphBytes: number;
  files: Array<{ path: string; bytes: number }>;
}

/**
 * Answers every basemap file with an empty FeatureCollection: the page without a basemap, everything else
 * unchanged. Glyphs stay: the buses' and the network's labels need them whatever the basemap.
 */
async function withoutBasemap(context: BrowserContext) {
  await context.route(
    (url) => BASEMAP_FILE.test(url.pathname),
    (route) => route.fulfill({ status: 200, contentType: 'application/geo+json', body: '{"type":"FeatureCollection","features":[]}' }),
  );
}

async function visit(browser: Browser, appUrl: string, basemap: boolean): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const files: Promise<{ path: string; bytes: number }>[] = [];
  let counted = false;
  context.on('requestfinished', (req) => {
    const path = new URL(req.url()).pathname;
    if (counted || !(BASEMAP_FILE.test(path) || GLYPH_FILE.test(path))) return;
    const sized = req.sizes().then((s) => ({ path: decodeURIComponent(path), bytes: s.responseBodySize }));
    // A request still finishing when the context closes (a glyph range asked late) must not end the run with an
    // unhandled rejection; the ones counted are awaited below.
    sized.catch(() => {});
    files.push(sized);
  });
  if (!basemap) await withoutBasemap(context);
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}${VIEW}`, { waitUntil: 'commit' });
    // Each frame, note when the basemap and when the first bus were first drawn; done when both are (or the bus, without a basemap).
    // No named functions inside: the bench runs through tsx, whose helpers do not exist in the page.
    const handle = await page.waitForFunction(
      ([basemapLayers, busLayers, needBasemap]) => {
        const w = window as unknown as { __marks?: { basemap: number | null; bus: number | null } };
        const marks = (w.__marks ??= { basemap: null, bus: null });
        const map = window.__fleetmap?.map;
        if (!map) return false;
        if (marks.basemap === null && needBasemap && (basemapLayers as string[]).every((id) => map.getLayer(id) && map.queryRenderedFeatures({ layers: [id] }).length > 0)) {
          marks.basemap = performance.now();
        }
        const buses = (busLayers as string[]).filter((id) => map.getLayer(id));
        const overlayBuses = window.__fleetmap?.buses?.timing.lastFrameBuses ?? 0;
        if (marks.bus === null && (overlayBuses > 0 || (buses.length > 0 && map.queryRenderedFeatures({ layers: buses }).length > 0))) marks.bus = performance.now();
        return marks.bus !== null && (!needBasemap || marks.basemap !== null) ? marks : false;
      },
      [BASEMAP_DRAWN_LAYER_IDS, BUS_LAYER_IDS, basemap] as const,
      { polling: 'raf', timeout: 90_000 },
    );
    const marks = (await handle.jsonValue()) as { basemap: number | null; bus: number };
    await page.waitForLoadState('load');
    const all = await Promise.all(files);
    counted = true;
    const sum = (re: RegExp) => all.filter((f) => re.test(f.path)).reduce((a, f) => a + f.bytes, 0);
    return { basemapMs: marks.basemap, firstBusMs: marks.bus, basemapBytes: sum(BASEMAP_FILE), glyphBytes: sum(GLYPH_FILE), files: all };
  } finally {
    await context.close();
  }
}

export const basemap: Benchmark = {
  name: 'basemap',
  title: '7. Offline basemap',
  needsApp: true,
  async run(ctx) {
    const runs = ctx.quick ? 2 : 5;
    const bench = await startBenchStack({ rateLimit: 300 });
    let browser: Browser | null = null;
    try {
      await waitForLive(bench.appUrl, 'buses located', (l) => l.vehicles.filter((v) => v.lat !== null).length >= 50);
      browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
      // Warm the server (route modules, the network GeoJSON) once for each page; not counted.
      await visit(browser, bench.appUrl, true);
      await visit(browser, bench.appUrl, false);
      const withBasemap: Visit[] = [];
      const without: Visit[] = [];
      for (let i = 0; i < runs; i++) {
        ctx.log(`  visit ${i + 1}/${runs}`);
        // Alternate which goes first, so a slow moment of the shared machine does not land on one side only.
        if (i % 2 === 0) {
          withBasemap.push(await visit(browser, bench.appUrl, true));
          without.push(await visit(browser, bench.appUrl, false));
        } else {
          without.push(await visit(browser, bench.appUrl, false));
          withBasemap.push(await visit(browser, bench.appUrl, true));
        }
      }
      const last = withBasemap[withBasemap.length - 1]!;
      const figures: Figure[] = [
        { metric: 'basemap files transferred (compressed)', unit: 'KiB', fleetmap: last.basemapBytes / 1024, peer: null, better: 'lower' },
        { metric: 'glyphs transferred (compressed, shared with bus labels)', unit: 'KiB', fleetmap: last.glyphBytes / 1024, peer: null, better: 'lower' },
        { metric: 'navigation → basemap drawn, median', unit: 'ms', fleetmap: median(withBasemap.map((v) => v.basemapMs!)), peer: null, better: 'lower' },
        { metric: 'navigation → first bus drawn, median', unit: 'ms', fleetmap: median(withBasemap.map((v) => v.firstBusMs)), peer: median(without.map((v) => v.firstBusMs)), better: 'lower' },
      ];
      return {
        peer: 'no basemap',
        conditions: `default fleet, real app (next start) + simulator, dispatcher view ${VIEW} in Chromium ${VIEWPORT.width}×${VIEWPORT.height} headless with SwiftShader WebGL, cold browser cache per visit, ${runs} visits per side after one warm-up each, alternating; basemap drawn = local land, street skeleton and borough names all rendered; peer = the same page with every public/basemap file answered as an empty FeatureCollection (glyphs kept)`,
        figures,
        details: {
          runs,
          basemapMs: withBasemap.map((v) => v.basemapMs),
          firstBusMs: withBasemap.map((v) => v.firstBusMs),
          firstBusMsWithoutBasemap: without.map((v) => v.firstBusMs),
          files: last.files,
        },
      };
    } finally {
      await browser?.close();
      await bench.stop();
    }
  },
};
