'use client';
// The buses at street zoom, drawn on a WebGL canvas of their own over the map. Why not a MapLibre layer: a
// layer's every frame redraws the whole map, and without a GPU (a wall display, this project's test machine)
// one map frame costs 100+ ms of CPU; this canvas redraws only the buses. Each bus is one instance that the GPU
// moves along its route between two keys (lib/view/bus-keyframes), so a frame costs a uniform and three draw
// calls; new data writes only the instances whose signature changed (./bus-overlay-instances). Frames come when
// the map draws (the canvas follows the camera in the same task) and, while buses move, as often as their
// motion shows on screen (./bus-overlay-frames). Labels and the selected bus's last fix go on a 2D canvas above
// it (./bus-overlay-labels). Whether it draws every bus or only the selected one is the controller's rule
// (./bus-drawing), asked at every frame.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { estimateAt } from '@/lib/estimate';
import { mercator, metresPerPixel } from '@/lib/view/bus-keyframes';
import type { Theme } from '@/lib/theme/theme';
import { BUS_ARROW_MIN_ZOOM, UNCERTAINTY_MIN_ZOOM, type BusFrame, type BusRenderer, type DrawnBus } from './bus-drawing';
import { BusProgram, type InstanceBuffer } from './bus-overlay-gl';
import { FrameScheduler } from './bus-overlay-frames';
import { BusInstances, rgb, type OverlayCamera, type Slot } from './bus-overlay-instances';
import { BusLabels } from './bus-overlay-labels';
import { BUS_OUTLINE, BUS_RADIUS_STOPS, SELECTION_ACCENT, interpolateStops } from './layers/bus-style';

export class BusOverlay implements BusRenderer {
  private readonly glCanvas: HTMLCanvasElement;
  private readonly textCanvas: HTMLCanvasElement;
  private gl: WebGL2RenderingContext | null;
  private program: BusProgram | null = null;
  private fleet: InstanceBuffer | null = null;
  private chosen: InstanceBuffer | null = null;
  private readonly instances = new BusInstances();
  private readonly labels: BusLabels;
  private readonly frames = new FrameScheduler(() => this.draw());
  /** Server time minus this browser's Date.now(): estimates are on the server's clock. */
  private clockOffset = 0;
  private theme: Theme = 'light';
  private scale = 1;
  private destroyed = false;
  /** Main-thread milliseconds of the last frame and the last update, frames drawn, and buses in the last frame. */
  readonly timing = { frameMs: 0, updateMs: 0, frames: 0, lastFrameBuses: 0 };

  /** `drawsFleetAt` says whether this overlay draws every bus at a zoom, or only the selected one (BusDrawing.fleetAt). */
  constructor(
    private readonly map: MapLibreMap,
    private readonly drawsFleetAt: (zoom: number) => boolean,
  ) {
    const make = () => {
      const c = document.createElement('canvas');
      c.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none';
      c.setAttribute('aria-hidden', 'true');
      return c;
    };
    this.glCanvas = make();
    this.textCanvas = make();
    this.labels = new BusLabels(this.textCanvas);
    map.getCanvasContainer().after(this.glCanvas, this.textCanvas);
    this.gl = this.glCanvas.getContext('webgl2', { antialias: false, premultipliedAlpha: true, alpha: true });
    this.initGl();
    this.glCanvas.addEventListener('webglcontextlost', this.onLost);
    this.glCanvas.addEventListener('webglcontextrestored', this.onRestored);
    map.on('render', this.onMapRender);
    map.on('resize', this.onResize);
    this.onResize();
  }

  private initGl() {
    if (!this.gl) return;
    this.program = new BusProgram(this.gl);
    this.fleet = this.program.instances();
    this.chosen = this.program.instances();
    this.instances.invalidate();
  }

  private onLost = (e: Event) => {
    e.preventDefault();
    this.program = this.fleet = this.chosen = null;
  };

  private onRestored = () => {
    this.initGl();
    this.redraw();
  };

  private onResize = () => {
    const ratio = window.devicePixelRatio || 1;
    const el = this.map.getContainer();
    for (const c of [this.glCanvas, this.textCanvas]) {
      c.width = Math.max(1, Math.round(el.clientWidth * ratio));
      c.height = Math.max(1, Math.round(el.clientHeight * ratio));
    }
    this.redraw();
  };

  /** The map drew a frame (the camera moved, tiles came): draw the buses in the same task so both agree. */
  private onMapRender = () => this.draw();

  private serverNow() {
    return Date.now() + this.clockOffset;
  }

  setLook(theme: Theme, scale: number) {
    if (theme === this.theme && scale === this.scale) return;
    this.theme = theme;
    this.scale = scale;
    this.instances.setTheme(theme);
    this.redraw();
  }

  /** New placements (a snapshot, the stale beat, a mode switch): only buses whose signature changed are written. */
  update({ placements, selectedBusId, now }: BusFrame) {
    const t0 = performance.now();
    this.clockOffset = now - Date.now();
    this.instances.update(placements, selectedBusId, now);
    this.timing.updateMs = performance.now() - t0;
    this.redraw();
  }

  /** One frame at the next animation frame (several requests, one frame). */
  redraw() {
    if (!this.destroyed) this.frames.request();
  }

  private camera(): OverlayCamera {
    const zoom = this.map.getZoom();
    const origin = this.instances.origin ?? [0.5, 0.5];
    const world = 512 * 2 ** zoom;
    const centre = this.map.getCenter();
    const c = mercator(centre.lng, centre.lat);
    // map.project of the centre honours the map's padding; the rest is the flat, north-up world (no pitch, no
    // rotation: the map allows neither).
    const at = this.map.project(centre);
    const originPx: [number, number] = [at.x + (origin[0] - c[0]) * world, at.y + (origin[1] - c[1]) * world];
    return { zoom, world, originPx, origin, mPerPx: metresPerPixel(centre.lat, zoom) };
  }

  private busRadius(zoom: number) {
    return interpolateStops(BUS_RADIUS_STOPS, zoom) * this.scale;
  }

  /** Draws the buses now. */
  draw() {
    if (this.destroyed) return;
    const t0 = performance.now();
    const now = this.serverNow();
    const instances = this.instances;
    instances.renewKeys(now);
    const gl = this.gl;
    const cam = this.camera();
    const everyBus = this.drawsFleetAt(cam.zoom);
    const radius = this.busRadius(cam.zoom);
    const selected = instances.selected;
    if (gl && this.program && this.fleet && this.chosen) {
      instances.flush(this.fleet, this.chosen);
      const ratio = this.glCanvas.width / Math.max(1, this.map.getContainer().clientWidth);
      this.program.begin(
        {
          ratio,
          origin: cam.originPx,
          world: cam.world,
          viewport: [this.glCanvas.width / ratio, this.glCanvas.height / ratio],
          time: instances.gpuTime(now),
          mPerPx: cam.mPerPx,
          radius,
          scale: this.scale,
          arrows: cam.zoom >= BUS_ARROW_MIN_ZOOM,
          outline: rgb(BUS_OUTLINE[this.theme]),
          accent: rgb(SELECTION_ACCENT[this.theme]),
        },
        [this.glCanvas.width, this.glCanvas.height],
      );
      const count = instances.slotCount;
      this.timing.lastFrameBuses = (everyBus ? instances.count : 0) + (selected ? 1 : 0);
      if (everyBus) {
        if (cam.zoom >= UNCERTAINTY_MIN_ZOOM) this.program.draw(this.fleet, count, 0);
        this.program.draw(this.fleet, count, 2);
      }
      if (selected) {
        if (cam.zoom >= UNCERTAINTY_MIN_ZOOM) this.program.draw(this.chosen, 1, 0);
        this.program.draw(this.chosen, 1, 1);
        this.program.draw(this.chosen, 1, 2);
      }
    }
    this.labels.paint(instances, now, cam, { theme: this.theme, scale: this.scale, radius }, this.map.getContainer().clientWidth, everyBus);
    this.timing.frameMs = performance.now() - t0;
    this.timing.frames++;
    // When the clustered layer draws the fleet, only the selected bus moves here.
    const fastest = everyBus ? instances.fastestMps : (selected?.key.speedMps ?? 0);
    this.frames.afterFrame(fastest, cam.mPerPx, instances.nextRenewAt - now);
  }

  /** The bus drawn under a point of the map (CSS px), or null: the drawn buses are the ones hit, moving or not. */
  pick(x: number, y: number): number | null {
    const now = this.serverNow();
    const cam = this.camera();
    const reach = this.busRadius(cam.zoom) + 4;
    let best: number | null = null;
    let bestD = reach * reach;
    const test = (slot: number | null, busId: number) => {
      const [sx, sy] = this.instances.screenOf(slot, now, cam);
      const d = (sx - x) ** 2 + (sy - y) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = busId;
      }
    };
    const selected = this.instances.selected;
    if (selected) test(null, selected.placement.busId);
    if (best === null && this.drawsFleetAt(cam.zoom)) this.instances.forEachBus((s, i) => test(i, s.placement.busId));
    return best;
  }

  /** The buses this overlay draws now: every bus (when the controller says so) and the selected one. */
  drawn(): DrawnBus[] {
    const now = this.serverNow();
    const out: DrawnBus[] = [];
    const add = (s: Slot, selected: boolean) => {
      const e = s.placement.estimate;
      const at = estimateAt(e, now);
      out.push({
        busId: s.placement.busId,
        lon: at.lon,
        lat: at.lat,
        basis: e.basis,
        stale: s.placement.stale,
        label: s.placement.label,
        selected,
        fix: e.basis !== 'fix' && e.fix ? { lon: e.fix.lon, lat: e.fix.lat } : null,
        by: 'overlay',
      });
    };
    if (this.drawsFleetAt(this.map.getZoom())) this.instances.forEachBus((s) => add(s, false));
    const selected = this.instances.selected;
    if (selected) add(selected, true);
    return out;
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.frames.stop();
    this.map.off('render', this.onMapRender);
    this.map.off('resize', this.onResize);
    this.glCanvas.removeEventListener('webglcontextlost', this.onLost);
    this.glCanvas.removeEventListener('webglcontextrestored', this.onRestored);
    this.fleet?.dispose();
    this.chosen?.dispose();
    this.program?.dispose();
    this.glCanvas.remove();
    this.textCanvas.remove();
  }
}
