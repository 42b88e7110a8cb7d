import 'server-only';
import { logLine } from '@/lib/log';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Feed, FixEvent } from '@/lib/fleet';
import type { InstanceStatus, Vehicle } from '@/lib/model';
import { clusterKeys, type ClusterConfig } from './config';
import { Forwarder, LISTS_INTERVAL_MS } from './forward';
import { Lease } from './lease';
import { redisClient, type Redis } from './redis';
import { RedisBudget } from './shared-budget';
import { ClusterSnapshotStore } from './snapshot-store';

// One instance's place in the cluster: candidate until it knows who leads, then leader or follower.
// - Every 250 ms it looks at its lease: a leader whose last successful renewal is older than TTL minus the
//   margin stops polling at once (its feed follows again); renewals go out every third of the TTL.
// - Not leading, it tries to take the lease every second (and at once when the leader announces it let go),
//   and pulls the newest snapshot version every second besides the announcements.
// - Leading, it builds the snapshot every second (its store writes each version to Redis, fenced), applies
//   forwarded watches, answers forwarded lookups and writes the lists when they change.
// - Redis out of reach for LOST_AFTER_MS: "coordination lost"; the data held is served on with its age.

const TICK_MS = 250;
const PULL_MS = 1_000;
const LOST_AFTER_MS = 3_000;

export interface NodeHooks {
  /** Before this instance's feed polls as leader (lib/server: restore from history, start the recorder). */
  onLead?: (feed: Feed) => Promise<void>;
  /** After it stopped polling (the recorder stops). */
  onFollow?: () => Promise<void>;
}

export class ClusterNode {
  readonly instanceId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly keys;
  readonly redis: Redis;
  private readonly sub: Redis;
  readonly lease: Lease;
  readonly budget: RedisBudget;
  readonly store: ClusterSnapshotStore;
  readonly forwarder: Forwarder;
  private feed: Feed | null = null;
  private role: InstanceStatus['role'] = 'candidate';
  private leaderId: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private lastRenewSentAt = 0;
  private lastPullAt = 0;
  private lastListsAt = 0;
  private lastOkAt = Date.now();
  private lostAt: number | null = null;
  private stopped = false;
  private transition: Promise<void> = Promise.resolve();
  private tryNow = false;

  constructor(
    private readonly config: ClusterConfig,
    watchTtlMs: number,
    private readonly hooks: NodeHooks = {},
    private readonly log: (line: Record<string, unknown>) => void = logLine('warn'),
  ) {
    this.keys = clusterKeys(config.name);
    let lastError = '';
    const onError = (e: Error) => {
      // The client retries by itself; one line per new error, not one per retry.
      if (e.message !== lastError) this.log({ msg: 'redis error', error: e.message });
      lastError = e.message;
    };
    this.redis = redisClient(config.redisUrl, onError);
    this.sub = this.redis.duplicate();
    this.sub.on('error', onError);
    this.lease = new Lease(this.redis, this.keys, this.instanceId, config.leaseTtlMs);
    this.budget = new RedisBudget(this.redis, this.keys.budget, () => this.role === 'leader' && this.lease.validEpoch() !== null, log);
    this.store = new ClusterSnapshotStore(
      this.redis,
      this.keys,
      this.lease,
      (why) => this.stepDown(`fenced: ${why}`),
      (ok) => this.noteRedis(ok),
    );
    this.forwarder = new Forwarder(this.redis, this.keys, this.instanceId, watchTtlMs, log);
  }

  /** Connects (waiting for Redis at most a few seconds: an instance starts serving what it can without it). */
  async connect(): Promise<void> {
    const connect = async (c: Redis) => {
      await c.connect().catch((e: unknown) => this.log({ msg: 'redis not reachable at start', error: e instanceof Error ? e.message : String(e) }));
    };
    await Promise.all([connect(this.redis), connect(this.sub)]);
    // Subscriptions are restored by the client after a reconnect.
    await this.sub
      .subscribe([this.keys.versionChannel, this.keys.releasedChannel, this.keys.replyChannel(this.instanceId)], (message, channel) => this.onMessage(channel, message))
      .catch(() => {});
  }

  /** Attaches the feed (following until this instance leads) and starts the ticks. */
  attach(feed: Feed): void {
    this.feed = feed;
    feed.follow(this.forwarder);
    this.timer = setInterval(() => void this.tick(), TICK_MS);
  }

  status(): InstanceStatus {
    return { role: this.role, epoch: this.lease.validEpoch() ?? numberOrNull(this.store.read()?.snapshot.epoch), instanceId: this.instanceId, leaderId: this.role === 'leader' ? this.instanceId : this.leaderId };
  }

  /** Whether this instance lost Redis (and since when). */
  coordinationLostAt(): number | null {
    return this.lostAt;
  }

  private onMessage(channel: string, message: string): void {
    if (channel === this.keys.rpcChannel) {
      const feed = this.feed;
      if (feed && this.role === 'leader') void this.forwarder.serve(feed, message).catch((e: unknown) => this.log({ msg: 'lookup not answered', error: e instanceof Error ? e.message : String(e) }));
    } else if (channel === this.keys.versionChannel) {
      if (this.role !== 'leader') this.lastPullAt = 0;
    } else if (channel === this.keys.releasedChannel) {
      this.tryNow = true;
    } else {
      this.forwarder.onReply(message);
    }
  }

  private noteRedis(ok: boolean): void {
    const now = Date.now();
    if (ok) {
      this.lastOkAt = now;
      if (this.lostAt !== null) {
        this.log({ msg: 'coordination back', level: 'info', lostForMs: now - this.lostAt });
        this.lostAt = null;
        this.store.markCoordination(null);
      }
    } else if (this.lostAt === null && now - this.lastOkAt >= LOST_AFTER_MS) {
      this.lostAt = this.lastOkAt;
      this.log({ msg: 'coordination lost', sinceMs: now - this.lastOkAt });
    }
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped || !this.feed) return;
    this.busy = true;
    try {
      await this.transition;
      if (this.role === 'leader') await this.leaderTick(this.feed);
      else await this.followerTick();
    } catch {
      this.noteRedis(false);
    } finally {
      if (this.lostAt !== null && this.role !== 'leader') this.store.markCoordination(this.lostAt);
      this.busy = false;
    }
  }

  private async leaderTick(feed: Feed): Promise<void> {
    if (this.lease.validEpoch() === null) {
      this.stepDown('lease not renewed in time');
      return;
    }
    const now = Date.now();
    if (now - this.lastRenewSentAt >= this.config.leaseTtlMs / 3) {
      this.lastRenewSentAt = now;
      let renewed: boolean;
      try {
        renewed = await this.lease.renew();
        this.noteRedis(true);
      } catch {
        this.noteRedis(false);
        return;
      }
      if (!renewed) {
        this.stepDown('lease lost');
        return;
      }
    }
    // The builder re-versions only on a change, at most once a second; the store writes each version.
    feed.liveSnapshot();
    if (now - this.lastPullAt >= PULL_MS) {
      this.lastPullAt = now;
      await this.forwarder.applyWatches(feed);
    }
    if (now - this.lastListsAt >= LISTS_INTERVAL_MS) {
      this.lastListsAt = now;
      await this.forwarder.pushLists(feed);
    }
  }

  private async followerTick(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPullAt < PULL_MS && !this.tryNow) return;
    this.lastPullAt = now;
    this.tryNow = false;
    try {
      await this.store.pull();
      this.noteRedis(true);
    } catch {
      this.noteRedis(false);
      return;
    }
    const epoch = await this.lease.acquire();
    if (epoch !== null) {
      await this.lead(epoch);
      return;
    }
    const holder = await this.lease.holder();
    this.leaderId = holder?.instanceId ?? null;
    if (holder) this.lease.noteEpoch(holder.epoch);
    this.role = holder ? 'follower' : 'candidate';
    if (now - this.lastListsAt >= LISTS_INTERVAL_MS) {
      this.lastListsAt = now;
      await this.forwarder.pullLists();
    }
  }

  private async lead(epoch: number): Promise<void> {
    const feed = this.feed!;
    this.log({ msg: 'leading', level: 'info', epoch, instanceId: this.instanceId });
    this.role = 'leader';
    this.leaderId = this.instanceId;
    this.lastRenewSentAt = Date.now();
    // What the last leader served, with its true ages, until this feed's own answers replace it.
    const last = this.store.read();
    if (last) feed.restore({ fixes: fixesOf(last.snapshot.vehicles), trips: [], tripsFetchedAt: null });
    // The hook (a restore from PostgreSQL) may take longer than the lease: it is renewed meanwhile.
    const renewing = setInterval(() => {
      this.lastRenewSentAt = Date.now();
      void this.lease.renew().catch(() => {});
    }, this.config.leaseTtlMs / 3);
    try {
      await this.hooks.onLead?.(feed);
    } catch (e) {
      this.log({ msg: 'lead hook failed', error: e instanceof Error ? e.message : String(e) });
    } finally {
      clearInterval(renewing);
    }
    if (this.role !== 'leader' || this.lease.validEpoch() !== epoch) return;
    this.forwarder.forgetWrittenLists();
    this.lastListsAt = 0;
    await this.sub.subscribe(this.keys.rpcChannel, (message, channel) => this.onMessage(channel, message)).catch(() => {});
    feed.follow(null);
    feed.liveSnapshot();
  }

  /** Stops polling at once, then tells the rooms that follow it. */
  private stepDown(why: string): void {
    if (this.role !== 'leader') return;
    this.feed?.follow(this.forwarder);
    this.lease.drop();
    this.role = 'candidate';
    this.leaderId = null;
    this.log({ msg: 'stepped down', level: 'info', why });
    this.transition = this.transition.then(async () => {
      await this.sub.unsubscribe(this.keys.rpcChannel).catch(() => {});
      await this.hooks.onFollow?.().catch((e: unknown) => this.log({ msg: 'follow hook failed', error: e instanceof Error ? e.message : String(e) }));
    });
  }

  /** A planned stop: stop polling, release the lease (another instance takes over at once), disconnect. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const wasLeader = this.role === 'leader';
    this.feed?.follow(this.forwarder);
    if (wasLeader) {
      // Hand over first (another instance takes the lease at once), then let the recorder write its last batch.
      await this.store.flushed();
      await this.lease.release().catch(() => {});
      await this.redis.publish(this.keys.releasedChannel, this.instanceId).catch(() => {});
      await this.hooks.onFollow?.().catch(() => {});
    }
    this.role = 'candidate';
    await Promise.allSettled([this.sub.quit(), this.redis.quit()]);
  }
}

function numberOrNull(s: string | undefined): number | null {
  const n = Number(s);
  return s !== undefined && Number.isInteger(n) ? n : null;
}

/** The positions a snapshot shows, as fixes a new leader's feed starts from. */
function fixesOf(vehicles: readonly Vehicle[]): FixEvent[] {
  const out: FixEvent[] = [];
  for (const v of vehicles) {
    if (v.lat === null || v.lon === null || v.fetchedAt === null) continue;
    out.push({ busId: v.busId, gpsAt: v.gpsAt, fetchedAt: v.fetchedAt, lat: v.lat, lon: v.lon, heading: v.heading, speedKmh: v.speedKmh, accuracy: v.accuracy, tripId: v.trip?.tripId ?? null });
  }
  return out;
}
