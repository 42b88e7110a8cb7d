// The files of maplibre-gl/dist the app serves from public/ under the same names (lib/map-style/maplibre-files.ts
// gives the browser their URLs): MapLibre itself and its worker. Copied at build time (copy-maplibre.mjs),
// brotli-compressed beside the build (compress-static.mjs), served with their brotli twin (server.mjs).
export const MAPLIBRE_FILES = ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs'];
