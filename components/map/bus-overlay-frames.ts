// When the bus overlay draws: at the next animation frame when asked (several requests, one frame), and while
// buses move, as often as their motion shows on screen (lib/view/bus-keyframes frameIntervalMs) or when the next
// key runs out, whichever comes first. Frames the map draws itself (the camera moved) come through the overlay's
// render listener, not through here.
import { frameIntervalMs } from '@/lib/view/bus-keyframes';

export class FrameScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private raf = 0;
  private stopped = false;

  constructor(private readonly drawFrame: () => void) {}

  /** One frame at the next animation frame. */
  request() {
    if (this.raf || this.stopped) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.drawFrame();
    });
  }

  /**
   * After a frame: the next one when the fastest drawn bus (`fastestMps`) has moved far enough at `mPerPx` to show,
   * or in `untilRenewMs` when a key runs out. Nothing moving, nothing to renew: no frame until asked.
   */
  afterFrame(fastestMps: number, mPerPx: number, untilRenewMs: number) {
    if (this.timer !== null || this.stopped) return;
    const interval = frameIntervalMs(fastestMps, mPerPx);
    const wait = Math.min(interval ?? Infinity, untilRenewMs);
    if (!Number.isFinite(wait)) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.request();
    }, Math.max(0, wait));
  }

  stop() {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }
}
