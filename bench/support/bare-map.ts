// The first-bus peer: a bare MapLibre page with no app code. It draws the same buses as the app (the last fixes of
// the app's /api/live at the moment the peer is made, written to a static GeoJSON file) in one circle layer, over
// the app's own offline style (lib/map-style/offline-style, with the app's /api/network copied as a static file),
// framed as the app frames its first view (the buses' bounds, the same padding and zoom bound). A competent bare
// page: the map is made at once, the buses are fetched while the style loads. With ?feed=<ms> it also feeds its
// source again at that interval, every bus moved a few tens of metres: the peer for a live page's long tasks. Served by this
// process from loopback; Chromium loads MapLibre's ES module build and its worker from the same origin.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { Page } from '@playwright/test';
import { FIT_PADDING_PX, STREET_ZOOM } from '../../components/map/use-map-camera';
import { offlineStyle } from '../../lib/map-style/offline-style';
import { CONTENT_TYPES, listenOnLoopback } from './loopback';

const ROOT = join(__dirname, '..', '..');

export const BARE_BUS_LAYER = 'bare-buses';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>Bare MapLibre peer</title>
<link rel="stylesheet" href="/maplibre-gl.css" />
<style>html, body { margin: 0; height: 100%; } #map { position: absolute; inset: 0; }</style>
</head>
<body>
<div id="map"></div>
<script type="module">
import * as maplibregl from '/maplibre-gl.mjs';
maplibregl.setWorkerUrl('/maplibre-gl-worker.mjs');
// The buses are asked for while the style loads; the layer goes in as soon as both are there.
const buses = fetch('/buses.json').then((r) => r.json());
const map = new maplibregl.Map({ container: 'map', style: '/style.json', ...__VIEW__, attributionControl: false });
map.once('style.load', async () => {
  const data = await buses;
  map.addSource('buses', { type: 'geojson', data });
  map.addLayer({ id: '${BARE_BUS_LAYER}', type: 'circle', source: 'buses', paint: { 'circle-radius': 5, 'circle-color': '#1D4ED8', 'circle-stroke-color': '#FFFFFF', 'circle-stroke-width': 1.5 } });
  // ?feed=<ms>: a live map at its plainest, every bus moved a little and the source fed again at that interval.
  const feedMs = Number(new URLSearchParams(location.search).get('feed'));
  if (feedMs > 0) {
    setInterval(() => {
      for (const f of data.features) {
        f.geometry.coordinates[0] += (Math.random() - 0.5) * 4e-4;
        f.geometry.coordinates[1] += (Math.random() - 0.5) * 3e-4;
      }
      map.getSource('buses').setData(data);
    }, feedMs);
  }
});
window.__bare = map;
</script>
</body>
</html>`;

interface LiveLike {
  vehicles: Array<{ busId: number; lat: number | null; lon: number | null }>;
}

/** Serves the peer for the app at `appUrl`, with the buses the app has now. */
export async function startBareMapPeer(appUrl: string): Promise<{ url: string; buses: number; close(): Promise<void> }> {
  const [live, network] = await Promise.all([
    fetch(`${appUrl}/api/live`).then((r) => r.json() as Promise<LiveLike>),
    fetch(`${appUrl}/api/network`).then((r) => r.text()),
  ]);
  const placed = live.vehicles.filter((v): v is { busId: number; lat: number; lon: number } => v.lat !== null && v.lon !== null);
  if (placed.length === 0) throw new Error('the app has no located bus to draw');
  const buses = JSON.stringify({
    type: 'FeatureCollection',
    features: placed.map((v) => ({ type: 'Feature', id: v.busId, properties: {}, geometry: { type: 'Point', coordinates: [v.lon, v.lat] } })),
  });
  const lons = placed.map((v) => v.lon);
  const lats = placed.map((v) => v.lat);
  const view = JSON.stringify({
    bounds: [
      [Math.min(...lons), Math.min(...lats)],
      [Math.max(...lons), Math.max(...lats)],
    ],
    fitBoundsOptions: { padding: FIT_PADDING_PX, maxZoom: STREET_ZOOM },
  });
  const dist = join(ROOT, 'node_modules', 'maplibre-gl', 'dist');
  const publicDir = join(ROOT, 'public');
  let style = '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://peer.local').pathname);
    const send = (body: Buffer | string, type: string) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (path === '/') return send(PAGE.replace('__VIEW__', view), CONTENT_TYPES['.html']!);
    if (path === '/style.json') return send(style, CONTENT_TYPES['.json']!);
    if (path === '/buses.json') return send(buses, CONTENT_TYPES['.geojson']!);
    if (path === '/api/network') return send(network, CONTENT_TYPES['.geojson']!);
    let file: string | null = null;
    if (/^\/maplibre-gl[\w-]*\.(mjs|css)$/.test(path)) file = join(dist, path.slice(1));
    else if (path.startsWith('/basemap/') || path.startsWith('/fonts/')) {
      const resolved = normalize(join(publicDir, path));
      if (resolved.startsWith(publicDir + sep)) file = resolved;
    }
    if (!file) return res.writeHead(404).end();
    readFile(file).then(
      (body) => send(body, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'),
      () => res.writeHead(404).end(),
    );
  });
  const served = await listenOnLoopback(server);
  style = JSON.stringify(offlineStyle({ theme: 'light', origin: served.url.replace(/\/$/, '') }));
  return { url: served.url, buses: placed.length, close: served.close };
}

/** Navigation → the first animation frame in which the peer has drawn a bus, ms (performance.now at that frame). */
export async function bareFirstBusMs(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return waitForBareBus(page);
}

/** On a peer page already navigated to: the first animation frame in which it has drawn a bus, ms. */
export async function waitForBareBus(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    (layer) => {
      const map = (window as unknown as { __bare?: { getLayer(id: string): unknown; queryRenderedFeatures(o: { layers: string[] }): unknown[] } }).__bare;
      if (!map || !map.getLayer(layer) || map.queryRenderedFeatures({ layers: [layer] }).length === 0) return false;
      return performance.now();
    },
    BARE_BUS_LAYER,
    { polling: 'raf', timeout: 90_000 },
  );
  return (await handle.jsonValue()) as number;
}
