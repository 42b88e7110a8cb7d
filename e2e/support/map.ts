// The buses the map draws, read through its test handle (window.__fleetmap): at street zoom, and below it until
// the clustered layer has drawn the fleet (drawsEveryBus), the bus overlay lists what it draws (where, and as
// what: a fix or an estimate); below it after that the clustered layer's source and its rendered features do. No
// pixel guessing.
import type { Page } from '@playwright/test';
import { BUS_CLUSTER_LAYER_ID, BUS_LAYER_ID, BUS_LAYER_MAX_ZOOM, BUS_SOURCE_ID } from '@/components/map/layers/bus-layer';

export interface MapBus {
  busId: number;
  lon: number;
  lat: number;
  basis: 'fix' | 'gps-estimate' | 'schedule-estimate';
  stale: boolean;
  label: string;
  selected: boolean;
  /** The estimate's last fix (overlay only). */
  fix: { lon: number; lat: number } | null;
}

/** Every bus the map places now, on screen or not. */
export async function placedBuses(page: Page): Promise<MapBus[]> {
  return page.evaluate(
    async ([source, streetZoom]) => {
      const handle = window.__fleetmap;
      if (!handle?.buses) return [];
      const overlay = handle.buses.drawn() as MapBus[];
      if (handle.map.getZoom() >= (streetZoom as number) || handle.buses.drawsEveryBus) return overlay;
      const src = handle.map.getSource(source as string) as unknown as { getData(): Promise<GeoJSON.FeatureCollection<GeoJSON.Point>> } | undefined;
      const features = src ? (await src.getData()).features : [];
      const layered = features.map((f) => {
        const p = f.properties as { basis: MapBus['basis']; stale: boolean; label: string };
        const [lon, lat] = f.geometry.coordinates as [number, number];
        return { busId: Number(f.id), lon, lat, basis: p.basis, stale: p.stale, label: p.label, selected: false, fix: null };
      });
      return [...layered, ...overlay];
    },
    [BUS_SOURCE_ID, BUS_LAYER_MAX_ZOOM] as const,
  );
}

/** The buses drawn on screen: singles (as placedBuses describes them) and how many more hide in clusters. */
export async function renderedBuses(page: Page): Promise<{ singles: MapBus[]; clustered: number }> {
  return page.evaluate(
    ([busLayer, clusterLayer, streetZoom]) => {
      const handle = window.__fleetmap;
      if (!handle?.buses) return { singles: [], clustered: 0 };
      const map = handle.map;
      const canvas = map.getCanvas();
      const onScreen = (b: { lon: number; lat: number }) => {
        const p = map.project([b.lon, b.lat]);
        return p.x >= 0 && p.y >= 0 && p.x <= canvas.clientWidth && p.y <= canvas.clientHeight;
      };
      const singles = (handle.buses.drawn() as MapBus[]).filter(onScreen);
      if (map.getZoom() >= (streetZoom as number) || handle.buses.drawsEveryBus || !map.getLayer(busLayer as string)) return { singles, clustered: 0 };
      // A cluster may be rendered twice across tile edges; count each cluster id once.
      const clusters = new Map<number, number>();
      for (const f of map.queryRenderedFeatures({ layers: [busLayer as string, clusterLayer as string] })) {
        const p = f.properties as { cluster_id?: number; point_count?: number; busId: number; basis: MapBus['basis']; stale: boolean; label: string };
        if (p.cluster_id !== undefined) clusters.set(p.cluster_id, p.point_count ?? 0);
        else {
          const [lon, lat] = (f.geometry as GeoJSON.Point).coordinates as [number, number];
          // The bus id from the properties: a clustered source's rendered points do not keep their feature ids.
          singles.push({ busId: Number(p.busId), lon, lat, basis: p.basis, stale: p.stale, label: p.label, selected: false, fix: null });
        }
      }
      return { singles, clustered: [...clusters.values()].reduce((s, n) => s + n, 0) };
    },
    [BUS_LAYER_ID, BUS_CLUSTER_LAYER_ID, BUS_LAYER_MAX_ZOOM] as const,
  );
}

/** Singles plus cluster members on screen. */
export async function renderedBusCount(page: Page): Promise<number> {
  const r = await renderedBuses(page);
  return r.singles.length + r.clustered;
}
