import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet/events';
import { StoreQueryTiming } from '@/lib/history/query-timing';
import type { Health, LiveSnapshot, RecorderStatus, UpstreamError } from '@/lib/model';
import type { StatusSources } from '@/lib/model';
import { parseScrape, samplesOf, valueOf } from '@/lib/testing/prometheus';
import { makeHealth, makeSnapshot, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { metricsRefusal } from './endpoint';
import { exceptionMetrics } from './exceptions';
import { busStates } from './fleet';
import { routeTemplate } from './serving';
import { startMetrics, type Metrics } from './index';

class FakeFeed {
  readonly events = new TypedEmitter<FeedEvents>();
  snapshot: LiveSnapshot = makeSnapshot();
  healthNow: Health = makeHealth();
  liveSnapshot() {
    return { snapshot: this.snapshot, body: '' };
  }
  health() {
    return this.healthNow;
  }
}

const error = (over: Partial<UpstreamError>): UpstreamError => ({ at: T0, status: null, kind: 'http', message: 'x', correlationId: 'c-1', ...over });

let metrics: Metrics | null = null;
function start(feed: FakeFeed, now = () => T0, status: StatusSources = {}, storeTiming = new StoreQueryTiming()): Metrics {
  metrics = startMetrics(feed as never, { token: null, staleAfterS: 120, now, status, storeTiming });
  return metrics;
}

afterEach(() => {
  metrics?.stop();
  metrics = null;
});

describe('the upstream metrics', () => {
  it('count every request event by operation and outcome, time it, and count 429s', async () => {
    const feed = new FakeFeed();
    const m = start(feed);
    const emit = (e: Partial<FeedEvents['request']>) => feed.events.emit('request', { at: T0, kind: 'busLocation', lane: 'poll', status: 200, ok: true, durationMs: 120, ...e });
    emit({});
    emit({});
    emit({ kind: 'activeTrips', status: 429, ok: false, error: error({ status: 429 }), durationMs: 40 });
    emit({ status: null, ok: false, error: error({ kind: 'timeout' }), durationMs: 10_000 });
    emit({ status: 200, ok: false, error: error({ status: 200, kind: 'contract' }), durationMs: undefined });
    const s = parseScrape(await m.scrape());
    expect(valueOf(s, 'fleetmap_upstream_requests_total', { operation: 'busLocation', status: '200' })).toBe(2);
    expect(valueOf(s, 'fleetmap_upstream_requests_total', { operation: 'activeTrips', status: '429' })).toBe(1);
    expect(valueOf(s, 'fleetmap_upstream_requests_total', { operation: 'busLocation', status: 'timeout' })).toBe(1);
    expect(valueOf(s, 'fleetmap_upstream_requests_total', { operation: 'busLocation', status: 'contract' })).toBe(1);
    expect(valueOf(s, 'fleetmap_upstream_requests_total')).toBe(5);
    expect(valueOf(s, 'fleetmap_upstream_rate_limited_total')).toBe(1);
    const [busLocation] = samplesOf(s, 'fleetmap_upstream_request_duration_seconds', { operation: 'busLocation' });
    // The contract break came without a duration (as a replay's events do): three timed.
    expect(busLocation!.count).toBe(3);
    expect(busLocation!.sum).toBeCloseTo(10.24, 9);
    expect(busLocation!.buckets!['0.25']).toBe(2);
  });

  it('say the budget used and mark the current state 1 and every other 0', async () => {
    const feed = new FakeFeed();
    feed.healthNow = makeHealth({ state: 'rate-limited', budget: { ...makeHealth().budget, limit: 300, usedLastMinute: 150 } });
    const s = parseScrape(await start(feed).scrape());
    expect(valueOf(s, 'fleetmap_upstream_budget_used_ratio')).toBe(0.5);
    expect(samplesOf(s, 'fleetmap_upstream_state').map((x) => [x.labels.state, x.value])).toEqual([
      ['starting', 0],
      ['ok', 0],
      ['degraded', 0],
      ['rate-limited', 1],
      ['unauthorized', 0],
      ['forbidden', 0],
      ['unreachable', 0],
    ]);
  });
});

describe('freshness', () => {
  const fleet = () =>
    makeSnapshot({
      vehicles: [
        makeVehicle({ busId: 1, gpsAt: T0 - 10_000 }),
        makeVehicle({ busId: 2, gpsAt: T0 - 200_000 }),
        makeVehicle({ busId: 3, lat: null, lon: null, gpsAt: null, trip: null }),
        makeVehicle({ busId: 4, gpsAt: T0 - 40_000, trip: null }),
      ],
    });

  it('splits the buses into located, stale and no fix, and counts those on a trip', () => {
    expect(busStates(fleet(), T0, 120)).toEqual({ on_trip: 2, located: 2, stale: 1, no_fix: 1 });
  });

  it("observes each located bus on a trip's age once per snapshot version, and names no bus", async () => {
    const feed = new FakeFeed();
    feed.snapshot = fleet();
    const m = start(feed);
    await m.scrape();
    const s = parseScrape(await m.scrape());
    const [ages] = samplesOf(s, 'fleetmap_location_age_seconds');
    expect(ages).toMatchObject({ count: 2, sum: 210 });
    expect(ages!.buckets!['10']).toBe(1);
    expect(valueOf(s, 'fleetmap_buses', { state: 'stale' })).toBe(1);
    feed.snapshot = { ...fleet(), version: 2 };
    const again = parseScrape(await m.scrape());
    expect(samplesOf(again, 'fleetmap_location_age_seconds')[0]).toMatchObject({ count: 4 });
    for (const family of again.values()) for (const sample of family.samples) expect(Object.keys(sample.labels)).not.toContain('busId');
  });
});

describe('serving', () => {
  it('names a request by its route template, never its raw path', () => {
    expect(routeTemplate('/api/trips/12345')).toBe('/api/trips/[id]');
    expect(routeTemplate('/api/live')).toBe('/api/live');
    expect(routeTemplate('/wall')).toBe('/wall');
    expect(routeTemplate('/_next/static/chunks/abc123.js')).toBe('/_next/*');
    expect(routeTemplate('/basemap/streets.geojson')).toBe('/public/*');
    expect(routeTemplate('/metrics')).toBe('/metrics');
    expect(routeTemplate('/wp-admin/../etc/passwd')).toBe('unmatched');
    expect(routeTemplate('/api/trips/1/2/3')).toBe('unmatched');
  });

  function exchange(m: Metrics, method: string, url: string, status: number, headers: Record<string, string> = {}) {
    const req = { method, url, headers: { 'x-fleetmap-client-address': '10.0.0.1', ...headers } } as unknown as IncomingMessage;
    const res = Object.assign(new EventEmitter(), { statusCode: status }) as unknown as ServerResponse;
    m.requests.request(req, res);
    res.emit('finish');
    return req;
  }

  it('times every request by method, route and status, and counts /api/live answers and its viewers', async () => {
    let now = T0;
    const m = start(new FakeFeed(), () => now);
    exchange(m, 'GET', '/api/trips/7?x=1', 404);
    exchange(m, 'GET', '/api/trips/8', 404);
    exchange(m, 'TRACE', '/', 405);
    m.requests.liveAnswer({ status: 200, kind: 'full' }, exchange(m, 'GET', '/api/live', 200));
    m.requests.liveAnswer({ status: 200, kind: 'delta' }, exchange(m, 'GET', '/api/live?since=e-1', 200, { 'x-fleetmap-client-address': '10.0.0.2' }));
    m.requests.liveAnswer({ status: 200, kind: 'roster' }, exchange(m, 'GET', '/api/live?shape=roster&roster=r1', 200));
    m.requests.liveAnswer({ status: 304 }, exchange(m, 'GET', '/api/live', 304));
    m.requests.liveAnswer({ status: 400 }, exchange(m, 'GET', '/api/live?since=x', 400, { 'x-fleetmap-client-address': '10.0.0.3' }));
    let s = parseScrape(await m.scrape());
    expect(samplesOf(s, 'http_server_request_duration_seconds', { route: '/api/trips/[id]' })).toMatchObject([{ labels: { method: 'GET', status: '404' }, count: 2 }]);
    expect(samplesOf(s, 'http_server_request_duration_seconds', { route: '/' })[0]!.labels.method).toBe('other');
    expect(valueOf(s, 'fleetmap_live_answers_total', { kind: 'full' })).toBe(1);
    expect(valueOf(s, 'fleetmap_live_answers_total', { kind: 'delta' })).toBe(1);
    expect(valueOf(s, 'fleetmap_live_answers_total', { kind: 'roster' })).toBe(1);
    expect(valueOf(s, 'fleetmap_live_answers_total', { kind: '304' })).toBe(1);
    expect(valueOf(s, 'fleetmap_viewers')).toBe(2);
    now += 61_000;
    s = parseScrape(await m.scrape());
    expect(valueOf(s, 'fleetmap_viewers')).toBe(0);
  });
});

describe('the store and the cluster', () => {
  const recorder = (over: Partial<RecorderStatus> = {}): RecorderStatus => ({ state: 'recording', store: 'PGlite', lagMs: 1500, pending: 0, droppedRows: 0, lastWriteAt: null, message: null, ...over });

  it("read the recorder's lag and dropped rows, time store queries, and tell leader and epoch", async () => {
    let status = recorder({ droppedRows: 4 });
    const timing = new StoreQueryTiming();
    const m = start(new FakeFeed(), () => T0, { recorder: () => status, instance: () => ({ role: 'follower', epoch: 7, instanceId: 'a', leaderId: 'b' }) }, timing);
    await timing.time('fleet_at', async () => 1)();
    let s = parseScrape(await m.scrape());
    expect(valueOf(s, 'fleetmap_recorder_lag_seconds')).toBe(1.5);
    expect(valueOf(s, 'fleetmap_recorder_dropped_rows_total')).toBe(4);
    expect(samplesOf(s, 'fleetmap_store_query_duration_seconds', { query: 'fleet_at' })[0]!.count).toBe(1);
    expect(valueOf(s, 'fleetmap_cluster_leader')).toBe(0);
    expect(valueOf(s, 'fleetmap_cluster_epoch')).toBe(7);
    status = recorder({ droppedRows: 10, lagMs: null });
    s = parseScrape(await m.scrape());
    expect(valueOf(s, 'fleetmap_recorder_dropped_rows_total')).toBe(10);
    expect(valueOf(s, 'fleetmap_recorder_lag_seconds')).toBeNaN();
  });

  it('say a single instance leads, with no epoch', async () => {
    const s = parseScrape(await start(new FakeFeed()).scrape());
    expect(valueOf(s, 'fleetmap_cluster_leader')).toBe(1);
    expect(valueOf(s, 'fleetmap_cluster_epoch')).toBeNaN();
  });
});

describe('the process', () => {
  it("has prom-client's default metrics, event-loop lag and heap among them", async () => {
    const s = parseScrape(await start(new FakeFeed()).scrape());
    for (const name of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) expect(s.has(name), name).toBe(true);
  });
});

describe('access to /metrics', () => {
  const req = (over: Partial<Parameters<typeof metricsRefusal>[0]> = {}) => ({ method: 'GET', headers: {}, remoteAddress: '127.0.0.1', ...over });

  it('without METRICS_TOKEN: this machine only, never through a proxy', () => {
    expect(metricsRefusal(req(), null)).toBeNull();
    expect(metricsRefusal(req({ remoteAddress: '::ffff:127.0.0.1' }), null)).toBeNull();
    expect(metricsRefusal(req({ remoteAddress: '::1' }), null)).toBeNull();
    expect(metricsRefusal(req({ remoteAddress: '10.1.2.3' }), null)?.status).toBe(403);
    expect(metricsRefusal(req({ headers: { 'x-forwarded-for': '203.0.113.9' } }), null)?.status).toBe(403);
    expect(metricsRefusal(req({ method: 'POST' }), null)?.status).toBe(405);
  });

  it('with METRICS_TOKEN: the bearer token from anywhere, nothing else (a session cookie least of all)', () => {
    const token = 'scrape-token-0123456789';
    expect(metricsRefusal(req({ remoteAddress: '10.1.2.3', headers: { authorization: `Bearer ${token}` } }), token)).toBeNull();
    expect(metricsRefusal(req({ headers: { authorization: `Bearer ${token}x` } }), token)?.status).toBe(401);
    expect(metricsRefusal(req({ headers: { cookie: 'fleetmap_session=abc' } }), token)?.status).toBe(401);
    expect(metricsRefusal(req(), token)?.headers['WWW-Authenticate']).toBe('Bearer realm="metrics"');
  });
});

describe('the exceptions service', () => {
  it('gives open exceptions by rule and webhook delivery attempts by result', async () => {
    const registry = new Registry();
    let tell: (result: 'delivered' | 'failed' | 'dead') => void = () => {};
    exceptionMetrics(registry, { openByRule: () => ({ late: 3, 'off-route': 1 }), onDelivery: (listener) => ((tell = listener), () => {}) });
    tell('delivered');
    tell('dead');
    const s = parseScrape(await registry.metrics());
    expect(valueOf(s, 'fleetmap_exceptions_open', { rule: 'late' })).toBe(3);
    expect(valueOf(s, 'fleetmap_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(valueOf(s, 'fleetmap_webhook_deliveries_total', { result: 'dead' })).toBe(1);
    expect(valueOf(s, 'fleetmap_webhook_deliveries_total', { result: 'failed' })).toBe(0);
  });
});
