// What the hand-written peers (round robin, the shared cache) share: GET against the simulator with their own
// key, counted by operation and status, a 429 holding the peer until Retry-After, and a location's position read
// from the wire (decimals may come as strings, as the spec warns).

export interface PeerCounts {
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
}

export class PeerUpstream {
  /** No request before this (epoch ms): set by a 429's Retry-After. */
  pausedUntil = 0;
  private counts: PeerCounts = { byOperation: {}, byStatus: {} };

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  takeCounts(): PeerCounts {
    const c = this.counts;
    this.counts = { byOperation: {}, byStatus: {} };
    return c;
  }

  /** The answer's JSON, or null on any failure (counted). */
  async get<T>(op: string, path: string): Promise<T | null> {
    this.counts.byOperation[op] = (this.counts.byOperation[op] ?? 0) + 1;
    try {
      const res = await fetch(`${this.baseUrl}${path}`, { headers: { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json' } });
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

  /** One bus's position as the peer holds it, stamped with when it arrived. */
  async location(busId: number): Promise<{ lat: number | null; lon: number | null; fetchedAt: number } | null> {
    const body = await this.get<{ data: { last_latitude: number | string | null; last_longitude: number | string | null } }>('busLocation', `/buses/${busId}/location`);
    if (!body) return null;
    const lat = body.data.last_latitude === null ? null : Number(body.data.last_latitude);
    const lon = body.data.last_longitude === null ? null : Number(body.data.last_longitude);
    const placed = lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon);
    return { lat: placed ? lat : null, lon: placed ? lon : null, fetchedAt: Date.now() };
  }
}

export interface TripsPage {
  data: { items: { bus_id: number | null }[]; pagination: { total_pages: number } };
}
