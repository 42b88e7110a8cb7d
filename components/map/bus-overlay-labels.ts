// The bus overlay's 2D canvas: bus labels at BUS_LABEL_MIN_ZOOM and above, and the selected bus's label and last
// fix at every zoom. Labels sit where the GPU draws their bus at that instant (BusInstances.screenOf).
import { mercator } from '@/lib/view/bus-keyframes';
import type { Theme } from '@/lib/theme/theme';
import { BUS_LABEL_MIN_ZOOM } from './bus-drawing';
import type { BusInstances, OverlayCamera } from './bus-overlay-instances';
import { SELECTION_ACCENT } from './layers/bus-style';

export interface LabelLook {
  theme: Theme;
  scale: number;
  /** A bus's radius on screen now (CSS px): labels start beside it. */
  radius: number;
}

export class BusLabels {
  /** Whether the canvas holds anything (so an empty frame after an empty frame clears nothing). */
  private painted = false;

  constructor(private readonly canvas: HTMLCanvasElement) {}

  /**
   * Paints the frame at server time `now`; `everyBus` says whether the overlay draws the fleet (its labels then
   * with it) or only the selected bus.
   */
  paint(instances: BusInstances, now: number, cam: OverlayCamera, look: LabelLook, cssWidth: number, everyBus: boolean) {
    const labels = everyBus && cam.zoom >= BUS_LABEL_MIN_ZOOM;
    const sel = instances.selected;
    if (!labels && !sel && !this.painted) return;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { theme, scale, radius } = look;
    const ratio = this.canvas.width / Math.max(1, cssWidth);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.painted = false;
    const dark = theme === 'dark';
    const width = this.canvas.width / ratio;
    const height = this.canvas.height / ratio;
    if (sel?.placement.estimate.fix && sel.placement.estimate.basis !== 'fix') {
      // The selected estimate's last fix: a small dot, joined to where the bus is drawn.
      const f = sel.placement.estimate.fix;
      const fm = mercator(f.lon, f.lat);
      const fx = cam.originPx[0] + (fm[0] - cam.origin[0]) * cam.world;
      const fy = cam.originPx[1] + (fm[1] - cam.origin[1]) * cam.world;
      const [bx, by] = instances.screenOf(null, now, cam);
      ctx.strokeStyle = SELECTION_ACCENT[theme];
      ctx.lineWidth = 1.5 * scale;
      ctx.setLineDash([3 * scale, 3 * scale]);
      ctx.beginPath();
      ctx.moveTo(fx, fy);
      ctx.lineTo(bx, by);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = SELECTION_ACCENT[theme];
      ctx.beginPath();
      ctx.arc(fx, fy, 2.5 * scale, 0, 2 * Math.PI);
      ctx.fill();
      this.painted = true;
    }
    ctx.font = `600 ${Math.round(11 * scale)}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3 * scale;
    ctx.strokeStyle = dark ? '#0b1220' : '#ffffff';
    ctx.fillStyle = dark ? '#e2e8f0' : '#1e293b';
    // A coarse grid keeps labels from piling up on each other; the selected bus's label always goes first.
    const taken = new Set<string>();
    const cellW = 48 * scale;
    const cellH = 14 * scale;
    const label = (text: string, x: number, y: number, force: boolean) => {
      if (x < -50 || y < -20 || x > width + 50 || y > height + 20) return;
      const tx = x + radius + 4 * scale;
      const key = `${Math.floor(tx / cellW)}:${Math.floor(y / cellH)}`;
      if (!force && taken.has(key)) return;
      taken.add(key);
      ctx.strokeText(text, tx, y);
      ctx.fillText(text, tx, y);
      this.painted = true;
    };
    if (sel) {
      const [x, y] = instances.screenOf(null, now, cam);
      label(sel.placement.label, x, y, true);
    }
    if (labels) {
      instances.forEachBus((s, i) => {
        const [x, y] = instances.screenOf(i, now, cam);
        label(s.placement.label, x, y, false);
      });
    }
  }
}
