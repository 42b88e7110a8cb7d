import 'server-only';
import type { Clock } from './clock';

// How many of the poller's requests may be out at once. The rate budget spaces their starts one slot apart; their
// answers take their time. By Little's law a poller that sends one request per slot interval while answers take W
// has W ÷ interval requests out on average, so a fixed cap caps the rate once answers are slow (4 at one slot every
// 62.5 ms stops at 250 ms answers: 960/min falls to 4 ÷ 0.4 s = 600/min at 400 ms). The cap here follows the
// answers' latency (a moving average of the poll lane's own answers, failures included: their time out is as real)
// with room for their spread, between a floor and a hard ceiling. It only lets the budget be spent: what may be sent
// in any minute is still the budget's to say (share·L in every 60 s window), and a slow or failing upstream still
// backs the poller off there (429 pauses, 5xx backoff), so the ceiling is what a hanging upstream can hold at once.

/** Requests out at once before any answer has been timed, and never fewer (the cap of old). */
export const MIN_IN_FLIGHT = 4;
/** Never more requests out at once than this, however slow the answers. */
export const MAX_IN_FLIGHT = 16;
/** Room for the spread of answer times around their mean: the cap is this many times the mean's need, plus one. */
const LATENCY_HEADROOM = 1.5;
/** Weight of the newest answer in the latency average (about the last ten answers count). */
const LATENCY_SMOOTHING = 0.1;

export class InFlight {
  private out = 0;
  private latencyMs: number | null = null;
  private waiters: (() => void)[] = [];
  private readonly ceiling: number;

  constructor(
    private readonly clock: Clock,
    ceiling = MAX_IN_FLIGHT,
  ) {
    this.ceiling = Math.max(1, Math.floor(ceiling));
  }

  /** Requests sent and not answered yet. */
  get count(): number {
    return this.out;
  }

  /** Mean time to an answer (ms), null before the first one. */
  get meanLatencyMs(): number | null {
    return this.latencyMs;
  }

  /** How many requests may be out at once with one sent every `slotMs`. */
  cap(slotMs: number): number {
    const floor = Math.min(MIN_IN_FLIGHT, this.ceiling);
    if (this.latencyMs === null || !(slotMs > 0)) return floor;
    return Math.min(this.ceiling, Math.max(floor, Math.ceil((LATENCY_HEADROOM * this.latencyMs) / slotMs) + 1));
  }

  /**
   * Counts a request from now that a run(…, true) sends a few promise steps later (a list page handed its slot):
   * the loop must not see room that is already taken.
   */
  reserve(): void {
    this.out++;
  }

  /** Runs one request, counted from now (or its reserve()) until it settles; the time it took feeds the latency. */
  async run<T>(send: () => Promise<T>, reserved = false): Promise<T> {
    const started = this.clock.now();
    if (!reserved) this.out++;
    try {
      return await send();
    } finally {
      this.out--;
      const took = Math.max(0, this.clock.now() - started);
      this.latencyMs = this.latencyMs === null ? took : this.latencyMs + LATENCY_SMOOTHING * (took - this.latencyMs);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Resolves once the next request out settles. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
