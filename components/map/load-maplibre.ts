// The one way the app's code gets MapLibre in the browser: the module at MAPLIBRE_URL (lib/map-style/maplibre-files.ts
// says why it is not bundled), imported once per page and given its worker's URL. The page's preload
// (components/map/preload.ts) and every map share the same promise; a failed load is forgotten, so that the next
// map asks again.
import { MAPLIBRE_URL, MAPLIBRE_WORKER_URL, type MapLibre } from '@/lib/map-style/maplibre-files';

let loading: Promise<MapLibre> | null = null;
let failures = 0;

/**
 * MapLibre, once loaded. After a failed load the next call asks again, under a URL of its own (`?attempt=N`): a
 * browser may keep a failed module import in its module map and answer the same URL with the same failure.
 */
export function loadMapLibre(): Promise<MapLibre> {
  const url = failures === 0 ? MAPLIBRE_URL : `${MAPLIBRE_URL}?attempt=${failures + 1}`;
  loading ??= (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url) as Promise<MapLibre>).then(
    (maplibre) => {
      maplibre.setWorkerUrl(MAPLIBRE_WORKER_URL);
      return maplibre;
    },
    (err: unknown) => {
      loading = null;
      failures++;
      throw err;
    },
  );
  return loading;
}
