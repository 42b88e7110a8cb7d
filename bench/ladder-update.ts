// The headways benchmark's ladder figure: the main-thread cost of one ladder update in Chromium. The page
// (bench/ladder-page) renders the app's own RouteLadder, one direction of 60 stops with 30 buses, and each update
// brings a new answer (every bus further along, the gaps measured again) and a new instant, rendered and painted.
// Main-thread time is the renderer main thread's task time (CDP Performance.getMetrics TaskDuration) from the update
// until two frames have been produced, as benchmark 5 measures the map.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../scripts/test/find-chromium.mjs';
import { listenOnLoopback } from './support/loopback';
import { bundle, taskSeconds } from './map-update';
import { distribution } from './support/stats';

type Distribution = NonNullable<ReturnType<typeof distribution>>;

export interface LadderUpdate {
  /** Main-thread task time per update, ms. */
  mainMs: Distribution;
  /** React's render and commit of the update alone (wall time inside the page), ms. */
  renderMs: Distribution;
  /** Buses drawn (a long column draws those near the screen). */
  drawn: number;
  /** The column's height, px. */
  columnPx: number;
}

async function serve(js: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const html = await readFile(join(__dirname, 'ladder-page', 'index.html'));
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bench.local').pathname;
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (path === '/bundle.js') return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(js);
    res.writeHead(404).end();
  });
  return listenOnLoopback(server);
}

export async function measureLadderUpdate(updates: number, column: { stops: number; buses: number } = { stops: 60, buses: 30 }): Promise<LadderUpdate> {
  const page = await serve(bundle(join(__dirname, 'ladder-page', 'entry.tsx')));
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: findChromium({ install: false }), args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(`${page.url}?stops=${column.stops}&buses=${column.buses}`);
    await tab.waitForFunction(() => window.__ladder !== undefined);
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Performance.enable');
    // A few untimed updates let the JIT warm up.
    for (let i = 0; i < 5; i++) await tab.evaluate(() => window.__ladder!.update());
    const mainMs: number[] = [];
    const renderMs: number[] = [];
    let drawn = 0;
    let columnPx = 0;
    for (let i = 0; i < updates; i++) {
      const t0 = await taskSeconds(cdp);
      const r = await tab.evaluate(() => window.__ladder!.update());
      mainMs.push(((await taskSeconds(cdp)) - t0) * 1000);
      renderMs.push(r.renderMs);
      drawn = r.buses;
      columnPx = r.columnPx;
    }
    if (errors.length) throw new Error(`the ladder page failed: ${errors.join('; ')}`);
    if (drawn === 0) throw new Error('the ladder page drew no bus');
    return { mainMs: distribution(mainMs)!, renderMs: distribution(renderMs)!, drawn, columnPx };
  } finally {
    await browser?.close();
    await page.close();
  }
}
