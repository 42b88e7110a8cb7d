// Where the app serves a PMTiles basemap (MAP_PMTILES): the archive's path on the app's own origin and the style URL
// the configuration hands the map for it. Shared by the server's configuration (lib/config.ts) and the map's style
// code (lib/map-style), which the browser runs.
export const PMTILES_ARCHIVE_PATH = '/api/basemap/region.pmtiles';
/** What the configuration hands the map for a PMTiles basemap: the archive on the app's own origin. */
export const PMTILES_STYLE_URL = `pmtiles://${PMTILES_ARCHIVE_PATH}`;
