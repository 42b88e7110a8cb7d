// The naive peer of benchmark 1: a pass-through proxy, as an app without a shared poller would be built.
// Every viewer's poll of GET /api/live becomes its own upstream walk: all pages of /trips/active, then the
// location of every bus on a trip (ten at a time, a typical connection pool). Nothing is cached or shared,
// a 429 fails that request and nothing more.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const PER_PAGE = 100;
const LOCATION_CONCURRENCY = 10;

export interface NaiveProxyCounts {
  upstreamRequests: number;
  upstreamByStatus: Record<string, number>;
  polls: number;
  failedPolls: number;
}

export interface NaiveProxy {
  url: string;
  counts(): NaiveProxyCounts;
  resetCounts(): void;
  close(): Promise<void>;
}

interface TripsPage {
  data: { items: { bus_id: number | null }[]; pagination: { total_pages: number } };
}

interface BusLocation {
  data: { id: number; last_latitude: number | string | null; last_longitude: number | string | null; last_gps_at: string | null };
}

export async function startNaiveProxy(upstreamBaseUrl: string, apiKey: string): Promise<NaiveProxy> {
  let counts: NaiveProxyCounts = { upstreamRequests: 0, upstreamByStatus: {}, polls: 0, failedPolls: 0 };

  const upstream = async <T>(path: string): Promise<{ status: number; body: T | null }> => {
    counts.upstreamRequests++;
    const res = await fetch(`${upstreamBaseUrl}${path}`, { headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' } });
    counts.upstreamByStatus[res.status] = (counts.upstreamByStatus[res.status] ?? 0) + 1;
    if (!res.ok) {
      await res.arrayBuffer();
      return { status: res.status, body: null };
    }
    return { status: res.status, body: (await res.json()) as T };
  };

  const live = async (): Promise<{ status: number; body: unknown }> => {
    const busIds = new Set<number>();
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      const r = await upstream<TripsPage>(`/trips/active?per_page=${PER_PAGE}&page=${page}`);
      if (!r.body) return { status: 502, body: { error: { status: 502, message: `upstream answered ${r.status}` } } };
      pages = r.body.data.pagination.total_pages;
      for (const t of r.body.data.items) if (t.bus_id !== null) busIds.add(t.bus_id);
    }
    const ids = [...busIds];
    const vehicles: BusLocation['data'][] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const r = await upstream<BusLocation>(`/buses/${id}/location`);
        if (r.body) vehicles.push(r.body.data);
      }
    };
    await Promise.all(Array.from({ length: LOCATION_CONCURRENCY }, worker));
    return { status: 200, body: { generatedAt: Date.now(), vehicles } };
  };

  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/api/live')) {
      res.writeHead(404).end();
      return;
    }
    counts.polls++;
    live()
      .catch((e: unknown) => ({ status: 502, body: { error: { status: 502, message: e instanceof Error ? e.message : 'upstream failed' } } }))
      .then(({ status, body }) => {
        if (status !== 200) counts.failedPolls++;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => structuredClone(counts),
    resetCounts: () => {
      counts = { upstreamRequests: 0, upstreamByStatus: {}, polls: 0, failedPolls: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
