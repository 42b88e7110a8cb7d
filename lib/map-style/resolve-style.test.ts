import { describe, expect, it, vi } from 'vitest';
import { offlineStyle } from './offline-style';
import { PMTILES_STYLE_URL, PROTOMAPS_SOURCE_ID } from './protomaps-style';
import { prepareBasemap, resolveMapStyle } from './resolve-style';

const ORIGIN = 'http://127.0.0.1:4123';
const base = { origin: ORIGIN, styleUrl: null, styleUrlDark: null };

describe('resolveMapStyle', () => {
  it('uses the offline style of the theme when no style is configured', () => {
    for (const theme of ['light', 'dark'] as const) expect(resolveMapStyle({ ...base, theme })).toEqual(offlineStyle({ theme, origin: ORIGIN }));
    expect(resolveMapStyle({ ...base, theme: 'light', styleUrl: '  ' })).toEqual(offlineStyle({ theme: 'light', origin: ORIGIN }));
  });

  it('prefers the hosted styles when configured', () => {
    const styleUrl = 'https://tiles.example.org/light.json';
    const styleUrlDark = 'https://tiles.example.org/dark.json';
    expect(resolveMapStyle({ ...base, theme: 'light', styleUrl, styleUrlDark })).toBe(styleUrl);
    expect(resolveMapStyle({ ...base, theme: 'dark', styleUrl, styleUrlDark })).toBe(styleUrlDark);
    expect(resolveMapStyle({ ...base, theme: 'dark', styleUrl })).toBe(styleUrl);
    // A dark-only hosted style leaves the light theme offline.
    expect(typeof resolveMapStyle({ ...base, theme: 'light', styleUrlDark })).toBe('object');
  });
});

describe('a PMTiles basemap', () => {
  it('is refused until prepareBasemap has loaded the Protomaps style, then drawn with it in both themes', async () => {
    expect(() => resolveMapStyle({ ...base, theme: 'light', styleUrl: PMTILES_STYLE_URL })).toThrow(/prepareBasemap/);
    const addProtocol = vi.fn();
    const maplibre = { addProtocol } as unknown as typeof import('maplibre-gl');
    await prepareBasemap(maplibre, { styleUrl: PMTILES_STYLE_URL, styleUrlDark: null });
    await prepareBasemap(maplibre, { styleUrl: PMTILES_STYLE_URL, styleUrlDark: null });
    expect(addProtocol).toHaveBeenCalledTimes(1);
    expect(addProtocol.mock.calls[0]![0]).toBe('pmtiles');
    expect(typeof addProtocol.mock.calls[0]![1]).toBe('function');
    for (const theme of ['light', 'dark'] as const) {
      const style = resolveMapStyle({ ...base, theme, styleUrl: PMTILES_STYLE_URL });
      if (typeof style === 'string') throw new Error('expected a style object');
      expect(style.sources[PROTOMAPS_SOURCE_ID]).toMatchObject({ type: 'vector', url: `pmtiles://${ORIGIN}/api/basemap/region.pmtiles` });
      expect(style.name).toContain(theme);
    }
  });

  it('registers nothing and loads nothing for the offline or a hosted style', async () => {
    const addProtocol = vi.fn();
    await prepareBasemap({ addProtocol } as unknown as typeof import('maplibre-gl'), { styleUrl: 'https://tiles.example.org/light.json', styleUrlDark: null });
    await prepareBasemap({ addProtocol } as unknown as typeof import('maplibre-gl'), { styleUrl: null, styleUrlDark: ' ' });
    expect(addProtocol).not.toHaveBeenCalled();
  });
});
