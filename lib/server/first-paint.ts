import 'server-only';
import { preload, preloadModule } from 'react-dom';
import { MAPLIBRE_URL } from '@/lib/map-style/maplibre-files';
import { BASEMAP_PATHS, LABEL_FONT } from '@/lib/map-style/offline-style';
import { encodeCompactFull, liveInRoutes, type CompactLiveWithRoster, type LiveSnapshot } from '@/lib/model';
import { firstPaintRoster } from '@/lib/http/live-answer';
import { appContext } from './context';
import { pageNonce } from './page-nonce';

// What a live page needs for its first paint, given with the page so that the browser does not discover it
// one request after another: the live snapshot (rendered into the React Query cache) and the offline map's
// first resources.

/**
 * The live snapshot to render the page with, in the compact form the browser's feed reads (lib/model/live-compact.ts:
 * at 10,000 buses a fifth of the JSON form's bytes in the page), and only the buses and trips of `routes` for a wall
 * token limited to some (as /api/live answers it, lib/http/live-scope.ts), with the roster of its buses' names it
 * names (lib/model/live-roster.ts: the page keeps it, and asks /api/live for it only when it changes). Undefined
 * while the server starts (no application context yet) or when the feed cannot give one: the browser then asks
 * /api/live as it always could.
 */
export function firstLive(routes: readonly string[] | null = null): CompactLiveWithRoster | undefined {
  let snapshot: LiveSnapshot;
  try {
    const ctx = appContext();
    if (!ctx) return undefined;
    snapshot = ctx.feed.liveSnapshot().snapshot;
  } catch {
    return undefined;
  }
  const view = routes ? liveInRoutes(snapshot, routes) : snapshot;
  const { version, roster } = firstPaintRoster(routes, view.vehicles);
  return { live: encodeCompactFull(view, version), roster };
}

/**
 * With the offline basemap (no style URL configured), asks the browser to fetch the labels' glyphs while the
 * scripts load: the style itself is inlined in the map's code, and MapLibre's main thread fetches glyphs with
 * the same request mode as this preload. The GeoJSON layers are fetched by MapLibre's worker, which a page's
 * preload cannot serve, so they are not listed.
 */
export function preloadOfflineMap(styleUrls: Array<string | null>): void {
  if (styleUrls.some((u) => u !== null && u.trim() !== '')) return;
  const glyphs = BASEMAP_PATHS.glyphs.replace('{fontstack}', LABEL_FONT).replace('{range}', '0-255');
  preload(encodeURI(glyphs), { as: 'fetch', crossOrigin: 'anonymous' });
}

/**
 * Asks the browser to fetch MapLibre (lib/map-style/maplibre-files.ts) while it fetches the page's scripts: a
 * <link rel="modulepreload"> in the page's <head>. It carries the page's CSP nonce: under 'strict-dynamic' a preload
 * without it is refused (proxy.ts sets it, lib/http/security-headers.ts).
 */
export async function preloadMapLibre(): Promise<void> {
  preloadModule(MAPLIBRE_URL, { as: 'script', nonce: await pageNonce() });
}
