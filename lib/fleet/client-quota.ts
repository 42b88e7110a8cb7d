import 'server-only';

// How many on-demand upstream lookups one client may cause: a bucket of BURST lookups, refilled at PER_MINUTE.
// Only lookups that reach the upstream count (an answer from the cache, or joining a request already in flight,
// is free), so a dispatcher opening trips never notices, while a client sweeping ids through /api/trips/{id}
// spends its own bucket and not the headroom every dispatcher shares. Keys come from lib/http's clientKey.

/** A dispatcher opening trips one after another, a few at once. */
export const LOOKUP_BURST = 6;
/** One every 5 s after the burst: a fifth of the headroom of a 300/min key at the default 0.8 share. */
export const LOOKUPS_PER_MINUTE = 12;
/** Clients remembered at most; the longest idle is forgotten first (it would have a full bucket anyway). */
const MAX_CLIENTS = 10_000;

/**
 * A client key may name several holders at once, joined by `|` (a signed-in account and the address it comes
 * from): a limit holds for each of them, so a new session of the same account, or another account from the same
 * address, brings no fresh allowance.
 */
export function clientHolders(client: string): string[] {
  return client.split('|').filter(Boolean);
}

export type QuotaAnswer = { ok: true } | { ok: false; retryInS: number };

export class ClientQuota {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst = LOOKUP_BURST,
    private readonly perMinute = LOOKUPS_PER_MINUTE,
  ) {}

  /** Takes one lookup from the bucket of each holder the key names, or says when the next one will be there for all. */
  take(client: string, now: number): QuotaAnswer {
    const holders = clientHolders(client);
    const refused = holders.map((h) => this.peek(h, now)).filter((q): q is { ok: false; retryInS: number } => !q.ok);
    if (refused.length > 0) return { ok: false, retryInS: Math.max(...refused.map((q) => q.retryInS)) };
    for (const h of holders) this.takeOne(h, now);
    return { ok: true };
  }

  private peek(client: string, now: number): QuotaAnswer {
    const prev = this.buckets.get(client);
    const tokens = prev ? Math.min(this.burst, prev.tokens + ((now - prev.at) / 60_000) * this.perMinute) : this.burst;
    return tokens < 1 ? { ok: false, retryInS: Math.max(1, Math.ceil(((1 - tokens) / this.perMinute) * 60)) } : { ok: true };
  }

  private takeOne(client: string, now: number): QuotaAnswer {
    const prev = this.buckets.get(client);
    const tokens = prev ? Math.min(this.burst, prev.tokens + ((now - prev.at) / 60_000) * this.perMinute) : this.burst;
    this.buckets.delete(client);
    if (tokens < 1) {
      this.buckets.set(client, { tokens, at: now });
      return { ok: false, retryInS: Math.max(1, Math.ceil(((1 - tokens) / this.perMinute) * 60)) };
    }
    this.buckets.set(client, { tokens: tokens - 1, at: now });
    if (this.buckets.size > MAX_CLIENTS) this.buckets.delete(this.buckets.keys().next().value!);
    return { ok: true };
  }
}
