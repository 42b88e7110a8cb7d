import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import type { StyleSpecification } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import {
  BASEMAP_LABEL_LAYER_IDS,
  BASEMAP_LAYER_IDS,
  LABEL_FONT,
  LOCAL_LAND_SOURCE_ID,
  NETWORK_LAYER_IDS,
  NETWORK_SOURCE_ID,
  PLACES_SOURCE_ID,
  STREETS_SOURCE_ID,
  WORLD_LAND_SOURCE_ID,
  networkLayers,
  offlineStyle,
  type MapTheme,
} from './offline-style';

const ROOT = join(__dirname, '..', '..');
const PUBLIC = join(ROOT, 'public');
const ORIGIN = 'http://127.0.0.1:4123';
const THEMES: MapTheme[] = ['light', 'dark'];
// The Manhattan network's extent; the simulator's network file, when present, must agree with the land file.
const FALLBACK_NETWORK_BOX = [-74.03, 40.68, -73.9, 40.89] as const;

type Position = [number, number];
type Ring = Position[];
interface LandFile {
  type: string;
  features: Array<{ properties: { kind: string }; geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } }>;
}

function readLand(file: string): LandFile {
  return JSON.parse(readFileSync(join(PUBLIC, 'basemap', file), 'utf8')) as LandFile;
}

function polygonsOf(feature: LandFile['features'][number]): Ring[][] {
  return feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates;
}

function allPositions(file: LandFile): Position[] {
  return file.features.flatMap((f) => polygonsOf(f).flat(2));
}

function inRing([x, y]: Position, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** How MapLibre fills it: inside an outer ring and not inside one of that polygon's holes. */
function isLand(file: LandFile, point: Position): boolean {
  return file.features
    .filter((f) => f.properties.kind === 'land')
    .some((f) => polygonsOf(f).some(([outer, ...holes]) => outer !== undefined && inRing(point, outer) && !holes.some((h) => inRing(point, h))));
}

function sourceUrls(style: StyleSpecification): string[] {
  return Object.values(style.sources).flatMap((s) => {
    const urls: string[] = [];
    if ('url' in s && typeof s.url === 'string') urls.push(s.url);
    if ('tiles' in s && Array.isArray(s.tiles)) urls.push(...s.tiles);
    if (s.type === 'geojson' && typeof s.data === 'string') urls.push(s.data);
    return urls;
  });
}

function fontStacks(style: StyleSpecification): string[] {
  return style.layers.flatMap((l) => {
    if (l.type !== 'symbol') return [];
    const font = l.layout?.['text-font'];
    if (!Array.isArray(font) || !font.every((f) => typeof f === 'string')) throw new Error(`${l.id}: text-font must be a literal list of fonts`);
    return [(font as string[]).join(',')];
  });
}

describe('offlineStyle', () => {
  it.each(THEMES)('is a valid MapLibre style (%s)', (theme) => {
    expect(validateStyleMin(offlineStyle({ theme, origin: ORIGIN }))).toEqual([]);
  });

  it.each(THEMES)('loads every source and glyph from the given origin only (%s)', (theme) => {
    const style = offlineStyle({ theme, origin: `${ORIGIN}/some/page?x=1` });
    const urls = [...sourceUrls(style), style.glyphs!];
    expect(urls).toHaveLength(6);
    for (const url of urls) expect(new URL(url.replace(/[{}]/g, '')).origin).toBe(ORIGIN);
    expect(style.sprite).toBeUndefined();
  });

  it('has the land, street, place and network sources; land and streets under the network, basemap labels on top', () => {
    const style = offlineStyle({ theme: 'light', origin: ORIGIN });
    expect(Object.keys(style.sources).sort()).toEqual([LOCAL_LAND_SOURCE_ID, NETWORK_SOURCE_ID, PLACES_SOURCE_ID, STREETS_SOURCE_ID, WORLD_LAND_SOURCE_ID].sort());
    const ids = style.layers.map((l) => l.id);
    expect(ids).toEqual([...Object.values(BASEMAP_LAYER_IDS), ...Object.values(NETWORK_LAYER_IDS), ...Object.values(BASEMAP_LABEL_LAYER_IDS)]);
    expect(style.sources[NETWORK_SOURCE_ID]).toMatchObject({ type: 'geojson', data: `${ORIGIN}/api/network` });
  });

  it('shows stops from zoom 14 and their names from zoom 16', () => {
    const layers = networkLayers('dark');
    expect(layers.find((l) => l.id === NETWORK_LAYER_IDS.stops)?.minzoom).toBe(14);
    expect(layers.find((l) => l.id === NETWORK_LAYER_IDS.stopNames)?.minzoom).toBe(16);
  });

  it('credits every data source', () => {
    const style = offlineStyle({ theme: 'dark', origin: ORIGIN });
    const credits = Object.values(style.sources)
      .map((s) => ('attribution' in s ? s.attribution : undefined))
      .join(', ');
    expect(credits).toContain('© OpenStreetMap contributors');
    expect(credits).toContain('Natural Earth');
    expect(credits).toContain('MTA New York City Transit');
    expect(credits).toContain('GeoNames');
    const withoutNetworkCredit = offlineStyle({ theme: 'dark', origin: ORIGIN, networkAttribution: null });
    expect(withoutNetworkCredit.sources[NETWORK_SOURCE_ID]).not.toHaveProperty('attribution');
  });

  it('draws the themes differently', () => {
    const background = (theme: MapTheme) => JSON.stringify(offlineStyle({ theme, origin: ORIGIN }).layers[0]);
    expect(background('light')).not.toBe(background('dark'));
  });

  it('has a glyph file in public/fonts for every font it uses and the ranges it ships', () => {
    const style = offlineStyle({ theme: 'light', origin: ORIGIN });
    const stacks = [...new Set(fontStacks(style))];
    expect(stacks).toEqual([LABEL_FONT]);
    for (const stack of stacks) {
      for (const range of ['0-255', '256-511', '8192-8447']) {
        // Resolve through the style's own template, so a wrong path in `glyphs` fails here too.
        const url = style.glyphs!.replace('{fontstack}', stack).replace('{range}', range);
        const file = join(PUBLIC, decodeURIComponent(new URL(url).pathname));
        expect(existsSync(file), file).toBe(true);
        expect(readFileSync(file).length).toBeGreaterThan(1000);
      }
    }
  });

  it('rejects an origin that is not an absolute http(s) URL', () => {
    expect(() => offlineStyle({ theme: 'light', origin: 'localhost:3000' })).toThrow(/http/);
    expect(() => offlineStyle({ theme: 'light', origin: '/relative' })).toThrow(/absolute http\(s\) URL/);
    expect(() => offlineStyle({ theme: 'light', origin: 'file:///tmp' })).toThrow(/http or https/);
  });
});

describe('land files', () => {
  it('local land: an extent covering the network with land cut to it', () => {
    const land = readLand('land-local.geojson');
    expect(land.type).toBe('FeatureCollection');
    const extent = land.features.find((f) => f.properties.kind === 'extent');
    expect(extent).toBeDefined();
    const [minX, minY, maxX, maxY] = polygonsOf(extent!)[0]![0]!.reduce(
      ([a, b, c, d], [x, y]) => [Math.min(a, x), Math.min(b, y), Math.max(c, x), Math.max(d, y)],
      [Infinity, Infinity, -Infinity, -Infinity],
    );
    const networkFile = join(ROOT, 'lib/sim/data/manhattan-network.json');
    const network = existsSync(networkFile) ? (JSON.parse(readFileSync(networkFile, 'utf8')) as { bbox: number[] }).bbox : [...FALLBACK_NETWORK_BOX];
    // Re-run scripts/data/clip-land.mjs when this fails: the network has grown past the land.
    expect(minX).toBeLessThan(network[0]!);
    expect(minY).toBeLessThan(network[1]!);
    expect(maxX).toBeGreaterThan(network[2]!);
    expect(maxY).toBeGreaterThan(network[3]!);
    // Land may overhang the extent by its 100 m seam overlap, no more.
    const slack = 0.002;
    for (const [x, y] of allPositions(land)) {
      expect(x).toBeGreaterThanOrEqual(minX - slack);
      expect(x).toBeLessThanOrEqual(maxX + slack);
      expect(y).toBeGreaterThanOrEqual(minY - slack);
      expect(y).toBeLessThanOrEqual(maxY + slack);
    }
  });

  it('local land: no sliver lakes (the source draws them as triangles at this scale)', () => {
    const land = readLand('land-local.geojson');
    const holes = land.features.filter((f) => f.properties.kind === 'land').flatMap((f) => polygonsOf(f).flatMap((polygon) => polygon.slice(1)));
    const kmPerDegree = 111.32;
    const xScale = Math.cos((40.78 * Math.PI) / 180);
    for (const hole of holes) {
      let twice = 0;
      for (let i = 0; i < hole.length - 1; i++) twice += hole[i]![0]! * hole[i + 1]![1]! - hole[i + 1]![0]! * hole[i]![1]!;
      expect(Math.abs(twice / 2) * xScale * kmPerDegree ** 2).toBeGreaterThanOrEqual(5);
    }
    expect(isLand(land, [-74.0452, 40.8138])).toBe(true); // New Jersey by the Meadowlands, formerly a wedge of water
    expect(isLand(land, [-73.9191, 40.7283])).toBe(true); // Maspeth, Queens, likewise
  });

  it('local land: Manhattan is land; the Hudson, East and Harlem rivers are water; Roosevelt Island is land', () => {
    const land = readLand('land-local.geojson');
    expect(isLand(land, [-73.973, 40.772])).toBe(true); // Central Park
    expect(isLand(land, [-73.934, 40.815])).toBe(false); // the Harlem River off E 135 St
    expect(isLand(land, [-73.92, 40.84])).toBe(true); // the Bronx
    expect(isLand(land, [-74.0, 40.72])).toBe(true); // SoHo
    expect(isLand(land, [-74.025, 40.73])).toBe(false); // the Hudson off Greenwich Village
    expect(isLand(land, [-73.968, 40.735])).toBe(false); // the East River off Stuyvesant Town
    expect(isLand(land, [-73.946, 40.767])).toBe(true); // Roosevelt Island
    expect(isLand(land, [-73.966, 40.74])).toBe(false); // the East River off E 34 St, south of Roosevelt Island
  });

  it('local land: the network stands on it (the old land file had 218 of 1,815 stops in notches of water)', () => {
    const land = readLand('land-local.geojson');
    const network = JSON.parse(readFileSync(join(ROOT, 'lib/sim/data/manhattan-network.json'), 'utf8')) as { routes: Array<{ directions: Array<{ stops: Array<{ stopId: string; lon: number; lat: number }> }> }> };
    const stops = new Map(network.routes.flatMap((r) => r.directions.flatMap((d) => d.stops.map((s) => [s.stopId, [s.lon, s.lat] as Position]))));
    const wet = [...stops.values()].filter((p) => !isLand(land, p));
    // Riverbank State Park stands on a platform over the Hudson; the source's shore is generalised to ~100 m.
    expect(wet.length / stops.size).toBeLessThan(0.005);
  });

  it('streets: the skeleton is named after real streets and lies inside the local extent', () => {
    const streets = JSON.parse(readFileSync(join(PUBLIC, 'basemap', 'streets.geojson'), 'utf8')) as {
      features: Array<{ properties: { name?: string }; geometry: { type: string; coordinates: Position[] } }>;
    };
    const names = new Set(streets.features.map((f) => f.properties.name).filter(Boolean));
    for (const street of ['Broadway', '5 Av', 'Madison Av', 'W 125 St', 'Amsterdam Av']) expect(names.has(street), street).toBe(true);
    const extent = readLand('land-local.geojson').features.find((f) => f.properties.kind === 'extent')!;
    const [outer] = polygonsOf(extent)[0]!;
    for (const f of streets.features) {
      expect(f.geometry.type).toBe('LineString');
      for (const p of f.geometry.coordinates) expect(inRing(p, outer!), JSON.stringify(p)).toBe(true);
    }
  });

  it('places: boroughs and neighbourhoods around the network, ranked', () => {
    const places = JSON.parse(readFileSync(join(PUBLIC, 'basemap', 'places.geojson'), 'utf8')) as {
      features: Array<{ properties: { name: string; rank: number } }>;
    };
    const rank = new Map(places.features.map((f) => [f.properties.name, f.properties.rank]));
    expect(rank.get('Manhattan')).toBe(1);
    expect(rank.get('Harlem')).toBe(2);
    expect(rank.get('Inwood')).toBe(3);
    expect(rank.has('Hoboken')).toBe(true);
  });

  it('world land: whole-world coordinates, continents as land and oceans as water', () => {
    const world = readLand('land-world.geojson');
    for (const [x, y] of allPositions(world)) {
      expect(Math.abs(x)).toBeLessThanOrEqual(180);
      expect(Math.abs(y)).toBeLessThanOrEqual(90);
    }
    expect(isLand(world, [-100, 40])).toBe(true); // Kansas
    expect(isLand(world, [20, 0])).toBe(true); // Congo
    expect(isLand(world, [-40, 30])).toBe(false); // North Atlantic
    expect(isLand(world, [-150, -10])).toBe(false); // South Pacific, crossed by no wrapped ring
    expect(isLand(world, [0, -80])).toBe(true); // Antarctica
  });
});
