import type { Map as MapLibreMap } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import type { Vehicle } from '@/lib/model';
import { placeBuses, RecentFixes } from '@/lib/placement/bus-placement';
import { makeVehicle, T0 } from '@/lib/testing/view-factories';
import { OVERLAY_MIN_ZOOM, type BusFrame } from '../bus-drawing';
import { BUS_SOURCE_ID, ClusterLayer } from './bus-layer';

/** The little of a MapLibre map the clustered layer uses: its source, its load state, render events. */
class FakeMap {
  zoom = OVERLAY_MIN_ZOOM - 1;
  loaded = false;
  sent: GeoJSON.FeatureCollection[] = [];
  hasSource = false;
  repaints = 0;
  private renderListeners = new Set<() => void>();
  getZoom() {
    return this.zoom;
  }
  getSource(id: string) {
    if (id !== BUS_SOURCE_ID || !this.hasSource) return undefined;
    return {
      setData: (d: GeoJSON.FeatureCollection) => {
        this.sent.push(d);
        return Promise.resolve();
      },
    };
  }
  isSourceLoaded() {
    return this.loaded;
  }
  on(_: 'render', l: () => void) {
    this.renderListeners.add(l);
  }
  off(_: 'render', l: () => void) {
    this.renderListeners.delete(l);
  }
  triggerRepaint() {
    this.repaints++;
  }
  render() {
    for (const l of [...this.renderListeners]) l();
  }
  get listening() {
    return this.renderListeners.size;
  }
}

const bus = (busId: number): Vehicle => makeVehicle({ busId, lon: -73.98 + busId * 0.001, lat: 40.75, gpsAt: T0 - 5_000, trip: null });
const frame = (ids: number[], selectedBusId: number | null = null): BusFrame => ({
  placements: placeBuses(ids.map(bus), { mode: 'fixes', stopsByRoute: new Map(), recent: new RecentFixes(), now: T0, staleAfterS: 120 }),
  selectedBusId,
  placedAt: T0,
  now: T0,
});

function setup() {
  const map = new FakeMap();
  const ready: boolean[] = [];
  const layer = new ClusterLayer(map as unknown as MapLibreMap, (r) => ready.push(r));
  return { map, ready, layer };
}

describe('ClusterLayer, the clustered renderer', () => {
  it('keeps what it is given until its source exists, then sends it; it has drawn the fleet at the first frame with the source loaded', () => {
    const { map, ready, layer } = setup();
    layer.update(frame([1, 2, 3]));
    expect(map.sent).toHaveLength(0);
    map.hasSource = true;
    layer.sourceAdded();
    expect(ready).toEqual([false]);
    expect(map.sent.map((d) => d.features.length)).toEqual([3]);
    expect(map.repaints).toBe(1);
    map.render();
    expect(ready, 'tiles not loaded yet').toEqual([false]);
    map.loaded = true;
    map.zoom = OVERLAY_MIN_ZOOM;
    map.render();
    expect(ready, 'a frame at street zoom draws no cluster').toEqual([false]);
    map.zoom = OVERLAY_MIN_ZOOM - 2;
    map.render();
    expect(ready).toEqual([false, true]);
    expect(map.listening).toBe(0);
  });

  it('a new style empties its source: it sends its buses again and must draw them again', () => {
    const { map, ready, layer } = setup();
    map.hasSource = true;
    map.loaded = true;
    layer.update(frame([1, 2]));
    map.render();
    expect(ready).toEqual([true]);
    layer.sourceAdded();
    expect(ready).toEqual([true, false]);
    expect(map.sent).toHaveLength(2);
    map.render();
    expect(ready).toEqual([true, false, true]);
  });

  it('an empty fleet is nothing drawn: it does not say it drew the fleet', () => {
    const { map, ready, layer } = setup();
    map.hasSource = true;
    map.loaded = true;
    layer.update(frame([]));
    map.render();
    expect(ready).toEqual([]);
    expect(map.listening).toBe(0);
  });

  it('lists the buses it was given, the selected one left to the overlay', () => {
    const { layer } = setup();
    layer.update(frame([1, 2, 3], 2));
    const drawn = layer.drawn();
    expect(drawn.map((b) => b.busId)).toEqual([1, 3]);
    expect(drawn.every((b) => b.by === 'clusters' && !b.selected && b.basis === 'fix')).toBe(true);
  });
});
