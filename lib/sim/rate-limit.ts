// Per-key request limit in fixed windows of real time: a key's window opens with its first request and
// lasts windowMs; requests past the limit within it are refused until it closes.

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window closes, epoch ms (real time). */
  resetAtMs: number;
}

export type ResetAtUnit = 'epoch-s' | 'epoch-ms' | 'delta-s';

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  take(key: string, limit: number): RateDecision {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now >= w.start + this.windowMs) {
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    const resetAtMs = w.start + this.windowMs;
    if (w.used >= limit) return { allowed: false, limit, remaining: 0, resetAtMs };
    w.used++;
    return { allowed: true, limit, remaining: limit - w.used, resetAtMs };
  }

  /** Whole seconds until the window of this decision closes (at least 1): the Retry-After value. */
  retryAfterS(d: RateDecision): number {
    return Math.max(1, Math.ceil((d.resetAtMs - this.now()) / 1000));
  }

  resetAtValue(d: RateDecision, unit: ResetAtUnit): number {
    if (unit === 'epoch-ms') return Math.ceil(d.resetAtMs);
    if (unit === 'delta-s') return this.retryAfterS(d);
    return Math.ceil(d.resetAtMs / 1000);
  }
}
