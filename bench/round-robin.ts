// The round-robin peer of benchmark 2: the same pacing as Fleetmap's poller (share·L requests a minute,
// evenly spaced, never in bursts, at most four in flight), the active-trips walk on the same interval, and
// every other slot on the next bus (by id, wrapping) among the buses on active trips. No priorities, no
// parked buses, no bus list, routes or stops: all the rest of the budget goes to on-trip locations. It hears a
// viewer's watch as Fleetmap does: the watched bus may take every other slot, once its fix is WATCH_REFRESH_MS
// old (Fleetmap's own refresh of a watched bus).
import { PeerUpstream, type PeerCounts, type TripsPage } from './support/peer-upstream';

const PER_PAGE = 100;
const WATCH_REFRESH_MS = 5_000;

export interface RoundRobinOptions {
  baseUrl: string;
  apiKey: string;
  limitPerMinute: number;
  /** Share of the limit the poller spends (Fleetmap's FEED_BUDGET_SHARE, default 0.8). */
  share: number;
  tripsIntervalMs: number;
  maxInFlight?: number;
}

export interface Fix {
  lat: number | null;
  lon: number | null;
  /** When this poller received it, epoch ms. */
  fetchedAt: number;
}

export type RoundRobinCounts = PeerCounts;

/** What the next location slot is for: the watched bus when it is due and did not have the last slot, else the rotation. */
export function nextLocation(
  sortedIds: readonly number[],
  cursor: number | null,
  watch: { busId: number; fetchedAt: number | null; lastSlotWasWatch: boolean } | null,
  now: number,
): { busId: number; watched: boolean } | null {
  if (watch && !watch.lastSlotWasWatch && (watch.fetchedAt === null || now - watch.fetchedAt >= WATCH_REFRESH_MS)) return { busId: watch.busId, watched: true };
  const busId = nextInRotation(sortedIds, cursor);
  return busId === null ? null : { busId, watched: false };
}

/** The bus after `cursor` in ascending id order, wrapping around; null when there is none. */
export function nextInRotation(sortedIds: readonly number[], cursor: number | null): number | null {
  if (sortedIds.length === 0) return null;
  if (cursor === null) return sortedIds[0]!;
  for (const id of sortedIds) if (id > cursor) return id;
  return sortedIds[0]!;
}

export class RoundRobinPoller {
  readonly fixes = new Map<number, Fix>();
  private onTrip: number[] = [];
  private cursor: number | null = null;
  private readonly upstream: PeerUpstream;
  private readonly slotMs: number;
  private lastSlotAt = Number.NEGATIVE_INFINITY;
  private watched: number | null = null;
  private lastSlotWasWatch = false;
  private nextTripsAt = 0;
  private readonly inflight = new Set<Promise<void>>();
  private stopped = false;
  private loopDone: Promise<void> | null = null;

  constructor(private readonly opts: RoundRobinOptions) {
    this.upstream = new PeerUpstream(opts.baseUrl, opts.apiKey);
    this.slotMs = 60_000 / Math.max(1, Math.floor(opts.share * opts.limitPerMinute));
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
  }

  /** Buses on active trips as of the last walk. */
  busesOnTrip(): readonly number[] {
    return this.onTrip;
  }

  takeCounts(): RoundRobinCounts {
    return this.upstream.takeCounts();
  }

  /** A viewer follows this bus (null: nobody any more). */
  watch(busId: number | null): void {
    this.watched = busId;
  }

  private async slot(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const now = Date.now();
      const at = Math.max(this.lastSlotAt + this.slotMs, this.upstream.pausedUntil);
      if (at <= now) {
        this.lastSlotAt = now;
        return true;
      }
      await new Promise((r) => setTimeout(r, Math.min(at - now, 1000)));
    }
  }

  private async loop(): Promise<void> {
    const maxInFlight = this.opts.maxInFlight ?? 4;
    while (!this.stopped) {
      if (this.inflight.size >= maxInFlight) {
        await Promise.race(this.inflight);
        continue;
      }
      if (!(await this.slot())) break;
      if (Date.now() >= this.nextTripsAt) {
        this.nextTripsAt = Date.now() + this.opts.tripsIntervalMs;
        this.lastSlotWasWatch = false;
        await this.walkTrips();
        continue;
      }
      const w = this.watched;
      const next = nextLocation(this.onTrip, this.cursor, w === null ? null : { busId: w, fetchedAt: this.fixes.get(w)?.fetchedAt ?? null, lastSlotWasWatch: this.lastSlotWasWatch }, Date.now());
      if (next === null) continue;
      this.lastSlotWasWatch = next.watched;
      if (!next.watched) this.cursor = next.busId;
      const p: Promise<void> = this.locate(next.busId).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  /** One slot per page, like Fleetmap's walk; a failed page keeps the previous list. */
  private async walkTrips(): Promise<void> {
    const ids = new Set<number>();
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      if (page > 1 && !(await this.slot())) return;
      const body = await this.upstream.get<TripsPage>('activeTrips', `/trips/active?per_page=${PER_PAGE}&page=${page}`);
      if (!body) return;
      pages = body.data.pagination.total_pages;
      for (const t of body.data.items) if (t.bus_id !== null) ids.add(t.bus_id);
    }
    this.onTrip = [...ids].sort((a, b) => a - b);
  }

  private async locate(busId: number): Promise<void> {
    const fix = await this.upstream.location(busId);
    if (fix) this.fixes.set(busId, fix);
  }
}
