import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusDrawing, CLUSTER_FEED_MS, OVERLAY_MIN_ZOOM, type BusFrame, type BusRenderer, type BusRendererName, type DrawnBus } from './bus-drawing';

class FakeMap {
  zoom = 10;
  private listeners: (() => void)[] = [];
  getZoom() {
    return this.zoom;
  }
  on(_: 'zoomend', l: () => void) {
    this.listeners.push(l);
  }
  off(_: 'zoomend', l: () => void) {
    this.listeners = this.listeners.filter((x) => x !== l);
  }
  zoomTo(z: number) {
    this.zoom = z;
    for (const l of this.listeners) l();
  }
  get listening() {
    return this.listeners.length;
  }
}

/** A renderer that draws what it was last given, as the real ones do: every bus, or (overlay) per the controller's rule. */
class FakeRenderer implements BusRenderer {
  frames: BusFrame[] = [];
  redraws = 0;
  constructor(
    private readonly by: BusRendererName,
    private readonly drawsFleet: () => boolean = () => true,
  ) {}
  update(frame: BusFrame) {
    this.frames.push(frame);
  }
  redraw() {
    this.redraws++;
  }
  drawn(): DrawnBus[] {
    const last = this.frames.at(-1);
    if (!last) return [];
    return last.placements
      .filter((p) => (p.busId === last.selectedBusId ? this.by === 'overlay' : this.drawsFleet()))
      .map((p) => ({ busId: p.busId, lon: 0, lat: 0, basis: 'fix', stale: false, label: '', selected: p.busId === last.selectedBusId, fix: null, by: this.by }));
  }
}

function frame(busIds: number[], selectedBusId: number | null = null, placedAt = 1): BusFrame {
  return { placements: busIds.map((busId) => ({ busId }) as BusFrame['placements'][number]), selectedBusId, placedAt, now: placedAt + 1 };
}

function setup(zoom: number) {
  const map = new FakeMap();
  map.zoom = zoom;
  const drawing = new BusDrawing(map);
  const overlay = new FakeRenderer('overlay', () => drawing.fleetAt(map.getZoom()) === 'overlay');
  const clusters = new FakeRenderer('clusters');
  drawing.attach(overlay, clusters);
  return { map, drawing, overlay, clusters };
}

describe('BusDrawing, who draws the buses', () => {
  it('below street zoom the overlay draws every bus until the clustered layer has drawn the fleet, then the clusters do', () => {
    const { drawing, overlay, clusters } = setup(OVERLAY_MIN_ZOOM - 1);
    drawing.update(frame([1, 2, 3]));
    // Both are given the buses: the clusters must tile them before they can take over.
    expect(overlay.frames).toHaveLength(1);
    expect(clusters.frames).toHaveLength(1);
    expect(drawing.drawn().fleet).toBe('overlay');
    expect(drawing.drawn().buses.map((b) => [b.busId, b.by])).toEqual([
      [1, 'overlay'],
      [2, 'overlay'],
      [3, 'overlay'],
    ]);
    drawing.setClustersReady(true);
    expect(overlay.redraws, 'the overlay steps aside at once').toBe(1);
    expect(drawing.drawn().fleet).toBe('clusters');
    expect(drawing.drawn().buses.every((b) => b.by === 'clusters')).toBe(true);
    expect(drawing.drawn().buses).toHaveLength(3);
  });

  it('the selected bus is the overlay’s at every zoom, never in a cluster', () => {
    const { drawing } = setup(OVERLAY_MIN_ZOOM - 2);
    drawing.setClustersReady(true);
    drawing.update(frame([1, 2, 3], 2));
    const drawn = drawing.drawn();
    expect(drawn.fleet).toBe('clusters');
    expect(drawn.buses.filter((b) => b.selected).map((b) => [b.busId, b.by])).toEqual([[2, 'overlay']]);
    expect(drawn.buses.filter((b) => !b.selected).every((b) => b.by === 'clusters')).toBe(true);
  });

  it('from OVERLAY_MIN_ZOOM on the overlay draws every bus and the clustered layer is not fed; it gets the latest once a zoom ends below', () => {
    const { map, drawing, overlay, clusters } = setup(OVERLAY_MIN_ZOOM);
    drawing.setClustersReady(true);
    drawing.update(frame([1, 2]));
    drawing.update(frame([1, 2, 3]));
    expect(drawing.drawn().fleet).toBe('overlay');
    expect(overlay.frames).toHaveLength(2);
    expect(clusters.frames).toHaveLength(0);
    map.zoomTo(OVERLAY_MIN_ZOOM + 3);
    expect(clusters.frames).toHaveLength(0);
    map.zoomTo(OVERLAY_MIN_ZOOM - 0.5);
    expect(clusters.frames.map((f) => f.placements.length)).toEqual([3]);
    // Only once: a second zoom end without new data feeds nothing again.
    map.zoomTo(OVERLAY_MIN_ZOOM - 1);
    expect(clusters.frames).toHaveLength(1);
    expect(drawing.drawn().fleet).toBe('clusters');
  });

  it('a new style (the clustered source starts empty) hands the fleet back to the overlay until the layer has drawn again', () => {
    const { drawing, overlay } = setup(OVERLAY_MIN_ZOOM - 1);
    drawing.update(frame([1]));
    drawing.setClustersReady(true);
    drawing.setClustersReady(false);
    expect(drawing.drawn().fleet).toBe('overlay');
    expect(overlay.redraws).toBe(2);
    // The same state again changes nothing and draws nothing again.
    drawing.setClustersReady(false);
    expect(overlay.redraws).toBe(2);
  });

  it('placements given before the renderers exist reach them when they are attached', () => {
    const map = new FakeMap();
    const drawing = new BusDrawing(map);
    drawing.update(frame([7]));
    const overlay = new FakeRenderer('overlay');
    const clusters = new FakeRenderer('clusters');
    drawing.attach(overlay, clusters);
    expect(overlay.frames).toHaveLength(1);
    expect(clusters.frames).toHaveLength(1);
  });

  describe('once the clustered layer draws the fleet', () => {
    afterEach(() => vi.useRealTimers());

    it(`it is fed at most once per ${CLUSTER_FEED_MS} ms; a frame held back goes when the interval has passed, the latest one`, () => {
      vi.useFakeTimers();
      const { drawing, overlay, clusters } = setup(OVERLAY_MIN_ZOOM - 1);
      drawing.update(frame([1], null, 1));
      drawing.setClustersReady(true);
      vi.advanceTimersByTime(2_000);
      drawing.update(frame([1, 2], null, 2));
      vi.advanceTimersByTime(1_000);
      drawing.update(frame([1, 2, 3], null, 3));
      // The overlay gets every frame at once (it draws the selected bus); the layer has only its first yet.
      expect(overlay.frames).toHaveLength(3);
      expect(clusters.frames.map((f) => f.placedAt)).toEqual([1]);
      vi.advanceTimersByTime(CLUSTER_FEED_MS - 3_000 - 1);
      expect(clusters.frames).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(clusters.frames.map((f) => f.placedAt)).toEqual([1, 3]);
      // Nothing new: no feed.
      vi.advanceTimersByTime(3 * CLUSTER_FEED_MS);
      expect(clusters.frames).toHaveLength(2);
      expect(drawing.drawn().buses.map((b) => b.busId)).toEqual([1, 2, 3]);
    });

    it('a new selection reaches it at once (the selected bus leaves the clusters for the overlay)', () => {
      vi.useFakeTimers();
      const { drawing, clusters } = setup(OVERLAY_MIN_ZOOM - 1);
      drawing.update(frame([1, 2]));
      drawing.setClustersReady(true);
      drawing.update(frame([1, 2], 2));
      drawing.update(frame([1, 2], null));
      expect(clusters.frames.map((f) => f.selectedBusId)).toEqual([null, 2, null]);
    });

    it('until it has drawn the fleet, every frame reaches it at once', () => {
      vi.useFakeTimers();
      const { drawing, clusters } = setup(OVERLAY_MIN_ZOOM - 1);
      drawing.update(frame([1], null, 1));
      drawing.update(frame([1, 2], null, 2));
      expect(clusters.frames.map((f) => f.placedAt)).toEqual([1, 2]);
    });

    it('destroy drops a held-back feed', () => {
      vi.useFakeTimers();
      const { drawing, clusters } = setup(OVERLAY_MIN_ZOOM - 1);
      drawing.update(frame([1], null, 1));
      drawing.setClustersReady(true);
      drawing.update(frame([1, 2], null, 2));
      drawing.destroy();
      vi.advanceTimersByTime(CLUSTER_FEED_MS);
      expect(clusters.frames).toHaveLength(1);
    });
  });

  it('destroy stops listening to the map', () => {
    const { map, drawing } = setup(10);
    expect(map.listening).toBe(1);
    drawing.destroy();
    expect(map.listening).toBe(0);
  });
});
