import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import * as basemaps from '@protomaps/basemaps';
import type { StyleSpecification } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import { LABEL_FONT, NETWORK_LAYER_IDS, NETWORK_SOURCE_ID } from './offline-style';
import { PMTILES_STYLE_URL, PROTOMAPS_SOURCE_ID, isPmtilesUrl, protomapsStyle } from './protomaps-style';

const ORIGIN = 'http://127.0.0.1:4123';
const PUBLIC = join(__dirname, '..', '..', 'public');

function style(theme: 'light' | 'dark', archiveUrl = PMTILES_STYLE_URL): StyleSpecification {
  return protomapsStyle({ theme, origin: `${ORIGIN}/any/page`, archiveUrl, basemaps });
}

/** Every string anywhere in a value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('protomapsStyle', () => {
  it.each(['light', 'dark'] as const)('is a valid MapLibre style over the archive on the app origin (%s)', (theme) => {
    const s = style(theme);
    expect(validateStyleMin(s)).toEqual([]);
    expect(s.sources[PROTOMAPS_SOURCE_ID]).toEqual({ type: 'vector', url: `pmtiles://${ORIGIN}/api/basemap/region.pmtiles`, attribution: expect.stringContaining('OpenStreetMap') });
    expect(s.glyphs).toBe(`${ORIGIN}/fonts/{fontstack}/{range}.pbf`);
    expect(s.sprite).toBeUndefined();
  });

  it('draws land, water, roads and places from the archive and the network on top', () => {
    const s = style('light');
    const fromArchive = new Set(s.layers.filter((l) => 'source' in l && l.source === PROTOMAPS_SOURCE_ID).map((l) => ('source-layer' in l ? l['source-layer'] : '')));
    for (const layer of ['earth', 'water', 'roads', 'places', 'landuse', 'buildings']) expect(fromArchive.has(layer), layer).toBe(true);
    const ids = s.layers.map((l) => l.id);
    expect(ids.slice(-Object.keys(NETWORK_LAYER_IDS).length)).toEqual(Object.values(NETWORK_LAYER_IDS));
    expect(s.sources[NETWORK_SOURCE_ID]).toMatchObject({ type: 'geojson', data: `${ORIGIN}/api/network` });
  });

  it('uses only the font the app ships, and no sprite icon', () => {
    for (const theme of ['light', 'dark'] as const) {
      const s = style(theme);
      const fonts = new Set(s.layers.flatMap((l) => ('layout' in l && l.layout ? strings(l.layout).filter((t) => t.startsWith('Noto Sans')) : [])));
      expect([...fonts]).toEqual([LABEL_FONT]);
      expect(existsSync(join(PUBLIC, 'fonts', LABEL_FONT, '0-255.pbf'))).toBe(true);
      for (const l of s.layers) {
        if (l.type === 'symbol') expect(l.layout?.['icon-image'], l.id).toBeUndefined();
        // A font list is [LABEL_FONT] itself or, inside an expression, ['literal', [LABEL_FONT]]: never two faces.
        const font = l.type === 'symbol' ? l.layout?.['text-font'] : undefined;
        if (Array.isArray(font) && font[0] !== 'case') expect(font, l.id).toEqual([LABEL_FONT]);
        if (Array.isArray(font) && font[0] === 'case') for (const choice of font.slice(2)) expect(choice, l.id).toEqual(['literal', [LABEL_FONT]]);
      }
    }
  });

  it('draws the themes with the light and dark flavours', () => {
    const background = (theme: 'light' | 'dark') => JSON.stringify(style(theme).layers.find((l) => l.type === 'background'));
    expect(background('light')).not.toBe(background('dark'));
  });

  it('keeps an absolute archive URL and refuses anything but pmtiles://', () => {
    expect(style('dark', 'pmtiles://https://tiles.example.org/nyc.pmtiles').sources[PROTOMAPS_SOURCE_ID]).toMatchObject({ url: 'pmtiles://https://tiles.example.org/nyc.pmtiles' });
    expect(() => style('dark', 'https://tiles.example.org/nyc.pmtiles')).toThrow(/pmtiles:\/\//);
    expect(isPmtilesUrl(null)).toBe(false);
    expect(isPmtilesUrl('https://x/style.json')).toBe(false);
  });
});
