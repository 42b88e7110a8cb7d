'use client';
// Imported for its effect by the pages that show a map. When the page's own chunks run, alongside hydration,
// MapLibre (already on its way: the page's <head> preloads it, lib/server/first-paint.ts) is imported and its worker
// starts loading (prewarm: the pool the map will use), instead of both waiting for the map's mount effect after
// hydration. use-maplibre's loadMapLibre() then gets this same module, and the map the prewarmed worker.
import { loadMapLibre } from './load-maplibre';

if (typeof window !== 'undefined') {
  void loadMapLibre()
    .then((maplibre) => maplibre.prewarm())
    .catch(() => undefined);
}

export {};
