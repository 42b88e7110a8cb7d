// Benchmark 5: the main-thread cost of map updates and of motion with 1,000, 5,000 and 10,000 buses in Chromium
// (SwiftShader WebGL), Fleetmap's bus overlay against one DOM marker per bus, in the same run. The page
// (bench/map-page) is bundled here with esbuild from the app's own placement and overlay modules and served by
// this process with the offline basemap from public/; nothing of it ships in the app. Main-thread time is the
// renderer main thread's task time (CDP Performance.getMetrics TaskDuration): an update from new fixes until two
// frames have been produced; a glide frame, averaged over GLIDE_FRAMES consecutive animation frames.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../scripts/test/find-chromium.mjs';
import { CONTENT_TYPES, listenOnLoopback } from './support/loopback';
import type { Benchmark, Figure } from './support/report';
import { median } from './support/stats';

const ROOT = join(__dirname, '..');
const SIZES = [1_000, 5_000, 10_000];
const VIEWPORT = { width: 1280, height: 800 };

type Contender = 'overlay' | 'markers';

/** Past the clustered layer's zoom: every bus drawn on its own, moving, as a dispatcher zoomed in sees it. */
const ZOOM = 13.2;
const GLIDE_FRAMES = 30;
/** A typical poll: about this many buses have a new fix (4 fixes a second, 5 s between polls). */
const PARTIAL = 20;

/**
 * A bench page's entry bundled for the browser, by esbuild's CLI (installed with tsx): its JS API cannot find its
 * binary when loaded through tsx's require.
 */
export function bundle(entry = join(__dirname, 'map-page', 'entry.ts')): Buffer {
  const res = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      entry,
      '--jsx=automatic',
      '--bundle',
      '--format=iife',
      '--platform=browser',
      '--target=es2022',
      '--minify',
      '--log-level=error',
      `--tsconfig=${join(ROOT, 'tsconfig.json')}`,
      '--define:process.env.NODE_ENV="production"',
    ],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  if (res.status !== 0) throw new Error(`bundling the bench page failed: ${res.stderr?.toString() || res.error?.message}`);
  return res.stdout;
}

/** Serves the bench page, its bundle, MapLibre's worker and CSS, and the offline basemap files. */
export async function servePage(js: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const maplibreDist = join(ROOT, 'node_modules', 'maplibre-gl', 'dist');
  const fixed: Record<string, string> = {
    '/': join(__dirname, 'map-page', 'index.html'),
    '/maplibre-gl.css': join(maplibreDist, 'maplibre-gl.css'),
    '/maplibre-gl-worker.mjs': join(maplibreDist, 'maplibre-gl-worker.mjs'),
  };
  const publicDir = join(ROOT, 'public');
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://bench.local').pathname);
    const send = (status: number, body: Buffer | string, type = 'text/plain; charset=utf-8') => res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (path === '/bundle.js') return send(200, js, CONTENT_TYPES['.js']);
    // The bench draws buses, not the route network: the style's network source gets an empty collection.
    if (path === '/api/network') return send(200, '{"type":"FeatureCollection","features":[]}', CONTENT_TYPES['.json']);
    let file = fixed[path];
    if (!file && (path.startsWith('/basemap/') || path.startsWith('/fonts/'))) {
      const resolved = normalize(join(publicDir, path));
      if (resolved.startsWith(publicDir + sep)) file = resolved;
    }
    if (!file) return send(404, 'not found');
    readFile(file).then(
      (body) => send(200, body, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'),
      () => send(404, 'not found'),
    );
  });
  return listenOnLoopback(server);
}

export async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const m = metrics.find((x) => x.name === 'TaskDuration');
  if (!m) throw new Error('Chromium reported no TaskDuration metric');
  return m.value;
}

interface Measured {
  firstDrawWallMs: number;
  firstDrawMainMs: number;
  updateWallMs: number[];
  updateMainMs: number[];
  updateDataMs: number[];
  updateRenders: number[];
  partialMainMs: number[];
  glideMainMs: number[];
  glidePageMs: number[];
  drawn: number;
  estimated: number | null;
}

async function measure(browser: Browser, url: string, contender: Contender, n: number, updates: number): Promise<Measured> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__bench !== undefined);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const before = await taskSeconds(cdp);
    const firstDrawWallMs = await page.evaluate(([c, size, zoom]) => window.__bench!.setup(c, size, zoom), [contender, n, ZOOM] as const);
    // The first draw includes creating the map and its style; measured for context, not compared.
    const firstDrawMainMs = (await taskSeconds(cdp)) - before;
    // One untimed update and glide let the JIT warm up.
    await page.evaluate(() => window.__bench!.update());
    await page.evaluate((f) => window.__bench!.glide(f), 5);
    const m: Measured = { firstDrawWallMs, firstDrawMainMs: firstDrawMainMs * 1000, updateWallMs: [], updateMainMs: [], updateDataMs: [], updateRenders: [], partialMainMs: [], glideMainMs: [], glidePageMs: [], drawn: 0, estimated: null };
    for (let i = 0; i < updates; i++) {
      let t0 = await taskSeconds(cdp);
      const timing = await page.evaluate(() => window.__bench!.update());
      m.updateMainMs.push(((await taskSeconds(cdp)) - t0) * 1000);
      m.updateWallMs.push(timing.ms);
      m.updateDataMs.push(timing.dataMs);
      m.updateRenders.push(timing.renders);
      t0 = await taskSeconds(cdp);
      await page.evaluate((k) => window.__bench!.update(k), PARTIAL);
      m.partialMainMs.push(((await taskSeconds(cdp)) - t0) * 1000);
      t0 = await taskSeconds(cdp);
      const pageMs = await page.evaluate((f) => window.__bench!.glide(f), GLIDE_FRAMES);
      m.glideMainMs.push((((await taskSeconds(cdp)) - t0) * 1000) / GLIDE_FRAMES);
      m.glidePageMs.push(pageMs);
    }
    m.drawn = await page.evaluate(() => window.__bench!.drawnCount());
    if (contender === 'overlay') m.estimated = await page.evaluate(() => window.__bench!.estimatedCount());
    if (errors.length) throw new Error(`the bench page failed: ${errors[0]}`);
    return m;
  } finally {
    await context.close();
  }
}

export const mapUpdate: Benchmark = {
  name: 'map-update',
  title: '5. Map update',
  needsApp: false,
  async run(ctx) {
    const updates = ctx.quick ? 3 : 7;
    const page = await servePage(bundle());
    let browser: Browser | null = null;
    try {
      browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
      const figures: Figure[] = [];
      const runs: Record<string, unknown>[] = [];
      for (const n of SIZES) {
        const results = {} as Record<Contender, Measured>;
        for (const contender of ['overlay', 'markers'] as const) {
          ctx.log(`  ${n} buses, ${contender === 'overlay' ? 'Fleetmap bus overlay' : 'DOM markers'}: ${updates} × (update of every bus, update of ${PARTIAL}, ${GLIDE_FRAMES} glide frames)`);
          results[contender] = await measure(browser, page.url, contender, n, updates);
          if (results[contender].drawn !== n) throw new Error(`${contender} drew ${results[contender].drawn} of ${n} buses`);
        }
        const o = results.overlay;
        const m = results.markers;
        runs.push({ buses: n, overlay: o, markers: m });
        figures.push(
          { metric: `${n} buses: main-thread time per update, every bus moved (median)`, unit: 'ms', fleetmap: median(o.updateMainMs), peer: median(m.updateMainMs), better: 'lower' },
          { metric: `${n} buses: main-thread time per update, ${PARTIAL} buses moved (median)`, unit: 'ms', fleetmap: median(o.partialMainMs), peer: median(m.partialMainMs), better: 'lower' },
          { metric: `${n} buses: main-thread time per glide frame (median)`, unit: 'ms', fleetmap: median(o.glideMainMs), peer: median(m.glideMainMs), better: 'lower' },
          { metric: `${n} buses: update until drawn (median)`, unit: 'ms', fleetmap: median(o.updateWallMs), peer: median(m.updateWallMs), better: 'lower' },
        );
      }
      return {
        peer: 'DOM markers',
        conditions:
          `Chromium ${VIEWPORT.width}×${VIEWPORT.height} headless, SwiftShader WebGL, zoom ${ZOOM} over Manhattan (every bus drawn on its own), offline basemap; buses on trips along 40 synthetic routes of ${16} stops; ` +
          `${updates} rounds after one warm-up, each: an update giving every bus a new fix 10–40 m further along its route, an update giving ${PARTIAL} buses one, then ${GLIDE_FRAMES} animation frames of motion; ` +
          `Fleetmap: placement of every bus (lib/placement/bus-placement, estimates) and the bus overlay (only changed buses written to the GPU, motion by the GPU, the map itself not redrawn); ` +
          `markers: setLngLat on each moved marker, and during motion on every marker each frame (a 1 s glide to the new fix); update = until two frames; glide frame = task time over the frames ÷ ${GLIDE_FRAMES}`,
        figures,
        details: { sizes: SIZES, viewport: VIEWPORT, zoom: ZOOM, updates, partial: PARTIAL, glideFrames: GLIDE_FRAMES, runs },
      };
    } finally {
      await browser?.close();
      await page.close();
    }
  },
};
