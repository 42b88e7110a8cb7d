// The round-robin peer of benchmark 2: the same pacing as Fleetmap's poller (share·L requests a minute,
// evenly spaced, never in bursts, at most four in flight), the active-trips walk on the same interval, and
// every other slot on the next bus (by id, wrapping) among the buses on active trips. No priorities, no
// parked buses, no bus list, routes or stops: all the rest of the budget goes to on-trip locations.

const PER_PAGE = 100;

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

export interface RoundRobinCounts {
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
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
  private counts: RoundRobinCounts = { byOperation: {}, byStatus: {} };
  private readonly slotMs: number;
  private lastSlotAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private nextTripsAt = 0;
  private readonly inflight = new Set<Promise<void>>();
  private stopped = false;
  private loopDone: Promise<void> | null = null;

  constructor(private readonly opts: RoundRobinOptions) {
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
    const c = this.counts;
    this.counts = { byOperation: {}, byStatus: {} };
    return c;
  }

  private async slot(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const now = Date.now();
      const at = Math.max(this.lastSlotAt + this.slotMs, this.pausedUntil);
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
        await this.walkTrips();
        continue;
      }
      const busId = nextInRotation(this.onTrip, this.cursor);
      if (busId === null) continue;
      this.cursor = busId;
      const p: Promise<void> = this.locate(busId).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  private async get<T>(op: string, path: string): Promise<T | null> {
    this.counts.byOperation[op] = (this.counts.byOperation[op] ?? 0) + 1;
    try {
      const res = await fetch(`${this.opts.baseUrl}${path}`, { headers: { Authorization: `Bearer ${this.opts.apiKey}`, Accept: 'application/json' } });
      this.counts.byStatus[res.status] = (this.counts.byStatus[res.status] ?? 0) + 1;
      if (res.status === 429) this.pausedUntil = Date.now() + Number(res.headers.get('retry-after') ?? 60) * 1000;
      if (!res.ok) {
        await res.arrayBuffer();
        return null;
      }
      return (await res.json()) as T;
    } catch {
      this.counts.byStatus.error = (this.counts.byStatus.error ?? 0) + 1;
      return null;
    }
  }

  /** One slot per page, like Fleetmap's walk; a failed page keeps the previous list. */
  private async walkTrips(): Promise<void> {
    const ids = new Set<number>();
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      if (page > 1 && !(await this.slot())) return;
      const body = await this.get<{ data: { items: { bus_id: number | null }[]; pagination: { total_pages: number } } }>(
        'activeTrips',
        `/trips/active?per_page=${PER_PAGE}&page=${page}`,
      );
      if (!body) return;
      pages = body.data.pagination.total_pages;
      for (const t of body.data.items) if (t.bus_id !== null) ids.add(t.bus_id);
    }
    this.onTrip = [...ids].sort((a, b) => a - b);
  }

  private async locate(busId: number): Promise<void> {
    const body = await this.get<{ data: { last_latitude: number | string | null; last_longitude: number | string | null } }>('busLocation', `/buses/${busId}/location`);
    if (!body) return;
    const lat = body.data.last_latitude === null ? null : Number(body.data.last_latitude);
    const lon = body.data.last_longitude === null ? null : Number(body.data.last_longitude);
    const placed = lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon);
    this.fixes.set(busId, { lat: placed ? lat : null, lon: placed ? lon : null, fetchedAt: Date.now() });
  }
}
