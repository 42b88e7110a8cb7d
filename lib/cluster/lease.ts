import type { Redis } from './redis';
import type { ClusterKeys } from './config';

// Leadership is a lease in Redis: SET NX PX takes it, a compare-and-extend script renews it, a compare-and-delete
// script releases it (a planned stop hands over at once). Each new lease takes a fencing epoch from a counter
// (INCR), never lower than the highest this instance has seen, so a Redis that lost its data still never hands
// out an epoch the browsers have seen. The lease's value is `<instanceId>|<epoch>`: followers read both from it.
//
// The holder's view of its own lease is local: it counts from the moment it *sent* its last successful
// renewal, so a lease it believes valid is valid in Redis too; past TTL minus the margin it stops at once
// (a paused process, a partition), whatever Redis says later.

const ACQUIRE = `
if not redis.call('SET', KEYS[1], 'pending', 'NX', 'PX', ARGV[2]) then return 0 end
local e = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if e <= floor then e = floor + 1 redis.call('SET', KEYS[2], e) end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. e, 'PX', ARGV[2])
return e`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface LeaseHolder {
  instanceId: string;
  epoch: number;
}

export function parseLeaseValue(v: string | null): LeaseHolder | null {
  if (!v) return null;
  const i = v.lastIndexOf('|');
  const epoch = Number(v.slice(i + 1));
  if (i <= 0 || !Number.isInteger(epoch)) return null;
  return { instanceId: v.slice(0, i), epoch };
}

export class Lease {
  /** The lease this instance holds: its epoch and when the last renewal that succeeded was sent. */
  private held: { epoch: number; value: string; renewedAt: number } | null = null;
  /** The highest epoch this instance has seen (its own and the leaders it followed). */
  private highestEpoch = 0;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Pick<ClusterKeys, 'lease' | 'epoch'>,
    readonly instanceId: string,
    readonly ttlMs: number,
    /** Stop polling this much before the lease could lapse in Redis (clock drift, a slow renewal's answer). */
    readonly marginMs = Math.min(2_000, Math.floor(ttlMs / 3)),
    private readonly now: () => number = Date.now,
  ) {}

  /** The epoch of the lease held now, if it is still safely valid. */
  validEpoch(): number | null {
    const h = this.held;
    if (!h) return null;
    if (this.now() - h.renewedAt >= this.ttlMs - this.marginMs) return null;
    return h.epoch;
  }

  /** The value the lease holds in Redis while ours (fenced writes compare it). */
  value(): string | null {
    return this.held?.value ?? null;
  }

  noteEpoch(epoch: number): void {
    if (epoch > this.highestEpoch) this.highestEpoch = epoch;
  }

  /** Tries to take the lease; its epoch when taken, null when another instance holds it. */
  async acquire(): Promise<number | null> {
    const sentAt = this.now();
    const r = await this.redis.eval(ACQUIRE, { keys: [this.keys.lease, this.keys.epoch], arguments: [this.instanceId, String(this.ttlMs), String(this.highestEpoch)] });
    const epoch = Number(r);
    if (!epoch) return null;
    this.noteEpoch(epoch);
    this.held = { epoch, value: `${this.instanceId}|${epoch}`, renewedAt: sentAt };
    return epoch;
  }

  /** Extends the lease held; false when it is no longer ours (it lapsed, or another instance took it). */
  async renew(): Promise<boolean> {
    const h = this.held;
    if (!h) return false;
    const sentAt = this.now();
    const r = await this.redis.eval(RENEW, { keys: [this.keys.lease], arguments: [h.value, String(this.ttlMs)] });
    if (Number(r) !== 1) {
      this.held = null;
      return false;
    }
    if (this.held === h) h.renewedAt = sentAt;
    return true;
  }

  /** Gives the lease up (a planned stop): another instance may take it at once. */
  async release(): Promise<void> {
    const h = this.held;
    this.held = null;
    if (h) await this.redis.eval(RELEASE, { keys: [this.keys.lease], arguments: [h.value] });
  }

  /** Forgets the lease without telling Redis (the link is down, or a write was fenced off). */
  drop(): void {
    this.held = null;
  }

  /** Who holds the lease now, as Redis says. */
  async holder(): Promise<LeaseHolder | null> {
    return parseLeaseValue(await this.redis.get(this.keys.lease));
  }
}
