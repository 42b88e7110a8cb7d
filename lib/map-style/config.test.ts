import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapStyleConfig, readMapStyleConfig } from './config';
import { PMTILES_STYLE_URL } from './protomaps-style';

describe('readMapStyleConfig', () => {
  it('gives the offline style for an empty environment (blank counts as unset)', () => {
    expect(readMapStyleConfig({ MAP_STYLE_URL: '  ' })).toEqual({ ok: true, config: { styleUrl: null, styleUrlDark: null, pmtiles: null } });
  });

  it('reads both hosted styles', () => {
    const r = readMapStyleConfig({ MAP_STYLE_URL: 'https://tiles.example.org/light.json', MAP_STYLE_URL_DARK: 'http://127.0.0.1:8080/dark.json' });
    expect(r.ok && r.config).toEqual({ styleUrl: 'https://tiles.example.org/light.json', styleUrlDark: 'http://127.0.0.1:8080/dark.json', pmtiles: null });
  });

  it('turns MAP_PMTILES into an absolute path and the map style into the app-served archive', () => {
    const r = readMapStyleConfig({ MAP_PMTILES: ' data/nyc.pmtiles ' });
    expect(r.ok && r.config.pmtiles).toBe(resolve('data/nyc.pmtiles'));
    expect(r.ok && r.config.styleUrl).toBe(PMTILES_STYLE_URL);
    expect(r.ok && r.config.styleUrlDark).toBeNull();
  });

  it('refuses MAP_PMTILES together with a hosted style', () => {
    for (const hosted of [{ MAP_STYLE_URL: 'https://tiles.example.org/light.json' }, { MAP_STYLE_URL_DARK: 'https://tiles.example.org/dark.json' }]) {
      const r = readMapStyleConfig({ MAP_PMTILES: '/srv/nyc.pmtiles', ...hosted });
      expect(r.ok ? [] : r.problems).toEqual([expect.stringMatching(/^MAP_PMTILES and MAP_STYLE_URL\(_DARK\) are both set/)]);
    }
  });

  it('names each bad variable', () => {
    const r = readMapStyleConfig({ MAP_STYLE_URL: 'file:///etc/passwd', MAP_STYLE_URL_DARK: 'not a url' });
    expect(r.ok ? [] : r.problems).toEqual(['MAP_STYLE_URL must be an http(s) URL', 'MAP_STYLE_URL_DARK must be an http(s) URL']);
  });

  it('falls back to the offline style on an invalid configuration (the pages must not fail on it)', () => {
    expect(mapStyleConfig({ MAP_STYLE_URL: 'ftp://x' })).toEqual({ styleUrl: null, styleUrlDark: null, pmtiles: null });
    expect(mapStyleConfig({ MAP_STYLE_URL: 'https://tiles.example.org/light.json' }).styleUrl).toBe('https://tiles.example.org/light.json');
  });
});
