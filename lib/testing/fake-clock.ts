import type { Clock } from '@/lib/fleet/clock';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock for tests: time stands still until `advance` moves it, firing sleepers in time order and letting
 * every promise chain they wake settle before the next one fires.
 */
export class FakeClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Runs every sleeper due within ms, in order, then leaves the clock at now + ms. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await settle();
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers) if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.resolve();
      await settle();
    }
    this.current = end;
    await settle();
  }
}

/** Lets every queued microtask (and the chains they start) run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
