// The buses the map draws, read through its test handle (window.__fleetmap): the controller's drawn() says who
// draws the fleet now (the overlay or the clustered layer) and lists every bus drawn (where, as what: a fix or an
// estimate, and by which renderer). On screen, clusters are counted from the clustered layer's rendered features.
// No pixel guessing, and no copy of the rule for who draws.
import type { Page } from '@playwright/test';
import type { DrawnBus } from '@/components/map/bus-drawing';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID } from '@/components/map/layers/bus-layer';

export type MapBus = DrawnBus;

/** Every bus the map places now, on screen or not. */
export async function placedBuses(page: Page): Promise<MapBus[]> {
  return page.evaluate(() => window.__fleetmap?.drawing?.drawn().buses ?? []);
}

/** The buses drawn on screen: singles (as placedBuses describes them) and how many more hide in clusters. */
export async function renderedBuses(page: Page): Promise<{ singles: MapBus[]; clustered: number }> {
  return page.evaluate(
    ([busLayer, clusterLayer]) => {
      const handle = window.__fleetmap;
      if (!handle?.drawing) return { singles: [], clustered: 0 };
      const map = handle.map;
      const canvas = map.getCanvas();
      const onScreen = (b: { lon: number; lat: number }) => {
        const p = map.project([b.lon, b.lat]);
        return p.x >= 0 && p.y >= 0 && p.x <= canvas.clientWidth && p.y <= canvas.clientHeight;
      };
      const drawn = handle.drawing.drawn();
      // The overlay's buses as it draws them; the clustered layer's as MapLibre rendered them (singles and clusters).
      const singles: MapBus[] = drawn.buses.filter((b) => b.by === 'overlay' && onScreen(b));
      if (drawn.fleet === 'overlay' || !map.getLayer(busLayer as string)) return { singles, clustered: 0 };
      // A cluster may be rendered twice across tile edges; count each cluster id once.
      const clusters = new Map<number, number>();
      for (const f of map.queryRenderedFeatures({ layers: [busLayer as string, clusterLayer as string] })) {
        const p = f.properties as { cluster_id?: number; point_count?: number; busId: number; basis: MapBus['basis']; stale: boolean; label: string };
        if (p.cluster_id !== undefined) clusters.set(p.cluster_id, p.point_count ?? 0);
        else {
          const [lon, lat] = (f.geometry as GeoJSON.Point).coordinates as [number, number];
          // The bus id from the properties: a clustered source's rendered points do not keep their feature ids.
          singles.push({ busId: Number(p.busId), lon, lat, basis: p.basis, stale: p.stale, label: p.label, selected: false, fix: null, by: 'clusters' });
        }
      }
      return { singles, clustered: [...clusters.values()].reduce((s, n) => s + n, 0) };
    },
    [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID] as const,
  );
}

/** Singles plus cluster members on screen. */
export async function renderedBusCount(page: Page): Promise<number> {
  const r = await renderedBuses(page);
  return r.singles.length + r.clustered;
}
