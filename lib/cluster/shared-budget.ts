import { randomBytes } from 'node:crypto';
import type { Lane, SharedBudget } from '@/lib/fleet';
import type { Redis } from './redis';

// The key's per-minute limit, counted in Redis for every instance: a sliding log (a sorted set of the last 60 s
// of permits, scored by Redis's own clock) that grants a permit only while fewer than `limit` were granted in
// the last 60 s. Every upstream request of every instance takes one (lib/fleet's RateBudget asks before it
// sends), so two instances polling at once for a moment, or followers' lookups, still cannot exceed the limit:
// partner calls cannot be fenced, this is what bounds them. The poll lane also needs a valid lease.

// 60 s and one more: a permit granted at the end of a window may reach the upstream up to a second later (the
// request is still on its way), and the upstream's window must still see at most the limit.
const WINDOW_MS = 61_000;
/** Before any instance knows the key's limit (lib/fleet's RateBudget is as slow). */
const DEFAULT_LIMIT = 30;

// ARGV[1]: the limit the caller knows ('' before /status told it): the last one known to any instance then, or
// the slow default. KEYS[2] keeps it.
const TAKE = `
local limit = tonumber(ARGV[1])
if limit then redis.call('SET', KEYS[2], limit, 'EX', 86400) else limit = tonumber(redis.call('GET', KEYS[2])) or ${DEFAULT_LIMIT} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS})
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 1_000})
  return -1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + ${WINDOW_MS} - now + 1)`;

/** When the poll lane is asked for while this instance holds no valid lease, it looks again this much later. */
const NOT_LEADING_WAIT_MS = 1_000;

export class RedisBudget implements SharedBudget {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    /** Whether this instance may poll now (it holds a valid lease). */
    private readonly mayPoll: () => boolean,
    private readonly log: (line: Record<string, unknown>) => void = () => {},
  ) {}

  async take(lane: Lane, limit: number | null): Promise<{ ok: true; permit: string } | { ok: false; waitMs: number }> {
    if (lane === 'poll' && !this.mayPoll()) return { ok: false, waitMs: NOT_LEADING_WAIT_MS };
    const permit = randomBytes(8).toString('hex');
    const r = Number(await this.redis.eval(TAKE, { keys: [this.key, `${this.key}:limit`], arguments: [limit === null ? '' : String(limit), permit] }));
    if (r === -1) {
      // The lease may have lapsed while the permit was on its way: a poll sends nothing then.
      if (lane === 'poll' && !this.mayPoll()) {
        this.release(permit);
        return { ok: false, waitMs: NOT_LEADING_WAIT_MS };
      }
      return { ok: true, permit };
    }
    return { ok: false, waitMs: r };
  }

  release(permit: string): void {
    this.redis.zRem(this.key, permit).catch((e: unknown) => this.log({ msg: 'budget permit not released', error: e instanceof Error ? e.message : String(e) }));
  }

  /** Permits granted in the last 60 s (status, benchmarks). */
  async usedLastMinute(): Promise<number> {
    const t = await this.redis.time();
    const now = Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000);
    return this.redis.zCount(this.key, now - WINDOW_MS + 1, '+inf');
  }
}
