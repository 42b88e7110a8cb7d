// Benchmark 6: the dispatcher's home page in Chromium against the real app and simulator. Time from
// navigation start to the first animation frame in which the map has drawn a bus (read through the
// window.__fleetmap test handle), with a cold browser cache each time, and the JavaScript the page pulled:
// encoded (gzip) body bytes of every script response, MapLibre's worker included.
import { chromium, type Browser, type Request } from '@playwright/test';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID } from '../components/map/layers/bus-layer';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startBenchStack, waitForLive } from './support/app-stack';
import type { Benchmark, Figure } from './support/report';
import { getOnTheWire } from './support/wire';
import { max, median } from './support/stats';

const VIEWPORT = { width: 1440, height: 900 };
const BUS_LAYER_IDS = [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID];

interface Visit {
  firstBusMs: number;
  scriptBytes: number;
  scripts: Script[];
}

interface Script {
  url: string;
  bytes: number;
  measuredDirectly?: boolean;
}

async function visit(browser: Browser, appUrl: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const scripts: Promise<Script>[] = [];
  // Context-wide, so requests made by the map's worker are counted too.
  context.on('requestfinished', (req: Request) => {
    if (req.resourceType() !== 'script') return;
    scripts.push(req.sizes().then((s) => ({ url: new URL(req.url()).pathname, bytes: s.responseBodySize })));
  });
  try {
    const page = await context.newPage();
    await page.goto(appUrl, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      (layerIds) => {
        const map = window.__fleetmap?.map;
        if (!map) return false;
        // A bus drawn by the bus overlay (street zoom) or by the clustered layer (below it).
        const overlayBuses = window.__fleetmap?.buses?.timing.lastFrameBuses ?? 0;
        const layers = layerIds.filter((id: string) => map.getLayer(id));
        if (overlayBuses === 0 && (layers.length === 0 || map.queryRenderedFeatures({ layers }).length === 0)) return false;
        // performance.now() counts from the navigation's start.
        return performance.now();
      },
      BUS_LAYER_IDS,
      { polling: 'raf', timeout: 90_000 },
    );
    const firstBusMs = (await handle.jsonValue()) as number;
    // Scripts loaded after the first bus (lazy chunks) belong to the page too.
    await page.waitForLoadState('load');
    await page.waitForTimeout(3_000);
    const all = await Promise.all(scripts);
    // Chromium reports no body size for the module worker's script: it is measured by fetching it as a browser would.
    for (const s of all) {
      if (s.bytes === 0) {
        s.bytes = (await getOnTheWire(`${appUrl}${s.url}`, { 'accept-encoding': 'gzip, deflate, br' })).bytes;
        s.measuredDirectly = true;
      }
    }
    return { firstBusMs, scriptBytes: all.reduce((a, s) => a + s.bytes, 0), scripts: all };
  } finally {
    await context.close();
  }
}

export const firstBus: Benchmark = {
  name: 'first-bus',
  title: '6. Home page',
  needsApp: true,
  async run(ctx) {
    const runs = ctx.quick ? 2 : 5;
    const bench = await startBenchStack({ rateLimit: 300 });
    let browser: Browser | null = null;
    try {
      await waitForLive(bench.appUrl, 'buses located', (l) => l.vehicles.filter((v) => v.lat !== null).length >= 50);
      browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
      // The first visit warms the server (route modules, the network GeoJSON); it is not counted.
      await visit(browser, bench.appUrl);
      const visits: Visit[] = [];
      for (let i = 0; i < runs; i++) {
        ctx.log(`  visit ${i + 1}/${runs}`);
        visits.push(await visit(browser, bench.appUrl));
      }
      const times = visits.map((v) => v.firstBusMs);
      const last = visits[visits.length - 1]!;
      const figures: Figure[] = [
        { metric: 'navigation → first bus drawn, median', unit: 'ms', fleetmap: median(times), peer: null, better: 'lower' },
        { metric: 'navigation → first bus drawn, max', unit: 'ms', fleetmap: max(times), peer: null, better: 'lower' },
        { metric: 'JavaScript transferred (compressed)', unit: 'KiB', fleetmap: last.scriptBytes / 1024, peer: null, better: 'lower' },
      ];
      return {
        peer: null,
        conditions: `default fleet, real app (next start) + simulator, Chromium ${VIEWPORT.width}×${VIEWPORT.height} headless with SwiftShader WebGL, cold browser cache per visit, ${runs} visits after one warm-up, no CPU or network throttling (loopback)`,
        figures,
        details: { runs, firstBusMs: times, scriptBytes: visits.map((v) => v.scriptBytes), scripts: last.scripts },
      };
    } finally {
      await browser?.close();
      await bench.stop();
    }
  },
};
