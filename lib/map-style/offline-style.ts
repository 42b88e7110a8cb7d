// The map style that ships with the app: land and water, the street skeleton and place names from files under
// public/basemap (built by scripts/data/clip-land.mjs, basemap-world-land.mjs, basemap-streets.mjs and
// basemap-places.mjs), labels from glyphs under public/fonts, and the network from our own /api/network. Every
// URL is on the app's origin, so the map works with no internet. Pure data: no DOM, no env, safe to import
// from client components.
import type {
  CircleLayerSpecification,
  ExpressionSpecification,
  GeoJSONSourceSpecification,
  LayerSpecification,
  LineLayerSpecification,
  StyleSpecification,
  SymbolLayerSpecification,
} from 'maplibre-gl';

import type { Theme } from '@/lib/theme/theme';

export type MapTheme = Theme;

export const WORLD_LAND_SOURCE_ID = 'world-land';
export const LOCAL_LAND_SOURCE_ID = 'local-land';
export const NETWORK_SOURCE_ID = 'network';
export const STREETS_SOURCE_ID = 'streets';
export const PLACES_SOURCE_ID = 'places';

export const BASEMAP_LAYER_IDS = {
  background: 'basemap-water',
  worldLand: 'basemap-world-land',
  /** The clip box of the local land, painted as water so the coarse world coastline never fills the rivers. */
  localExtent: 'basemap-local-extent',
  localLand: 'basemap-local-land',
  streetCasing: 'basemap-street-casing',
  street: 'basemap-street',
} as const;

/** Basemap labels, drawn above the network's lines so a dispatcher can always read where a bus is. */
export const BASEMAP_LABEL_LAYER_IDS = {
  streetNames: 'basemap-street-names',
  neighbourhoods: 'basemap-place-neighbourhoods',
  boroughs: 'basemap-place-boroughs',
} as const;

export const NETWORK_LAYER_IDS = {
  routeLines: 'network-route-lines',
  routeCodes: 'network-route-codes',
  stops: 'network-stops',
  stopNames: 'network-stop-names',
} as const;

/** Paths on the app's origin (files under public/, and our API). */
export const BASEMAP_PATHS = {
  worldLand: '/basemap/land-world.geojson',
  localLand: '/basemap/land-local.geojson',
  streets: '/basemap/streets.geojson',
  places: '/basemap/places.geojson',
  network: '/api/network',
  glyphs: '/fonts/{fontstack}/{range}.pbf',
} as const;

/** The only face shipped in public/fonts (scripts/data/basemap-glyphs.mjs says why there is no bold). */
export const LABEL_FONT = 'Noto Sans Regular';

/** Network GeoJSON properties the labels read; the first one present wins. */
export const NETWORK_LABEL_PROPERTIES = {
  stopName: ['stopName', 'name'],
  routeCode: ['routeCode', 'code'],
} as const;

export const DEFAULT_NETWORK_ATTRIBUTION = 'MTA New York City Transit';
export const LAND_ATTRIBUTION = {
  local: '© OpenStreetMap contributors',
  world: 'Natural Earth',
} as const;
export const PLACES_ATTRIBUTION = 'GeoNames (CC BY 4.0)';

interface Palette {
  water: string;
  land: string;
  street: string;
  streetCasing: string;
  place: string;
  routeLine: string;
  routeLineOpacity: number;
  stopFill: string;
  stopStroke: string;
  label: string;
  labelHalo: string;
}

// Dark is for a wall display seen across a room: land and water stay apart without glare, and the network
// is a quiet backdrop so the buses drawn on top carry the contrast.
const PALETTES: Record<MapTheme, Palette> = {
  light: {
    water: '#b9cad6',
    land: '#f4f2ee',
    street: '#ffffff',
    streetCasing: '#d6d1c7',
    place: '#36404d',
    routeLine: '#7f8c99',
    routeLineOpacity: 0.75,
    stopFill: '#ffffff',
    stopStroke: '#7f8c99',
    label: '#4b5663',
    labelHalo: '#f4f2ee',
  },
  dark: {
    water: '#0c2038',
    land: '#121417',
    street: '#232830',
    streetCasing: '#1a1e24',
    place: '#a9b5c4',
    routeLine: '#3b4a5e',
    routeLineOpacity: 0.9,
    stopFill: '#1b2230',
    stopStroke: '#56677d',
    label: '#8a97a8',
    labelHalo: '#121417',
  },
};

/** `http://host:port` from any absolute http(s) URL; anything else is a caller bug and throws. */
export function normalizeOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`map style origin must be an absolute http(s) URL such as http://localhost:3000, got ${JSON.stringify(origin)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`map style origin must use http or https, got ${JSON.stringify(origin)}`);
  }
  return url.origin;
}

function firstProperty(names: readonly string[]): ExpressionSpecification {
  return ['coalesce', ...names.map((n): ExpressionSpecification => ['get', n]), ''];
}

const IS_LINE: ExpressionSpecification = ['match', ['geometry-type'], ['LineString', 'MultiLineString'], true, false];
const IS_POINT: ExpressionSpecification = ['match', ['geometry-type'], ['Point', 'MultiPoint'], true, false];

/** The network source, for the offline style and for adding the network on top of a hosted basemap. */
export function networkSource(opts: { origin: string; attribution?: string | null }): GeoJSONSourceSpecification {
  const attribution = opts.attribution === undefined ? DEFAULT_NETWORK_ATTRIBUTION : opts.attribution;
  return {
    type: 'geojson',
    data: `${normalizeOrigin(opts.origin)}${BASEMAP_PATHS.network}`,
    ...(attribution ? { attribution } : {}),
  };
}

/** Route lines, route codes, stops and stop names over `NETWORK_SOURCE_ID`, bottom to top. */
export function networkLayers(theme: MapTheme): LayerSpecification[] {
  const p = PALETTES[theme];
  const routeLines: LineLayerSpecification = {
    id: NETWORK_LAYER_IDS.routeLines,
    type: 'line',
    source: NETWORK_SOURCE_ID,
    filter: IS_LINE,
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: {
      'line-color': p.routeLine,
      'line-opacity': p.routeLineOpacity,
      'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.6, 14, 1.2, 18, 2],
    },
  };
  const routeCodes: SymbolLayerSpecification = {
    id: NETWORK_LAYER_IDS.routeCodes,
    type: 'symbol',
    source: NETWORK_SOURCE_ID,
    filter: IS_LINE,
    minzoom: 13,
    layout: {
      'symbol-placement': 'line',
      'symbol-spacing': 400,
      'text-field': firstProperty(NETWORK_LABEL_PROPERTIES.routeCode),
      'text-font': [LABEL_FONT],
      'text-size': 10,
    },
    paint: { 'text-color': p.label, 'text-halo-color': p.labelHalo, 'text-halo-width': 1.2 },
  };
  const stops: CircleLayerSpecification = {
    id: NETWORK_LAYER_IDS.stops,
    type: 'circle',
    source: NETWORK_SOURCE_ID,
    filter: IS_POINT,
    minzoom: 14,
    paint: {
      'circle-color': p.stopFill,
      'circle-stroke-color': p.stopStroke,
      'circle-stroke-width': 1,
      'circle-radius': ['interpolate', ['linear'], ['zoom'], 14, 2, 18, 4.5],
    },
  };
  const stopNames: SymbolLayerSpecification = {
    id: NETWORK_LAYER_IDS.stopNames,
    type: 'symbol',
    source: NETWORK_SOURCE_ID,
    filter: IS_POINT,
    minzoom: 16,
    layout: {
      'text-field': firstProperty(NETWORK_LABEL_PROPERTIES.stopName),
      'text-font': [LABEL_FONT],
      'text-size': 11,
      'text-anchor': 'top',
      'text-offset': [0, 0.6],
      'text-max-width': 8,
      'text-optional': true,
    },
    paint: { 'text-color': p.label, 'text-halo-color': p.labelHalo, 'text-halo-width': 1.2 },
  };
  return [routeLines, routeCodes, stops, stopNames];
}

// Street bands widen with the zoom like a road's true width on screen; below zoom 12 the network's own lines
// are detail enough, and the bands would only thicken the island into a grey mesh.
const STREET_WIDTH: ExpressionSpecification = ['interpolate', ['exponential', 1.6], ['zoom'], 12, 0.8, 14, 3.5, 16, 10, 18, 28];
const STREET_CASING_WIDTH: ExpressionSpecification = ['interpolate', ['exponential', 1.6], ['zoom'], 12, 1.6, 14, 5, 16, 12.5, 18, 32];

/** The street skeleton (streets the network runs on), as bands under the network's lines. */
function streetLayers(theme: MapTheme): LineLayerSpecification[] {
  const p = PALETTES[theme];
  const base = { type: 'line', source: STREETS_SOURCE_ID, minzoom: 12, layout: { 'line-join': 'round', 'line-cap': 'round' } } as const;
  return [
    { ...base, id: BASEMAP_LAYER_IDS.streetCasing, paint: { 'line-color': p.streetCasing, 'line-width': STREET_CASING_WIDTH } },
    { ...base, id: BASEMAP_LAYER_IDS.street, paint: { 'line-color': p.street, 'line-width': STREET_WIDTH } },
  ];
}

/** Street names at street zoom, then neighbourhoods and boroughs: what a dispatcher orients by. */
function basemapLabelLayers(theme: MapTheme): SymbolLayerSpecification[] {
  const p = PALETTES[theme];
  const halo = { 'text-halo-color': p.labelHalo, 'text-halo-width': 1.5 };
  // Larger places win a collision: GeoNames' population is the best importance we have.
  const byPopulation: ExpressionSpecification = ['-', ['get', 'population']];
  return [
    {
      id: BASEMAP_LABEL_LAYER_IDS.streetNames,
      type: 'symbol',
      source: STREETS_SOURCE_ID,
      minzoom: 14,
      filter: ['has', 'name'],
      layout: {
        'symbol-placement': 'line',
        'symbol-spacing': 350,
        'text-field': ['get', 'name'],
        'text-font': [LABEL_FONT],
        'text-size': ['interpolate', ['linear'], ['zoom'], 14, 10, 18, 13],
        'text-max-angle': 30,
      },
      paint: { 'text-color': p.label, ...halo },
    },
    {
      id: BASEMAP_LABEL_LAYER_IDS.neighbourhoods,
      type: 'symbol',
      source: PLACES_SOURCE_ID,
      minzoom: 12,
      // At street zoom the streets' own names take over.
      maxzoom: 16,
      filter: ['>', ['get', 'rank'], 1],
      layout: {
        'symbol-sort-key': byPopulation,
        'text-field': ['get', 'name'],
        'text-font': [LABEL_FONT],
        'text-size': ['interpolate', ['linear'], ['zoom'], 12, 11, 16, 14],
        'text-max-width': 7,
        'text-letter-spacing': 0.04,
      },
      paint: { 'text-color': p.place, ...halo },
    },
    {
      id: BASEMAP_LABEL_LAYER_IDS.boroughs,
      type: 'symbol',
      source: PLACES_SOURCE_ID,
      minzoom: 9,
      maxzoom: 14,
      filter: ['==', ['get', 'rank'], 1],
      layout: {
        'symbol-sort-key': byPopulation,
        'text-field': ['get', 'name'],
        'text-font': [LABEL_FONT],
        'text-size': ['interpolate', ['linear'], ['zoom'], 9, 12, 13, 17],
        'text-transform': 'uppercase',
        'text-letter-spacing': 0.12,
      },
      paint: { 'text-color': p.place, ...halo },
    },
  ];
}

/**
 * The offline style: water, world land, local land, the street skeleton, then the network, then the basemap's
 * labels. `networkAttribution` credits the network's data (default: the simulator's MTA source; null for none).
 */
export function offlineStyle(opts: { theme: MapTheme; origin: string; networkAttribution?: string | null }): StyleSpecification {
  const origin = normalizeOrigin(opts.origin);
  const p = PALETTES[opts.theme];
  return {
    version: 8,
    name: `Fleetmap offline (${opts.theme})`,
    glyphs: `${origin}${BASEMAP_PATHS.glyphs}`,
    sources: {
      [WORLD_LAND_SOURCE_ID]: { type: 'geojson', data: `${origin}${BASEMAP_PATHS.worldLand}`, attribution: LAND_ATTRIBUTION.world },
      [LOCAL_LAND_SOURCE_ID]: { type: 'geojson', data: `${origin}${BASEMAP_PATHS.localLand}`, attribution: LAND_ATTRIBUTION.local },
      // The skeleton is drawn from the simulator's network, whatever network the app is showing.
      [STREETS_SOURCE_ID]: { type: 'geojson', data: `${origin}${BASEMAP_PATHS.streets}`, attribution: DEFAULT_NETWORK_ATTRIBUTION },
      [PLACES_SOURCE_ID]: { type: 'geojson', data: `${origin}${BASEMAP_PATHS.places}`, attribution: PLACES_ATTRIBUTION },
      [NETWORK_SOURCE_ID]: networkSource({ origin, attribution: opts.networkAttribution }),
    },
    layers: [
      { id: BASEMAP_LAYER_IDS.background, type: 'background', paint: { 'background-color': p.water } },
      { id: BASEMAP_LAYER_IDS.worldLand, type: 'fill', source: WORLD_LAND_SOURCE_ID, paint: { 'fill-color': p.land } },
      {
        id: BASEMAP_LAYER_IDS.localExtent,
        type: 'fill',
        source: LOCAL_LAND_SOURCE_ID,
        filter: ['==', ['get', 'kind'], 'extent'],
        paint: { 'fill-color': p.water },
      },
      {
        id: BASEMAP_LAYER_IDS.localLand,
        type: 'fill',
        source: LOCAL_LAND_SOURCE_ID,
        filter: ['==', ['get', 'kind'], 'land'],
        paint: { 'fill-color': p.land },
      },
      ...streetLayers(opts.theme),
      ...networkLayers(opts.theme),
      ...basemapLabelLayers(opts.theme),
    ],
  };
}
