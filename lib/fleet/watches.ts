import 'server-only';
import { clientHolders } from './client-quota';

// Who watches which bus, so that a viewer cycling `watch` over the fleet cannot take the poll lane: each
// client holds at most MAX_WATCHES_PER_CLIENT buses at once (a new one replaces its own oldest), and the whole
// feed at most MAX_WATCHES_TOTAL distinct buses (a new bus past that is refused until a watch lapses). A watched
// bus gets at most every other slot however many there are (the job picker's rule); these bounds keep the
// watched set small enough that each one's refresh still comes round. The client key comes from lib/http
// (the address today, the session once sign-in exists); the feed never looks inside it.

/**
 * A dispatcher follows one bus; a few more cover tabs and quick re-selections within the watch's lifetime.
 * With L = 300/min, 0.8 share and every other slot, 120 watch refreshes a minute serve 10 buses every 5 s.
 */
export const MAX_WATCHES_PER_CLIENT = 3;
export const MAX_WATCHES_TOTAL = 12;
/** Clients remembered at most; past this the longest idle one is forgotten (its watches lapse with it). */
const MAX_CLIENTS = 10_000;

export type WatchOutcome = 'watching' | 'refused';

export interface WatchChange {
  /** Buses whose watch lapsed because their last client replaced them. */
  dropped: number[];
}

export class WatchRegistry {
  /** client → (bus → watched until), in order of each client's first watch (oldest first). */
  private readonly byClient = new Map<string, Map<number, number>>();

  constructor(
    private readonly ttlMs: number,
    private readonly perClient = MAX_WATCHES_PER_CLIENT,
    private readonly total = MAX_WATCHES_TOTAL,
  ) {}

  /**
   * `client` watches `busId` from `now` for the TTL. Returns whether it does, and the buses no client watches any
   * more because this one replaced them (their priority must end now, not at their old expiry).
   */
  add(clientKey: string, busId: number, now: number): { outcome: WatchOutcome } & WatchChange {
    // The first holder the key names (the account, a wall token, or the address): its sessions share its bound.
    const client = clientHolders(clientKey)[0] ?? clientKey;
    this.prune(now);
    const mine = this.byClient.get(client) ?? new Map<number, number>();
    const dropped: number[] = [];
    if (!mine.has(busId)) {
      if (!this.isWatched(busId, now) && this.distinctBuses(now) >= this.total) {
        // Replacing one's own oldest frees a place only if nobody else watches it.
        const oldest = mine.size >= this.perClient ? mine.keys().next().value : undefined;
        if (oldest === undefined || this.watchers(oldest, now) > 1) return { outcome: 'refused', dropped };
      }
      while (mine.size >= this.perClient) {
        const oldest = mine.keys().next().value as number;
        mine.delete(oldest);
        if (!this.isWatched(oldest, now)) dropped.push(oldest);
      }
    } else {
      mine.delete(busId);
    }
    mine.set(busId, now + this.ttlMs);
    // Re-inserted so the most recently active client is forgotten last.
    this.byClient.delete(client);
    this.byClient.set(client, mine);
    if (this.byClient.size > MAX_CLIENTS) {
      const [idle, theirs] = this.byClient.entries().next().value as [string, Map<number, number>];
      this.byClient.delete(idle);
      for (const bus of theirs.keys()) if (!this.isWatched(bus, now)) dropped.push(bus);
    }
    return { outcome: 'watching', dropped };
  }

  /** Until when any client watches this bus (0: nobody). */
  watchedUntil(busId: number, now: number): number {
    let until = 0;
    for (const mine of this.byClient.values()) {
      const u = mine.get(busId);
      if (u !== undefined && u > now && u > until) until = u;
    }
    return until;
  }

  /** Distinct buses watched now. */
  distinctBuses(now: number): number {
    const buses = new Set<number>();
    for (const mine of this.byClient.values()) for (const [bus, until] of mine) if (until > now) buses.add(bus);
    return buses.size;
  }

  private isWatched(busId: number, now: number): boolean {
    return this.watchers(busId, now) > 0;
  }

  private watchers(busId: number, now: number): number {
    let n = 0;
    for (const mine of this.byClient.values()) if ((mine.get(busId) ?? 0) > now) n++;
    return n;
  }

  private prune(now: number): void {
    for (const [client, mine] of this.byClient) {
      for (const [bus, until] of mine) if (until <= now) mine.delete(bus);
      if (mine.size === 0) this.byClient.delete(client);
    }
  }
}
