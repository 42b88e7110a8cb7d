// The peer a competent engineer writes in an afternoon: ONE poll loop for the whole server, its result kept in a
// cache that every viewer's GET /api/live reads (so viewers cost the upstream nothing), refreshed once per TTL.
// Each refresh walks /trips/active, then asks the location of every bus on a trip, ten at a time (a typical
// connection pool). The TTL is chosen to fit the key's limit: a refresh costs the trip pages plus one request per
// bus on a trip, so it is stretched until a minute of refreshes fits within the same share of the limit that
// Fleetmap's poller uses. A 429 ends the refresh early (what was fetched is kept) and holds the loop until
// Retry-After. No priorities, no pacing within a refresh, no parked buses, no watch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PeerUpstream, type PeerCounts, type TripsPage } from './support/peer-upstream';

const PER_PAGE = 100;
const LOCATION_CONCURRENCY = 10;
/** The shortest refresh period it would pick: what "live" means to most. */
const MIN_TTL_MS = 15_000;

export interface SharedCacheOptions {
  baseUrl: string;
  apiKey: string;
  limitPerMinute: number;
  /** Share of the limit a minute of refreshes may spend (Fleetmap's FEED_BUDGET_SHARE). */
  share: number;
}

export interface CachedFix {
  lat: number | null;
  lon: number | null;
  fetchedAt: number;
}

export interface SharedCacheCounts extends PeerCounts {
  refreshes: number;
  polls: number;
}

export class SharedCachePeer {
  readonly fixes = new Map<number, CachedFix>();
  /** The refresh period in use: stretched to the fleet after each walk. */
  ttlMs = MIN_TTL_MS;
  private readonly upstream: PeerUpstream;
  private refreshes = 0;
  private polls = 0;
  private stopped = false;
  private loopDone: Promise<void> | null = null;
  private server: Server | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly opts: SharedCacheOptions) {
    this.upstream = new PeerUpstream(opts.baseUrl, opts.apiKey);
  }

  /** Starts the loop and the viewers' endpoint; resolves to its base URL. */
  async start(): Promise<string> {
    this.loopDone ??= this.loop();
    const server = (this.server = createServer((req, res) => {
      if (req.method !== 'GET' || !req.url?.startsWith('/api/live')) {
        res.writeHead(404).end();
        return;
      }
      this.polls++;
      const vehicles = [...this.fixes].map(([busId, f]) => ({ busId, lat: f.lat, lon: f.lon, fetchedAt: f.fetchedAt }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ generatedAt: Date.now(), vehicles }));
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loopDone;
    const server = this.server;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }

  takeCounts(): SharedCacheCounts {
    const c = { ...this.upstream.takeCounts(), refreshes: this.refreshes, polls: this.polls };
    this.refreshes = 0;
    this.polls = 0;
    return c;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const started = Date.now();
      if (started >= this.upstream.pausedUntil) await this.refresh();
      const next = Math.max(started + this.ttlMs, this.upstream.pausedUntil);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(0, next - Date.now()));
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  private async refresh(): Promise<void> {
    this.refreshes++;
    const ids = new Set<number>();
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      const body = await this.upstream.get<TripsPage>('activeTrips', `/trips/active?per_page=${PER_PAGE}&page=${page}`);
      if (!body) return;
      pages = body.data.pagination.total_pages;
      for (const t of body.data.items) if (t.bus_id !== null) ids.add(t.bus_id);
    }
    // A minute of refreshes within share·L: (pages + buses) requests per refresh.
    const perRefresh = pages + ids.size;
    this.ttlMs = Math.max(MIN_TTL_MS, Math.ceil((perRefresh / (this.opts.share * this.opts.limitPerMinute)) * 60_000));
    const queue = [...ids];
    const worker = async () => {
      while (queue.length > 0 && !this.stopped && Date.now() >= this.upstream.pausedUntil) {
        const busId = queue.shift()!;
        const fix = await this.upstream.location(busId);
        if (fix) this.fixes.set(busId, fix);
      }
    };
    await Promise.all(Array.from({ length: LOCATION_CONCURRENCY }, worker));
  }
}
