import { describe, expect, it } from 'vitest';
import { firstPaintStyle } from './first-paint';
import { LOCAL_LAND_SOURCE_ID, NETWORK_SOURCE_ID, offlineStyle, PLACES_SOURCE_ID, STREETS_SOURCE_ID, WORLD_LAND_SOURCE_ID } from './offline-style';

const ORIGIN = 'http://fleetmap.test';
const EMPTY = { type: 'FeatureCollection', features: [] };

describe('the style a map first loads', () => {
  it('keeps the local land, holds the world land, streets and places for later, and leaves the network to the page', () => {
    const full = offlineStyle({ theme: 'light', origin: ORIGIN });
    const { style, later } = firstPaintStyle(full);
    expect(style.sources[LOCAL_LAND_SOURCE_ID]).toEqual(full.sources[LOCAL_LAND_SOURCE_ID]);
    for (const id of [WORLD_LAND_SOURCE_ID, STREETS_SOURCE_ID, PLACES_SOURCE_ID, NETWORK_SOURCE_ID]) expect(style.sources[id]).toMatchObject({ type: 'geojson', data: EMPTY });
    // Attribution stays with each source, so the credits show from the start.
    expect(style.sources[STREETS_SOURCE_ID]).toHaveProperty('attribution', (full.sources[STREETS_SOURCE_ID] as { attribution?: string }).attribution);
    expect(later).toEqual([
      { sourceId: WORLD_LAND_SOURCE_ID, data: `${ORIGIN}/basemap/land-world.geojson` },
      { sourceId: STREETS_SOURCE_ID, data: `${ORIGIN}/basemap/streets.geojson` },
      { sourceId: PLACES_SOURCE_ID, data: `${ORIGIN}/basemap/places.geojson` },
    ]);
    expect(style.layers).toBe(full.layers);
    // The style it came from is left as it was.
    expect(full.sources[STREETS_SOURCE_ID]).toMatchObject({ data: `${ORIGIN}/basemap/streets.geojson` });
  });

  it('leaves a style without those sources as it is', () => {
    const style = { version: 8 as const, sources: { other: { type: 'geojson' as const, data: `${ORIGIN}/x.geojson` } }, layers: [] };
    expect(firstPaintStyle(style)).toEqual({ style, later: [] });
  });
});
