import 'server-only';
import type { RateLimitInfo } from '@/lib/model';
import type { Clock } from './clock';

// How the feed spends the key's per-minute limit L:
// - the poller ('poll' lane) may send at most share·L requests in any 60 s window, on an even grid of one slot
//   every 60/(share·L) s; the remaining (1−share)·L is headroom for on-demand calls ('demand' lane). A slot taken
//   late (a busy event loop runs the poller's timer late) does not move the grid: the slots of the last
//   MAX_POLL_CATCH_UP_MS missed that way go at once, so a loaded server keeps its rate, not one lateness per slot;
// - all lanes together never send more than L in any 60 s window (a sliding log, which also holds for the
//   upstream's own fixed windows, whatever their edges);
// - meta.rate_limit slows the poller when `remaining` is low for the time left to `reset_at` (someone else
//   may be spending the same key), and holds every lane when nothing is left;
// - a 429 pauses every lane until Retry-After; 5xx, timeouts, network errors and unreadable answers back the
//   poller off exponentially with jitter (capped at maxBackoffMs, 60 s by default), reset by the next answer.

export type Lane = 'poll' | 'demand';

const WINDOW_MS = 60_000;
/**
 * How far behind the poll grid may fall and still be made up: the slots missed within this are sent at once (a
 * short burst, never past the share in any 60 s window); further behind (a long stall, an idle poller), the grid
 * starts anew at the slot taken.
 */
export const MAX_POLL_CATCH_UP_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
const BASE_BACKOFF_MS = 1_000;
/** Retry-After is required by the spec; if it is missing anyway, wait out a whole window. */
const DEFAULT_RETRY_AFTER_S = 60;
/**
 * Longest pause a Retry-After may impose. A longer one is an upstream's mistake (or a unit we misread): obeying it
 * would blank the map for hours. Past this we ask again, and a real limit answers another 429.
 */
export const MAX_RETRY_AFTER_S = 10 * 60;
/** Before /status has told us the limit, stay slow. */
const DEFAULT_LIMIT = 30;
/** reset_at further ahead than this is a unit we misread, not a reason to stall. */
const MAX_TRUSTED_RESET_MS = 2 * WINDOW_MS;

/** What the budget needs of an upstream answer (a structural subset of lib/partner's ResponseInfo). */
export interface BudgetResponse {
  rateLimit: RateLimitInfo | null;
  error: { kind: 'http' | 'timeout' | 'network' | 'contract'; status: number | null; retryAfterS: number | null } | null;
}

export interface BudgetStats {
  limit: number | null;
  usedLastMinute: number;
  share: number;
  byKind: Record<string, number>;
  rateLimited429: number;
  pausedUntil: number | null;
}

interface Send {
  at: number;
  kind: string;
  lane: Lane;
}

/**
 * A per-minute counter shared by several instances spending one key (lib/cluster keeps it in Redis): every
 * request this budget grants also takes a permit there, so instances that overlap (two leaders for a moment,
 * followers' lookups) still cannot send more than the key's limit together. The feed never knows where it lives.
 */
export interface SharedBudget {
  /**
   * A permit for one request in `lane`, or how long to wait before asking again. `limit`: the key's per-minute
   * limit as this budget knows it, null before /status told it. Throws when the counter cannot be reached: then
   * nothing is sent.
   */
  take(lane: Lane, limit: number | null): Promise<{ ok: true; permit: string } | { ok: false; waitMs: number }>;
  /** Gives back a permit taken for a request that was not sent after all. */
  release(permit: string): void;
}

/** While the shared counter cannot be reached, a caller willing to wait asks again this much later. */
const SHARED_RETRY_MS = 1_000;

/** Thrown by acquire when a slot is further away than the caller is willing to wait. */
export class BudgetUnavailableError extends Error {
  constructor(
    readonly readyAt: number,
    readonly reason: 'rate-limited' | 'budget',
  ) {
    super(reason === 'rate-limited' ? 'The upstream rate limit is exhausted; waiting for Retry-After.' : 'The request budget for this minute is spent.');
    this.name = 'BudgetUnavailableError';
  }
}

export function isRetryableFailure(error: BudgetResponse['error']): boolean {
  if (!error) return false;
  // An answer we cannot read (not JSON, breaks the contract) is the upstream failing as much as a 500 is.
  if (error.kind === 'timeout' || error.kind === 'network' || error.kind === 'contract') return true;
  return error.kind === 'http' && error.status !== null && error.status >= 500;
}

export class RateBudget {
  private readonly clock: Clock;
  readonly share: number;
  private readonly random: () => number;
  private readonly maxBackoffMs: number;
  private sends: Send[] = [];
  /**
   * When the poll lane's sends of the last window went, oldest first: asked at every slot (dozens of times a
   * second at 10,000 buses), so kept beside `sends` rather than filtered out of it each time.
   */
  private pollTimes: number[] = [];
  private upstreamLimit: number | null = null;
  private nextPollAt = 0;
  private lastPollAt = Number.NEGATIVE_INFINITY;
  private firstPollAt: number | null = null;
  private pausedUntilMs = 0;
  private backoffUntil = 0;
  private failures = 0;
  private count429 = 0;
  private upstream: { remaining: number; resetAt: number; sentSince: number } | null = null;

  private readonly shared: SharedBudget | null;

  constructor(opts: { clock: Clock; share: number; random?: () => number; maxBackoffMs?: number; shared?: SharedBudget }) {
    this.clock = opts.clock;
    this.shared = opts.shared ?? null;
    this.share = opts.share;
    this.random = opts.random ?? Math.random;
    this.maxBackoffMs = opts.maxBackoffMs ?? MAX_BACKOFF_MS;
  }

  get limit(): number | null {
    return this.upstreamLimit;
  }

  setLimit(limit: number): void {
    if (!Number.isInteger(limit) || limit <= 0 || limit === this.upstreamLimit) return;
    this.upstreamLimit = limit;
    // The slot already promised was spaced for the old limit (at first, the slow default).
    this.nextPollAt = this.lastPollAt + this.pollIntervalMs();
  }

  private effectiveLimit(): number {
    return this.upstreamLimit ?? DEFAULT_LIMIT;
  }

  /** The poller's share of the limit per minute (at least one request). */
  pollPerMinute(): number {
    return Math.max(1, Math.floor(this.share * this.effectiveLimit()));
  }

  /** Even spacing of the poller's requests. */
  pollIntervalMs(): number {
    return WINDOW_MS / this.pollPerMinute();
  }

  /**
   * The poller's requests actually sent per minute: those of the last 60 s, once it has sent for a whole window
   * (its nominal rate before), never above the nominal rate nor below `floorShare` of it. A poller whose answers
   * are too slow for its requests in flight (lib/fleet/in-flight.ts) sends less than its share allows; paced against
   * this, the other jobs keep their share of what goes out, not of what could have. The floor keeps a pause (an
   * outage, a 429) from stretching them further once the key is back.
   */
  pollSentPerMinute(floorShare: number): number {
    const now = this.clock.now();
    const nominal = this.pollPerMinute();
    if (this.firstPollAt === null || now - this.firstPollAt < WINDOW_MS) return nominal;
    this.prune(now);
    return Math.min(nominal, Math.max(floorShare * nominal, this.pollTimes.length));
  }

  /**
   * Waits for a slot in the lane and records the request as sent. `kind` may be a function called at the
   * moment the slot is granted (the poller decides what to send only then); when it returns null nothing
   * is recorded and acquire resolves false.
   */
  async acquire(kind: string | (() => string | null), lane: Lane, opts: { maxWaitMs?: number; signal?: AbortSignal } = {}): Promise<boolean> {
    const deadline = opts.maxWaitMs === undefined ? Number.POSITIVE_INFINITY : this.clock.now() + opts.maxWaitMs;
    for (;;) {
      if (opts.signal?.aborted) throw new Error('aborted');
      const now = this.clock.now();
      const ready = this.readyAt(lane, now);
      if (ready <= now) {
        if (this.shared) {
          const granted = await this.acquireShared(kind, lane, deadline, opts.signal);
          if (granted === 'again') continue;
          return granted;
        }
        const k = typeof kind === 'function' ? kind() : kind;
        if (k === null) return false;
        this.record(k, lane, now);
        return true;
      }
      if (ready > deadline) throw new BudgetUnavailableError(ready, this.pausedUntilMs > now ? 'rate-limited' : 'budget');
      await this.clock.sleep(ready - now, opts.signal);
    }
  }

  /**
   * The shared counter's permit, then this budget's slot again (another caller of this process may have taken
   * it while the permit was on its way): a permit left unused is given back. 'again': wait over, ask anew.
   */
  private async acquireShared(kind: string | (() => string | null), lane: Lane, deadline: number, signal: AbortSignal | undefined): Promise<boolean | 'again'> {
    const shared = this.shared!;
    let answer: Awaited<ReturnType<SharedBudget['take']>>;
    try {
      answer = await shared.take(lane, this.upstreamLimit);
    } catch {
      answer = { ok: false, waitMs: SHARED_RETRY_MS };
    }
    if (signal?.aborted) {
      if (answer.ok) shared.release(answer.permit);
      throw new Error('aborted');
    }
    const now = this.clock.now();
    if (!answer.ok) {
      if (now + answer.waitMs > deadline) throw new BudgetUnavailableError(now + answer.waitMs, 'budget');
      await this.clock.sleep(answer.waitMs, signal);
      return 'again';
    }
    if (this.readyAt(lane, now) > now) {
      shared.release(answer.permit);
      return 'again';
    }
    const k = typeof kind === 'function' ? kind() : kind;
    if (k === null) {
      shared.release(answer.permit);
      return false;
    }
    this.record(k, lane, now);
    return true;
  }

  /** Earliest instant the lane may send, given everything known now. */
  readyAt(lane: Lane, now: number): number {
    this.prune(now);
    const limit = this.effectiveLimit();
    let t = Math.max(now, this.pausedUntilMs, windowReadyAt(this.sends, limit, (s) => s.at));
    const upstream = this.trustedUpstream(now);
    if (lane === 'poll') {
      t = Math.max(t, this.nextPollAt, this.backoffUntil, windowReadyAt(this.pollTimes, this.pollPerMinute(), (at) => at));
      if (upstream) {
        const toReset = upstream.resetAt - now;
        const reserve = Math.floor((1 - this.share) * limit * Math.min(1, toReset / WINDOW_MS));
        const allowed = upstream.remaining - upstream.sentSince - reserve;
        t = Math.max(t, allowed <= 0 ? upstream.resetAt : this.lastPollAt + toReset / allowed);
      }
    } else if (upstream && upstream.remaining - upstream.sentSince <= 0) {
      t = Math.max(t, upstream.resetAt);
    }
    return t;
  }

  private trustedUpstream(now: number) {
    const u = this.upstream;
    if (!u || u.resetAt <= now || u.resetAt - now > MAX_TRUSTED_RESET_MS) return null;
    return u;
  }

  private record(kind: string, lane: Lane, now: number): void {
    this.sends.push({ at: now, kind, lane });
    if (lane === 'poll') this.pollTimes.push(now);
    if (this.upstream) this.upstream.sentSince++;
    if (lane === 'poll') {
      this.firstPollAt ??= now;
      this.lastPollAt = now;
      this.nextPollAt = (this.nextPollAt >= now - MAX_POLL_CATCH_UP_MS ? this.nextPollAt : now) + this.pollIntervalMs();
    }
  }

  private prune(now: number): void {
    let drop = 0;
    while (drop < this.sends.length && this.sends[drop]!.at <= now - WINDOW_MS) drop++;
    if (drop > 0) this.sends.splice(0, drop);
    drop = 0;
    while (drop < this.pollTimes.length && this.pollTimes[drop]! <= now - WINDOW_MS) drop++;
    if (drop > 0) this.pollTimes.splice(0, drop);
  }

  /** Feeds an upstream answer back: rate-limit meta, 429 pauses, failure backoff. */
  noteResponse(r: BudgetResponse): void {
    const now = this.clock.now();
    if (r.rateLimit) {
      this.setLimit(r.rateLimit.limit);
      if (r.rateLimit.resetAt !== null) this.upstream = { remaining: r.rateLimit.remaining, resetAt: r.rateLimit.resetAt, sentSince: 0 };
    }
    const err = r.error;
    if (err && err.kind === 'http' && err.status === 429) {
      this.count429++;
      this.pausedUntilMs = Math.max(this.pausedUntilMs, now + Math.min(MAX_RETRY_AFTER_S, err.retryAfterS ?? DEFAULT_RETRY_AFTER_S) * 1000);
    } else if (isRetryableFailure(err)) {
      this.failures++;
      const ceiling = Math.min(this.maxBackoffMs, BASE_BACKOFF_MS * 2 ** (this.failures - 1));
      // Equal jitter: at least half the step, so a fleet of retries never lines up again.
      this.backoffUntil = now + ceiling / 2 + this.random() * (ceiling / 2);
    } else {
      this.failures = 0;
      this.backoffUntil = 0;
    }
  }

  pausedUntil(now = this.clock.now()): number | null {
    return this.pausedUntilMs > now ? this.pausedUntilMs : null;
  }

  /** Requests in the last minute, optionally only of one lane. */
  sentLastMinute(filter?: (kind: string, lane: Lane) => boolean): number {
    this.prune(this.clock.now());
    return filter ? this.sends.filter((s) => filter(s.kind, s.lane)).length : this.sends.length;
  }

  stats(): BudgetStats {
    const now = this.clock.now();
    this.prune(now);
    const byKind: Record<string, number> = {};
    for (const s of this.sends) byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
    return {
      limit: this.upstreamLimit,
      usedLastMinute: this.sends.length,
      share: this.share,
      byKind,
      rateLimited429: this.count429,
      pausedUntil: this.pausedUntil(now),
    };
  }
}

/** When a list of sends (ascending by `at`) next has room for one more under cap per window. */
function windowReadyAt<T>(sends: readonly T[], cap: number, at: (s: T) => number): number {
  if (sends.length < cap) return Number.NEGATIVE_INFINITY;
  return at(sends[sends.length - cap]!) + WINDOW_MS;
}
