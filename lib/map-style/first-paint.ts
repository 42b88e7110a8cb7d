// What the map loads first. MapLibre's worker (one on a two-core machine) parses and tiles GeoJSON sources one
// after another, so everything the style names at load stands in line before the buses' source, which the page
// adds once the style is in. The style as the map first gets it therefore holds the local land only (the area
// of the network, 11 KB): the world's land (85 KB of coastlines, which the worker clips down to the view's zoom
// level by level), the street skeleton and place names (drawn from zoom 12 and 9 on, 155 KB) are given their
// data once the map is idle with the buses drawn, and the network's data is the page's own (/api/network, which
// it polls and pushes into the source: the style's URL made the worker fetch and parse it a second time). Pure.
import type { GeoJSONSourceSpecification, StyleSpecification } from 'maplibre-gl';
import { NETWORK_SOURCE_ID, PLACES_SOURCE_ID, STREETS_SOURCE_ID, WORLD_LAND_SOURCE_ID } from './offline-style';

/** Sources whose data comes after the first idle map. */
export const LATER_SOURCE_IDS = [WORLD_LAND_SOURCE_ID, STREETS_SOURCE_ID, PLACES_SOURCE_ID] as const;
/** Sources whose data the page pushes itself (useNetworkRefresh). */
export const PAGE_FED_SOURCE_IDS = [NETWORK_SOURCE_ID] as const;

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

export interface FirstPaintStyle {
  style: StyleSpecification;
  /** What to give each held source once the map is idle: its URL. */
  later: Array<{ sourceId: string; data: string }>;
}

/**
 * The style with the held sources empty. A style object without them (a hosted style, a Protomaps one without
 * the network) is returned as it is; a style URL is not a style object, and MapLibre loads it as it is.
 */
export function firstPaintStyle(style: StyleSpecification): FirstPaintStyle {
  const later: FirstPaintStyle['later'] = [];
  const sources = { ...style.sources };
  for (const id of [...LATER_SOURCE_IDS, ...PAGE_FED_SOURCE_IDS]) {
    const s = sources[id];
    if (s?.type !== 'geojson') continue;
    if ((LATER_SOURCE_IDS as readonly string[]).includes(id) && typeof s.data === 'string') later.push({ sourceId: id, data: s.data });
    sources[id] = { ...s, data: EMPTY } satisfies GeoJSONSourceSpecification;
  }
  return { style: { ...style, sources }, later };
}
