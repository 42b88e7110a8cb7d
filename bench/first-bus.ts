// Benchmark 6: first paint of the live pages in Chromium against the real app and simulator. Time from
// navigation start to the first animation frame in which the map has drawn a bus (read through the
// window.__fleetmap test handle), with a cold browser cache each time, on the dispatcher (/) and the wall
// (/wall), each beside its peer measured in the same run, visit for visit: a bare MapLibre page with no app code
// that draws the same buses from a static GeoJSON file in one layer over the same style (bench/support/bare-map.ts);
// and the JavaScript each of /, /wall and /delays pulls: encoded (compressed) body bytes of every script
// response, MapLibre's worker included, and how many of those scripts carry recharts (only /delays draws charts).
import { chromium, type Browser, type Page, type Request } from '@playwright/test';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID } from '../components/map/layers/bus-layer';
import { CHROMIUM_ARGS, findChromium } from '../scripts/test/find-chromium.mjs';
import { startBenchStack, waitForLive } from './support/app-stack';
import { bareFirstBusMs, startBareMapPeer } from './support/bare-map';
import type { Benchmark, Figure } from './support/report';
import { getOnTheWire } from './support/wire';
import { max, median } from './support/stats';

export const VIEWPORT = { width: 1440, height: 900 };
const BUS_LAYER_IDS = [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID];
const MAP_PAGES = ['/', '/wall'] as const;
const SCRIPT_PAGES = ['/', '/wall', '/delays'] as const;
/** recharts' root element class: present in any chunk that carries its components. */
const RECHARTS_MARK = 'recharts-wrapper';

interface Script {
  url: string;
  bytes: number;
  measuredDirectly?: boolean;
  recharts: boolean;
}

interface Visit {
  firstBusMs: number | null;
  scriptBytes: number;
  scripts: Script[];
}

/** Navigation → the first animation frame in which the app's map has drawn a bus, ms (performance.now at that frame). */
export async function waitForFirstBus(page: Page): Promise<number> {
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
  return (await handle.jsonValue()) as number;
}

async function visit(browser: Browser, appUrl: string, path: string, waitForBus: boolean): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const scripts: Promise<Script>[] = [];
  // Context-wide, so requests made by the map's worker are counted too.
  context.on('requestfinished', (req: Request) => {
    if (req.resourceType() !== 'script') return;
    scripts.push(
      (async () => {
        const [sizes, response] = await Promise.all([req.sizes(), req.response()]);
        const text = response ? await response.text().catch(() => '') : '';
        return { url: new URL(req.url()).pathname, bytes: sizes.responseBodySize, recharts: text.includes(RECHARTS_MARK) };
      })(),
    );
  });
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}${path}`, { waitUntil: 'commit' });
    const firstBusMs = waitForBus ? await waitForFirstBus(page) : null;
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
  title: '6. First paint',
  needsApp: true,
  async run(ctx) {
    const runs = ctx.quick ? 3 : 10;
    const bench = await startBenchStack({ rateLimit: 300 });
    let browser: Browser | null = null;
    try {
      await waitForLive(bench.appUrl, 'buses located', (l) => l.vehicles.filter((v) => v.lat !== null).length >= 50);
      browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
      const figures: Figure[] = [];
      const details: Record<string, unknown> = { runs };
      const peer = await startBareMapPeer(bench.appUrl);
      const peerVisit = async () => {
        const context = await browser!.newContext({ viewport: VIEWPORT });
        try {
          return await bareFirstBusMs(await context.newPage(), peer.url);
        } finally {
          await context.close();
        }
      };
      try {
        // The peer's first visit warms what it reads from disk; it is not counted.
        await peerVisit();
        for (const path of MAP_PAGES) {
          // The first visit warms the server (route modules, the network GeoJSON); it is not counted.
          await visit(browser, bench.appUrl, path, true);
          const times: number[] = [];
          const peerTimes: number[] = [];
          for (let i = 0; i < runs; i++) {
            ctx.log(`  ${path}: visit ${i + 1}/${runs}, and the bare MapLibre peer`);
            times.push((await visit(browser, bench.appUrl, path, true)).firstBusMs!);
            peerTimes.push(await peerVisit());
          }
          figures.push(
            { metric: `${path}: navigation → first bus drawn, median`, unit: 'ms', fleetmap: median(times), peer: median(peerTimes), peerName: 'bare MapLibre', better: 'lower' },
            { metric: `${path}: navigation → first bus drawn, worst`, unit: 'ms', fleetmap: max(times), peer: max(peerTimes), peerName: 'bare MapLibre', better: 'lower' },
            { metric: `${path}: first bus, median ÷ the bare MapLibre peer's`, unit: '×', fleetmap: median(times)! / median(peerTimes)!, peer: null, better: 'lower' },
          );
          details[`firstBusMs ${path}`] = times;
          details[`peerFirstBusMs ${path}`] = peerTimes;
        }
        details.peerBuses = peer.buses;
      } finally {
        await peer.close();
      }
      for (const path of SCRIPT_PAGES) {
        ctx.log(`  ${path}: scripts of a cold visit`);
        const v = await visit(browser, bench.appUrl, path, false);
        figures.push(
          { metric: `${path}: JavaScript transferred (compressed, worker included)`, unit: 'KiB', fleetmap: v.scriptBytes / 1024, peer: null, better: 'lower' },
          { metric: `${path}: scripts carrying recharts`, unit: '', fleetmap: v.scripts.filter((s) => s.recharts).length, peer: null, better: 'lower' },
        );
        details[`scripts ${path}`] = v.scripts;
      }
      return {
        peer: null,
        conditions: `default fleet, real app (next start) + simulator, peer: a bare MapLibre page drawing the app's located buses from a static GeoJSON file in one circle layer over the same offline style, visited after each Fleetmap visit; Chromium ${VIEWPORT.width}×${VIEWPORT.height} headless with SwiftShader WebGL, cold browser cache per visit, ${runs} visits per map page after one warm-up, no CPU or network throttling (loopback)`,
        figures,
        details,
      };
    } finally {
      await browser?.close();
      await bench.stop();
    }
  },
};
