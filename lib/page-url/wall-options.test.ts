import { describe, expect, it } from 'vitest';
import { parseWallOptions, rotationIndex } from './wall-options';

describe('parseWallOptions', () => {
  it('defaults to the whole network, no rotation, dark', () => {
    expect(parseWallOptions({})).toEqual({ routes: [], rotateS: null, ladder: [], theme: 'dark', problems: [] });
  });
  it('reads routes, rotation and theme', () => {
    expect(parseWallOptions({ routes: 'M15, M101,,M15', rotate: '30', theme: 'light' })).toEqual({
      routes: ['M15', 'M101'],
      rotateS: 30,
      ladder: [],
      theme: 'light',
      problems: [],
    });
    expect(parseWallOptions({ routes: ['M15', '7'] }).routes).toEqual(['M15', '7']);
  });
  it('ignores bad values with a clear note', () => {
    const o = parseWallOptions({ routes: 'M15,<script>', rotate: '2', theme: 'neon' });
    expect(o.routes).toEqual(['M15']);
    expect(o.rotateS).toBeNull();
    expect(o.theme).toBe('dark');
    expect(o.problems).toEqual([
      'Ignored route "<script>": not a route code or id.',
      'Ignored rotate="2": give whole seconds from 5 to 3600.',
      'Ignored theme="neon": use light or dark.',
    ]);
    expect(parseWallOptions({ rotate: '1.5e1' }).problems).toHaveLength(1);
    expect(parseWallOptions({ rotate: '0' }).rotateS).toBeNull();
  });
  it('reads the routes drawn as ladders in place of the map', () => {
    expect(parseWallOptions({ ladder: 'M15, M101,m15' })).toMatchObject({ ladder: ['M15', 'M101'], problems: [] });
    expect(parseWallOptions({ ladder: 'M15,<b>' })).toMatchObject({ ladder: ['M15'], problems: ['Ignored ladder route "<b>": not a route code or id.'] });
  });
});

describe('rotationIndex', () => {
  it('advances every rotateS seconds and wraps', () => {
    expect(rotationIndex(0, 30, 3)).toBe(0);
    expect(rotationIndex(29_999, 30, 3)).toBe(0);
    expect(rotationIndex(30_000, 30, 3)).toBe(1);
    expect(rotationIndex(90_000, 30, 3)).toBe(0);
    expect(rotationIndex(5, 30, 0)).toBe(-1);
  });
});
