// The production basemap: a PMTiles extract of the agency's region (MAP_PMTILES), served by the app itself at
// PMTILES_ARCHIVE_PATH and read through MapLibre's `pmtiles://` protocol, drawn with the Protomaps basemap
// style (@protomaps/basemaps, light and dark flavours) and our network on top. Pure data: the style module is
// passed in, so the ~40 KB of style code loads only when a PMTiles basemap is configured (resolve-style.ts).
//
// Two departures from the stock style, because nothing may come from another host:
// - Glyphs come from public/fonts, which has one face (Noto Sans Regular, scripts/data/basemap-glyphs.mjs); the
//   style's Medium, Italic and Devanagari faces are drawn in it. Names in scripts past the shipped ranges
//   (Latin, Latin Extended, punctuation) are skipped by MapLibre.
// - No sprite ships: the layers that only draw icons (one-way arrows, road shields) are left out, and POI and
//   town labels keep their text without the icon.
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';
import type { layers as protomapsLayers, namedFlavor } from '@protomaps/basemaps';
import { BASEMAP_PATHS, LABEL_FONT, NETWORK_SOURCE_ID, networkLayers, networkSource, normalizeOrigin, type MapTheme } from './offline-style';

export const PROTOMAPS_SOURCE_ID = 'protomaps';
/** Where the app serves the MAP_PMTILES file (app/api/basemap/region.pmtiles/route.ts). */
export { PMTILES_ARCHIVE_PATH, PMTILES_STYLE_URL } from '@/lib/model/basemap';
export const PROTOMAPS_ATTRIBUTION = '© OpenStreetMap contributors, Protomaps';

export interface ProtomapsModule {
  layers: typeof protomapsLayers;
  namedFlavor: typeof namedFlavor;
}

/** Layers that draw nothing but sprite icons. */
const ICON_ONLY_LAYERS = new Set(['roads_oneway', 'roads_shields']);

export function isPmtilesUrl(url: string | null): url is string {
  return url !== null && url.startsWith('pmtiles://');
}

/** Every font named anywhere in a layout value becomes LABEL_FONT (one face, so a font list becomes one entry). */
function withLocalFont(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('Noto Sans') ? LABEL_FONT : value;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === 'string' && v.startsWith('Noto Sans'))) return [LABEL_FONT];
    return value.map(withLocalFont);
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLocalFont(v)]));
  return value;
}

function localLayer(layer: LayerSpecification): LayerSpecification | null {
  if (ICON_ONLY_LAYERS.has(layer.id)) return null;
  if (layer.type !== 'symbol' || !layer.layout) return layer;
  const { 'icon-image': _icon, ...layout } = layer.layout;
  return { ...layer, layout: withLocalFont(layout) as typeof layout };
}

/**
 * The Protomaps style of `theme` over the archive at `archiveUrl` (`pmtiles://` + an absolute URL or a path on
 * `origin`), glyphs from `origin`, and the network from our API on top.
 */
export function protomapsStyle(opts: { theme: MapTheme; origin: string; archiveUrl: string; basemaps: ProtomapsModule }): StyleSpecification {
  const origin = normalizeOrigin(opts.origin);
  if (!isPmtilesUrl(opts.archiveUrl)) throw new TypeError(`a PMTiles basemap URL starts with pmtiles://, got ${JSON.stringify(opts.archiveUrl)}`);
  const archive = opts.archiveUrl.slice('pmtiles://'.length);
  const url = `pmtiles://${archive.startsWith('/') ? `${origin}${archive}` : archive}`;
  const flavor = opts.basemaps.namedFlavor(opts.theme);
  const layers = (opts.basemaps.layers(PROTOMAPS_SOURCE_ID, flavor, { lang: 'en' }) as LayerSpecification[])
    .map(localLayer)
    .filter((l): l is LayerSpecification => l !== null);
  return {
    version: 8,
    name: `Fleetmap PMTiles (${opts.theme})`,
    glyphs: `${origin}${BASEMAP_PATHS.glyphs}`,
    sources: {
      [PROTOMAPS_SOURCE_ID]: { type: 'vector', url, attribution: PROTOMAPS_ATTRIBUTION },
      [NETWORK_SOURCE_ID]: networkSource({ origin }),
    },
    layers: [...layers, ...networkLayers(opts.theme)],
  };
}
