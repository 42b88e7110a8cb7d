// Where the browser gets MapLibre: the module files it ships, copied into public/ at build time
// (scripts/server/copy-maplibre.mjs) and served from our origin, not from the app's bundle. A page with a map names
// MAPLIBRE_URL in its <head> (lib/server/first-paint.ts preloadMapLibre), so the browser fetches MapLibre beside the
// page's own scripts; from the bundle it was fetched only once those scripts had run and asked for it, and on a busy
// machine that wait was most of the time to the first bus (bench/first-bus.ts, bench/scale-pages.ts). Its worker has
// always been loaded this way: MapLibre 6 starts it from a URL.
export const MAPLIBRE_URL = '/maplibre-gl.mjs';
/** MapLibre's module, as the browser gets it from MAPLIBRE_URL. */
export type MapLibre = typeof import('maplibre-gl');
export const MAPLIBRE_WORKER_URL = '/maplibre-gl-worker.mjs';
