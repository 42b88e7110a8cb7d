'use client';
// Imported for its effect by the pages that show a map. When the page's own chunks run, alongside hydration,
// MapLibre's chunk starts downloading and, once it is in, its worker starts loading (prewarm: the pool the map
// will use), instead of both waiting for the map's mount effect after hydration. use-maplibre's
// import('maplibre-gl') then gets this same module, and the map the prewarmed worker.
import { WORKER_URL } from './use-maplibre';

if (typeof window !== 'undefined') {
  void import('maplibre-gl').then((maplibre) => {
    maplibre.setWorkerUrl(WORKER_URL);
    maplibre.prewarm();
  });
}

export {};
