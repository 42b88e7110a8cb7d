// The one way the app's code gets MapLibre in the browser: the module at MAPLIBRE_URL (lib/map-style/maplibre-files.ts
// says why it is not bundled), imported once per page and given its worker's URL. The page's preload
// (components/map/preload.ts) and every map share the same promise; a failed load is forgotten, so that the next
// map asks again.
import { MAPLIBRE_URL, MAPLIBRE_WORKER_URL, type MapLibre } from '@/lib/map-style/maplibre-files';

let loading: Promise<MapLibre> | null = null;

export function loadMapLibre(): Promise<MapLibre> {
  loading ??= (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ MAPLIBRE_URL) as Promise<MapLibre>).then(
    (maplibre) => {
      maplibre.setWorkerUrl(MAPLIBRE_WORKER_URL);
      return maplibre;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}
