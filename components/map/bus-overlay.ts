'use client';
// The buses at street zoom, drawn on a WebGL canvas of their own over the map. Why not a MapLibre layer: a
// layer's every frame redraws the whole map, and without a GPU (a wall display, this project's test machine)
// one map frame costs 100+ ms of CPU; this canvas redraws only the buses. Each bus is one instance that the GPU
// moves along its route between two keys (lib/view/bus-keyframes), so a frame costs a uniform and three draw
// calls; new data writes only the instances whose signature changed. Frames come when the map draws (the
// canvas follows the camera in the same task) and, while buses move, as often as their motion shows on screen.
// Labels and the selected bus's last fix go on a 2D canvas above it, at street zoom only. Below street zoom the
// clustered layer draws the fleet, but only once MapLibre's worker has started and tiled it (on a cold visit,
// half a second after the map's first frame): until the page says it has (showClusters), this canvas draws every
// bus there too, so the buses come with the map's first frame.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { estimateAt, type EstimateBasis } from '@/lib/estimate';
import type { BusPlacement } from '@/lib/view/bus-placement';
import { BASIS_CODE, BusProgram, FLOATS_PER_BUS, INSTANCE_LAYOUT, type InstanceBuffer } from './bus-overlay-gl';
import { frameIntervalMs, keyAt, mercator, metresPerPixel, placementSignature, type Key } from '@/lib/view/bus-keyframes';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import { BUS_OUTLINE, BUS_RADIUS_STOPS, SELECTION_ACCENT, interpolateStops } from './layers/bus-style';
import { BUS_ARROW_MIN_ZOOM, BUS_LABEL_MIN_ZOOM, BUS_LAYER_MAX_ZOOM } from './layers/bus-layer';

/** From this zoom on the overlay draws every bus; below it the clustered layer does (the selected bus excepted). */
export const OVERLAY_MIN_ZOOM = BUS_LAYER_MAX_ZOOM;
/** Street zoom: where a bus's uncertainty circle is drawn. */
export const UNCERTAINTY_MIN_ZOOM = 15;
/** More changed buses than this share of the fleet: one upload of the whole buffer beats many small ones. */
const WHOLE_UPLOAD_SHARE = 1 / 8;

/** What the test handle reports of a bus the overlay draws. */
export interface DrawnBus {
  busId: number;
  lon: number;
  lat: number;
  basis: EstimateBasis;
  stale: boolean;
  label: string;
  selected: boolean;
  /** Where its last fix is, for an estimate; null for a fix. */
  fix: { lon: number; lat: number } | null;
}

interface Slot {
  placement: BusPlacement;
  signature: string;
  key: Key;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

export class BusOverlay {
  private readonly glCanvas: HTMLCanvasElement;
  private readonly textCanvas: HTMLCanvasElement;
  private gl: WebGL2RenderingContext | null;
  private program: BusProgram | null = null;
  private fleet: InstanceBuffer | null = null;
  private chosen: InstanceBuffer | null = null;
  /** The CPU mirror of the fleet's instance buffer; slot i at i · FLOATS_PER_BUS. */
  private data = new Float32Array(FLOATS_PER_BUS * 256);
  private readonly chosenData = new Float32Array(FLOATS_PER_BUS);
  private readonly slots: (Slot | null)[] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly dirty = new Set<number>();
  private wholeDirty = true;
  private selected: Slot | null = null;
  private selectedId: number | null = null;
  /** Server time minus this browser's Date.now(): estimates are on the server's clock. */
  private clockOffset = 0;
  /** Server time of instant 0 on the GPU (float32 seconds from here keep a few ms for weeks). */
  private epoch = 0;
  /** Web Mercator of the point instance positions are measured from (the fleet's first bus). */
  private origin: [number, number] | null = null;
  private nextRenewAt = Infinity;
  private fastestMps = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private raf = 0;
  private theme: Theme = 'light';
  private scale = 1;
  private destroyed = false;
  /** Main-thread milliseconds of the last frame and the last update, frames drawn, and buses in the last frame. */
  readonly timing = { frameMs: 0, updateMs: 0, frames: 0, lastFrameBuses: 0 };
  private shownCount = 0;
  /** Whether the clustered layer draws the fleet below street zoom (see showClusters). */
  private clustersShown = false;

  constructor(private readonly map: MapLibreMap) {
    const make = () => {
      const c = document.createElement('canvas');
      c.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none';
      c.setAttribute('aria-hidden', 'true');
      return c;
    };
    this.glCanvas = make();
    this.textCanvas = make();
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
    this.wholeDirty = true;
  }

  private onLost = (e: Event) => {
    e.preventDefault();
    this.program = this.fleet = this.chosen = null;
  };

  private onRestored = () => {
    this.initGl();
    this.requestFrame();
  };

  private onResize = () => {
    const ratio = window.devicePixelRatio || 1;
    const el = this.map.getContainer();
    for (const c of [this.glCanvas, this.textCanvas]) {
      c.width = Math.max(1, Math.round(el.clientWidth * ratio));
      c.height = Math.max(1, Math.round(el.clientHeight * ratio));
    }
    this.requestFrame();
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
    // Colours live in the instances: write every bus again.
    for (const s of this.slots) if (s) s.signature = '';
    if (this.selected) this.selected.signature = '';
    this.requestFrame();
  }

  /**
   * Whether the clustered layer has drawn the fleet (true) or not yet, or not any more (a new style): below street
   * zoom this overlay draws every bus until it has.
   */
  showClusters(shown: boolean) {
    if (shown === this.clustersShown) return;
    this.clustersShown = shown;
    this.requestFrame();
  }

  /** Whether every bus is drawn here at `zoom` (street zoom, or below it before the clusters come). */
  private drawsFleetAt(zoom: number) {
    return zoom >= OVERLAY_MIN_ZOOM || !this.clustersShown;
  }

  /** Whether every bus is drawn here now, not only the selected one. */
  get drawsEveryBus() {
    return this.drawsFleetAt(this.map.getZoom());
  }

  /**
   * New placements (a snapshot, the stale beat, a mode switch): only buses whose signature changed are written.
   * `serverNow` is the server's clock now.
   */
  update(placements: readonly BusPlacement[], selectedBusId: number | null, serverNow: number) {
    const t0 = performance.now();
    this.clockOffset = serverNow - Date.now();
    if (this.epoch === 0) this.epoch = serverNow;
    if (!this.origin && placements.length > 0) this.origin = mercator(placements[0]!.estimate.lon, placements[0]!.estimate.lat);
    const seen = new Set<number>();
    let selected: BusPlacement | null = null;
    for (const p of placements) {
      if (p.busId === selectedBusId) {
        selected = p;
        continue;
      }
      seen.add(p.busId);
      let i = this.slotOf.get(p.busId);
      if (i === undefined) {
        i = this.free.pop() ?? this.slots.length;
        this.slotOf.set(p.busId, i);
        if (i === this.slots.length) this.slots.push(null);
      }
      const slot = this.slots[i];
      // The same placement (the page's cache kept it) draws the same: nothing to compare or write.
      if (slot && slot.placement === p && slot.signature !== '') continue;
      const signature = placementSignature(p);
      if (slot && slot.signature === signature) {
        slot.placement = p;
        continue;
      }
      const key = keyAt(p.estimate, serverNow);
      this.slots[i] = { placement: p, signature, key };
      this.write(this.ensureCapacity(i), i, p, key, true);
    }
    for (const [busId, i] of this.slotOf) {
      if (seen.has(busId)) continue;
      this.slotOf.delete(busId);
      this.slots[i] = null;
      this.free.push(i);
      this.data[i * FLOATS_PER_BUS + INSTANCE_LAYOUT.style + 3] = 0;
      this.markDirty(i);
    }
    this.selectedId = selectedBusId;
    if (selected) {
      const signature = placementSignature(selected);
      if (!this.selected || this.selected.signature !== signature || this.selected.placement.busId !== selected.busId) {
        const key = keyAt(selected.estimate, serverNow);
        this.selected = { placement: selected, signature, key };
        this.write(this.chosenData, 0, selected, key, true);
      } else this.selected.placement = selected;
    } else this.selected = null;
    this.recomputeRenewal();
    this.shownCount = this.slotOf.size;
    this.timing.updateMs = performance.now() - t0;
    this.requestFrame();
  }

  private ensureCapacity(slot: number): Float32Array {
    const need = (slot + 1) * FLOATS_PER_BUS;
    if (need > this.data.length) {
      const grown = new Float32Array(Math.max(need, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
      this.wholeDirty = true;
    }
    return this.data;
  }

  private markDirty(slot: number) {
    if (!this.wholeDirty) this.dirty.add(slot);
  }

  private write(target: Float32Array, slot: number, p: BusPlacement, key: Key, shown: boolean) {
    const o = slot * FLOATS_PER_BUS;
    const origin = this.origin ?? [0, 0];
    target[o + INSTANCE_LAYOUT.path] = key.from[0] - origin[0];
    target[o + INSTANCE_LAYOUT.path + 1] = key.from[1] - origin[1];
    target[o + INSTANCE_LAYOUT.path + 2] = key.to[0] - origin[0];
    target[o + INSTANCE_LAYOUT.path + 3] = key.to[1] - origin[1];
    target[o + INSTANCE_LAYOUT.time] = (key.fromAt - this.epoch) / 1000;
    target[o + INSTANCE_LAYOUT.time + 1] = (key.toAt - this.epoch) / 1000;
    target[o + INSTANCE_LAYOUT.time + 2] = key.radiusFrom;
    target[o + INSTANCE_LAYOUT.time + 3] = key.radiusTo;
    const [r, g, b] = rgb(DELAY_COLORS[this.theme][p.cls]);
    target.set([r, g, b, 1], o + INSTANCE_LAYOUT.color);
    target.set([BASIS_CODE[p.estimate.basis], p.stale ? 1 : 0, key.heading === null || !Number.isFinite(key.heading) ? -1 : ((key.heading % 360) + 360) % 360, shown ? 1 : 0], o + INSTANCE_LAYOUT.style);
    if (target === this.data) this.markDirty(slot);
  }

  private recomputeRenewal() {
    let next = Infinity;
    let fastest = 0;
    for (const s of this.slots) {
      if (!s) continue;
      if (s.key.renewAt !== null && s.key.renewAt < next) next = s.key.renewAt;
      if (s.key.speedMps > fastest) fastest = s.key.speedMps;
    }
    if (this.selected) {
      if (this.selected.key.renewAt !== null) next = Math.min(next, this.selected.key.renewAt);
      fastest = Math.max(fastest, this.selected.key.speedMps);
    }
    this.nextRenewAt = next;
    this.fastestMps = fastest;
  }

  /** Buses whose key ran out (they reached a stop, or their radius moved on) get the next one. */
  private renewKeys(now: number) {
    if (now < this.nextRenewAt) return;
    this.slots.forEach((s, i) => {
      if (s && s.key.renewAt !== null && s.key.renewAt <= now) {
        s.key = keyAt(s.placement.estimate, now);
        this.write(this.data, i, s.placement, s.key, true);
      }
    });
    const sel = this.selected;
    if (sel && sel.key.renewAt !== null && sel.key.renewAt <= now) {
      sel.key = keyAt(sel.placement.estimate, now);
      this.write(this.chosenData, 0, sel.placement, sel.key, true);
    }
    this.recomputeRenewal();
  }

  private flush() {
    if (!this.fleet || !this.chosen) return;
    const used = this.slots.length * FLOATS_PER_BUS;
    if (this.wholeDirty || !this.fleet.fits(used) || this.dirty.size > this.slots.length * WHOLE_UPLOAD_SHARE) {
      this.fleet.uploadAll(this.data.subarray(0, Math.max(used, FLOATS_PER_BUS)));
    } else for (const i of this.dirty) this.fleet.uploadSlot(this.data, i);
    this.dirty.clear();
    this.wholeDirty = false;
    this.chosen.uploadAll(this.chosenData);
  }

  private camera() {
    const zoom = this.map.getZoom();
    const origin = this.origin ?? [0.5, 0.5];
    const world = 512 * 2 ** zoom;
    const centre = this.map.getCenter();
    const c = mercator(centre.lng, centre.lat);
    // map.project of the centre honours the map's padding; the rest is the flat, north-up world (no pitch, no
    // rotation: the map allows neither).
    const at = this.map.project(centre);
    const originPx: [number, number] = [at.x + (origin[0] - c[0]) * world, at.y + (origin[1] - c[1]) * world];
    return { zoom, world, originPx, origin, mPerPx: metresPerPixel(centre.lat, zoom) };
  }

  /** Where a slot's bus is on screen at server time `now` (CSS px), as the vertex shader puts it. */
  private screenOf(data: Float32Array, slot: number, now: number, cam: ReturnType<BusOverlay['camera']>): [number, number] {
    const o = slot * FLOATS_PER_BUS;
    const t = (now - this.epoch) / 1000;
    const t0 = data[o + INSTANCE_LAYOUT.time]!;
    const t1 = data[o + INSTANCE_LAYOUT.time + 1]!;
    const k = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
    const x = data[o]! + (data[o + 2]! - data[o]!) * k;
    const y = data[o + 1]! + (data[o + 3]! - data[o + 1]!) * k;
    return [cam.originPx[0] + x * cam.world, cam.originPx[1] + y * cam.world];
  }

  private busRadius(zoom: number) {
    return interpolateStops(BUS_RADIUS_STOPS, zoom) * this.scale;
  }

  /** Draws the buses now. */
  draw() {
    if (this.destroyed) return;
    const t0 = performance.now();
    const now = this.serverNow();
    this.renewKeys(now);
    const gl = this.gl;
    const cam = this.camera();
    const everyBus = this.drawsFleetAt(cam.zoom);
    const radius = this.busRadius(cam.zoom);
    if (gl && this.program && this.fleet && this.chosen) {
      this.flush();
      const ratio = this.glCanvas.width / Math.max(1, this.map.getContainer().clientWidth);
      this.program.begin(
        {
          ratio,
          origin: cam.originPx,
          world: cam.world,
          viewport: [this.glCanvas.width / ratio, this.glCanvas.height / ratio],
          time: (now - this.epoch) / 1000,
          mPerPx: cam.mPerPx,
          radius,
          scale: this.scale,
          arrows: cam.zoom >= BUS_ARROW_MIN_ZOOM,
          outline: rgb(BUS_OUTLINE[this.theme]),
          accent: rgb(SELECTION_ACCENT[this.theme]),
        },
        [this.glCanvas.width, this.glCanvas.height],
      );
      const count = this.slots.length;
      this.timing.lastFrameBuses = (everyBus ? this.shownCount : 0) + (this.selected ? 1 : 0);
      if (everyBus) {
        if (cam.zoom >= UNCERTAINTY_MIN_ZOOM) this.program.draw(this.fleet, count, 0);
        this.program.draw(this.fleet, count, 2);
      }
      if (this.selected) {
        if (cam.zoom >= UNCERTAINTY_MIN_ZOOM) this.program.draw(this.chosen, 1, 0);
        this.program.draw(this.chosen, 1, 1);
        this.program.draw(this.chosen, 1, 2);
      }
    }
    this.drawText(now, cam, radius);
    this.timing.frameMs = performance.now() - t0;
    this.timing.frames++;
    this.scheduleMotion(cam.mPerPx, everyBus);
  }

  private textDrawn = false;

  private drawText(now: number, cam: ReturnType<BusOverlay['camera']>, radius: number) {
    const labels = cam.zoom >= BUS_LABEL_MIN_ZOOM;
    const sel = this.selected;
    if (!labels && !sel && !this.textDrawn) return;
    const ctx = this.textCanvas.getContext('2d');
    if (!ctx) return;
    const ratio = this.textCanvas.width / Math.max(1, this.map.getContainer().clientWidth);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.textCanvas.width, this.textCanvas.height);
    this.textDrawn = false;
    const dark = this.theme === 'dark';
    const width = this.textCanvas.width / ratio;
    const height = this.textCanvas.height / ratio;
    if (sel?.placement.estimate.fix && sel.placement.estimate.basis !== 'fix') {
      // The selected estimate's last fix: a small dot, joined to where the bus is drawn.
      const f = sel.placement.estimate.fix;
      const fm = mercator(f.lon, f.lat);
      const fx = cam.originPx[0] + (fm[0] - cam.origin[0]) * cam.world;
      const fy = cam.originPx[1] + (fm[1] - cam.origin[1]) * cam.world;
      const [bx, by] = this.screenOf(this.chosenData, 0, now, cam);
      ctx.strokeStyle = SELECTION_ACCENT[this.theme];
      ctx.lineWidth = 1.5 * this.scale;
      ctx.setLineDash([3 * this.scale, 3 * this.scale]);
      ctx.beginPath();
      ctx.moveTo(fx, fy);
      ctx.lineTo(bx, by);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = SELECTION_ACCENT[this.theme];
      ctx.beginPath();
      ctx.arc(fx, fy, 2.5 * this.scale, 0, 2 * Math.PI);
      ctx.fill();
      this.textDrawn = true;
    }
    ctx.font = `600 ${Math.round(11 * this.scale)}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3 * this.scale;
    ctx.strokeStyle = dark ? '#0b1220' : '#ffffff';
    ctx.fillStyle = dark ? '#e2e8f0' : '#1e293b';
    // A coarse grid keeps labels from piling up on each other; the selected bus's label always goes first.
    const taken = new Set<string>();
    const cellW = 48 * this.scale;
    const cellH = 14 * this.scale;
    const label = (text: string, x: number, y: number, force: boolean) => {
      if (x < -50 || y < -20 || x > width + 50 || y > height + 20) return;
      const tx = x + radius + 4 * this.scale;
      const key = `${Math.floor(tx / cellW)}:${Math.floor(y / cellH)}`;
      if (!force && taken.has(key)) return;
      taken.add(key);
      ctx.strokeText(text, tx, y);
      ctx.fillText(text, tx, y);
      this.textDrawn = true;
    };
    if (sel) {
      const [x, y] = this.screenOf(this.chosenData, 0, now, cam);
      label(sel.placement.label, x, y, true);
    }
    if (labels) {
      this.slots.forEach((s, i) => {
        if (!s) return;
        const [x, y] = this.screenOf(this.data, i, now, cam);
        label(s.placement.label, x, y, false);
      });
    }
  }

  private scheduleMotion(mPerPx: number, everyBus: boolean) {
    if (this.timer !== null) return;
    // When the clustered layer draws the fleet, only the selected bus moves here.
    const fastest = everyBus ? this.fastestMps : (this.selected?.key.speedMps ?? 0);
    const interval = frameIntervalMs(fastest, mPerPx);
    const untilRenew = this.nextRenewAt - this.serverNow();
    const wait = Math.min(interval ?? Infinity, untilRenew);
    if (!Number.isFinite(wait)) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.requestFrame();
    }, Math.max(0, wait));
  }

  /** One frame at the next animation frame (several requests, one frame). */
  requestFrame() {
    if (this.raf || this.destroyed) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.draw();
    });
  }

  /** The bus drawn under a point of the map (CSS px), or null: the drawn buses are the ones hit, moving or not. */
  pick(x: number, y: number): number | null {
    const now = this.serverNow();
    const cam = this.camera();
    const reach = this.busRadius(cam.zoom) + 4;
    let best: number | null = null;
    let bestD = reach * reach;
    const test = (data: Float32Array, slot: number, busId: number) => {
      const [sx, sy] = this.screenOf(data, slot, now, cam);
      const d = (sx - x) ** 2 + (sy - y) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = busId;
      }
    };
    if (this.selected) test(this.chosenData, 0, this.selected.placement.busId);
    if (best === null && this.drawsFleetAt(cam.zoom)) {
      this.slots.forEach((s, i) => {
        if (s) test(this.data, i, s.placement.busId);
      });
    }
    return best;
  }

  /** The buses this overlay draws now (every bus, or the selected one: drawsEveryBus), for tests and tools. */
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
      });
    };
    if (this.drawsEveryBus) for (const s of this.slots) if (s) add(s, false);
    if (this.selected) add(this.selected, true);
    return out;
  }

  get selectedBusId() {
    return this.selectedId;
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    cancelAnimationFrame(this.raf);
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
