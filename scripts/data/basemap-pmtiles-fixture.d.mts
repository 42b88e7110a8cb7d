// Types of basemap-pmtiles-fixture.mjs, for its tests and the e2e test.
export const FIXTURE_BOUNDS: [number, number, number, number];
export function writePmtiles(opts: {
  tiles: Array<{ z: number; x: number; y: number; data: Uint8Array }>;
  bounds: [number, number, number, number];
  metadata: unknown;
}): Buffer;
export function fixtureLayers(): Record<string, GeoJSON.Feature[]>;
export function fixtureArchive(opts?: { maxZoom?: number }): Buffer;
