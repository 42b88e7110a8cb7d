// Which style the map loads, and what MapLibre needs before it can load it. Client-side: the PMTiles protocol
// and the Protomaps style code are imported only when the configuration asks for a PMTiles basemap, so the
// default offline map pays nothing for them.
import type { StyleSpecification } from 'maplibre-gl';
import type { MapLibre } from './maplibre-files';
import { offlineStyle, type MapTheme } from './offline-style';
import { isPmtilesUrl, protomapsStyle, type ProtomapsModule } from './protomaps-style';


let protomaps: ProtomapsModule | null = null;
let protocolRegistered = false;

interface StyleUrls {
  styleUrl: string | null;
  styleUrlDark: string | null;
}

/**
 * Registers the `pmtiles://` protocol with MapLibre and loads the Protomaps style code when either style URL
 * is a PMTiles archive; nothing otherwise. Await it before the first resolveMapStyle.
 */
export async function prepareBasemap(maplibre: MapLibre, urls: StyleUrls): Promise<void> {
  if (!isPmtilesUrl(configuredUrl(urls.styleUrl)) && !isPmtilesUrl(configuredUrl(urls.styleUrlDark))) return;
  const [{ Protocol }, basemaps] = await Promise.all([import('pmtiles'), import('@protomaps/basemaps')]);
  protomaps = basemaps;
  if (protocolRegistered) return;
  // One Protocol for the page: it caches each archive's header and directories across maps and styles.
  maplibre.addProtocol('pmtiles', new Protocol({ metadata: true }).tile);
  protocolRegistered = true;
}

function configuredUrl(value: string | null): string | null {
  return value !== null && value.trim() !== '' ? value.trim() : null;
}

/**
 * The style the map loads. A configured URL (MAP_STYLE_URL, and MAP_STYLE_URL_DARK for the dark theme) wins;
 * dark without its own URL uses MAP_STYLE_URL, because an operator who chose a basemap wants it everywhere.
 * A `pmtiles://` URL (MAP_PMTILES) is drawn with the Protomaps style; any other is a hosted style MapLibre
 * fetches. With none, the offline style. Callers pass the configured strings; this reads no env.
 */
export function resolveMapStyle(opts: StyleUrls & { theme: MapTheme; origin: string }): string | StyleSpecification {
  const url = (opts.theme === 'dark' ? configuredUrl(opts.styleUrlDark) : null) ?? configuredUrl(opts.styleUrl);
  if (url === null) return offlineStyle({ theme: opts.theme, origin: opts.origin });
  if (!isPmtilesUrl(url)) return url;
  if (!protomaps) throw new Error('A PMTiles basemap is configured but prepareBasemap() has not run: the Protomaps style is not loaded.');
  return protomapsStyle({ theme: opts.theme, origin: opts.origin, archiveUrl: url, basemaps: protomaps });
}
