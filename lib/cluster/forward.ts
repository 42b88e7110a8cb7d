import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Answer, Feed, FollowSource, ListResult } from '@/lib/fleet';
import type { BusesResponse, NetworkResponse, RouteStops, RoutesResponse, Trip } from '@/lib/model';
import type { ClusterKeys } from './config';
import type { Redis } from './redis';

// What a follower asks of the leader through Redis, and the leader's side of it:
// - watches: a sorted set of `<busId>|<client>` scored by expiry; the leader applies each new or renewed one to
//   its feed (the per-client bounds apply there) and a new leader inherits the ones not expired;
// - on-demand lookups (a trip, a route's stops): a request published to the leader, answered on the asking
//   instance's own channel, with a deadline; the leader's cache answers every instance, and its budget counts;
// - the lists (routes, buses, the network): the leader writes them when they change, followers read them.

/** A follower's lookup waits this long for the leader's answer (the leader may wait up to 5 s for a budget slot). */
const LOOKUP_TIMEOUT_MS = 8_000;
/** How often the leader writes the lists when they changed, and followers look. */
export const LISTS_INTERVAL_MS = 5_000;

interface LookupRequest {
  id: string;
  op: 'trip' | 'routeStops';
  arg: number;
  client: string;
  replyTo: string;
  deadline: number;
}

interface Lists {
  routes: ListResult<RoutesResponse> | null;
  buses: ListResult<BusesResponse> | null;
  network: NetworkResponse | null;
}

const failure = (status: 503 | 504, message: string) => ({ ok: false as const, failure: { status, message, correlationId: null } });

export class Forwarder implements FollowSource {
  private readonly pending = new Map<string, (a: Answer<unknown>) => void>();
  private lists: Lists = { routes: null, buses: null, network: null };
  private listsStamp = '';
  private writtenLists = '';
  /** Watches the leader applied: member → expiry. */
  private readonly applied = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly instanceId: string,
    private readonly watchTtlMs: number,
    private readonly log: (line: Record<string, unknown>) => void,
  ) {}

  // ---- the follower's side (FollowSource) ----

  watch(busId: number, client: string): boolean {
    const member = `${busId}|${client}`;
    this.redis
      .zAdd(this.keys.watches, { score: Date.now() + this.watchTtlMs, value: member })
      .catch((e: unknown) => this.log({ msg: 'watch not forwarded', error: e instanceof Error ? e.message : String(e) }));
    return true;
  }

  trip(id: number, client: string): Promise<Answer<Trip>> {
    return this.ask<Trip>('trip', id, client);
  }

  routeStops(routeId: number, client: string): Promise<Answer<RouteStops>> {
    return this.ask<RouteStops>('routeStops', routeId, client);
  }

  routesList() {
    return this.lists.routes;
  }

  busesList() {
    return this.lists.buses;
  }

  networkGeoJson() {
    return this.lists.network;
  }

  private async ask<T>(op: LookupRequest['op'], arg: number, client: string): Promise<Answer<T>> {
    const id = randomBytes(8).toString('hex');
    const req: LookupRequest = { id, op, arg, client, replyTo: this.instanceId, deadline: Date.now() + LOOKUP_TIMEOUT_MS };
    const answer = new Promise<Answer<T>>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(failure(504, 'The instance that polls the upstream did not answer in time; try again.'));
      }, LOOKUP_TIMEOUT_MS);
      this.pending.set(id, (a) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(a as Answer<T>);
      });
    });
    let receivers = 0;
    try {
      receivers = Number(await this.redis.publish(this.keys.rpcChannel, JSON.stringify(req)));
    } catch {
      this.pending.get(id)?.(failure(503, 'This server cannot reach the other instances just now; try again in a few seconds.'));
    }
    if (receivers === 0) this.pending.get(id)?.(failure(503, 'No instance polls the upstream just now (a new one takes over within seconds); try again.'));
    return answer;
  }

  /** A message on this instance's reply channel. */
  onReply(message: string): void {
    try {
      const { id, answer } = JSON.parse(message) as { id: string; answer: Answer<unknown> };
      this.pending.get(id)?.(answer);
    } catch {
      // Not one of ours.
    }
  }

  /** Reads the lists the leader wrote, when they changed. */
  async pullLists(): Promise<void> {
    const stamp = await this.redis.hGet(this.keys.lists, 'stamp');
    if (!stamp || stamp === this.listsStamp) return;
    const all = await this.redis.hGetAll(this.keys.lists);
    if (!all.stamp) return;
    const parse = <T>(s: string | undefined): T | null => (s ? (JSON.parse(s) as T) : null);
    this.lists = { routes: parse(all.routes), buses: parse(all.buses), network: parse(all.network) };
    this.listsStamp = all.stamp;
  }

  // ---- the leader's side ----

  /** A lookup request published to the leader: answered from its feed, on the asker's channel. */
  async serve(feed: Feed, message: string): Promise<void> {
    let req: LookupRequest;
    try {
      req = JSON.parse(message) as LookupRequest;
    } catch {
      return;
    }
    if (req.deadline < Date.now() || !Number.isInteger(req.arg)) return;
    const answer = req.op === 'trip' ? await feed.trip(req.arg, req.client) : await feed.routeStops(req.arg, req.client);
    await this.redis.publish(this.keys.replyChannel(req.replyTo), JSON.stringify({ id: req.id, answer }));
  }

  /** The leader applies new and renewed watches; expired ones are dropped from Redis. */
  async applyWatches(feed: Feed): Promise<void> {
    const now = Date.now();
    await this.redis.zRemRangeByScore(this.keys.watches, '-inf', now);
    const live = await this.redis.zRangeWithScores(this.keys.watches, 0, -1);
    for (const { value, score } of live) {
      if (this.applied.get(value) === score) continue;
      this.applied.set(value, score);
      const i = value.indexOf('|');
      const busId = Number(value.slice(0, i));
      if (i > 0 && Number.isInteger(busId)) feed.watch(busId, value.slice(i + 1));
    }
    for (const [member, until] of this.applied) if (until <= now) this.applied.delete(member);
  }

  /** The leader writes the lists when they changed. */
  async pushLists(feed: Feed): Promise<void> {
    const routes = JSON.stringify(feed.routesList());
    const buses = JSON.stringify(feed.busesList());
    const network = JSON.stringify(feed.networkGeoJson());
    const all = routes + buses + network;
    if (all === this.writtenLists) return;
    await this.redis.hSet(this.keys.lists, { routes, buses, network, stamp: `${Date.now()}-${randomBytes(3).toString('hex')}` });
    this.writtenLists = all;
  }

  /** A new leader writes its lists anew. */
  forgetWrittenLists(): void {
    this.writtenLists = '';
  }
}
