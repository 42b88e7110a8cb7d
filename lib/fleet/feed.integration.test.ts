import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '@/lib/config';
import { liveVersionTag, type LiveSnapshot } from '@/lib/model';
import { createPartnerClient, offsetMinutesAt } from '@/lib/partner';
import { zoneAtLocalHour, createSimulator, DEMO_BUSINESS_KEY, DEMO_STANDARD_KEY, type Simulator, type StatsSnapshot } from '@/lib/sim';
import { liveResponse, type LiveSource } from '@/lib/http/live-answer';
import { adminView } from '@/lib/testing/feed';
import { GET as getStatus } from '@/app/api/status/route';
import { GET as getTrip } from '@/app/api/trips/[id]/route';
import { GET as getRoutes } from '@/app/api/routes/route';
import { GET as getRouteStops } from '@/app/api/routes/[id]/stops/route';
import { GET as getBuses } from '@/app/api/buses/route';
import { GET as getNetwork } from '@/app/api/network/route';
import { appContext } from '@/lib/server/context';
import { publishTestContext } from '@/lib/testing/app-context';
import { until } from '@/lib/testing/harness';
import type { RequestEvent } from './events';
import { Feed } from './feed';
import type { StoredSnapshot } from './snapshot-store';
import { startFeed } from './index';

/** The feed the routes below answer from: the application context's, as server start would publish it. */
let contextFeed: Feed;
const getLive = (request: Request) => liveResponse(contextFeed, request, { fullHealth: true });

// The real client and the feed against the simulator over HTTP. The simulator runs 10× faster than real
// time with a high limit so that minutes of polling fit in seconds, in a zone where it is midday now: the
// tests need trips on the road whatever the real hour (at 02:00 in New York few run).
const SIM_ZONE = zoneAtLocalHour(12);

const FEED: AppConfig = {
  feed: { budgetShare: 0.8, tripsIntervalMs: 5_000, busesIntervalMs: 30_000, routesIntervalMs: 60_000, parkedFloorMs: 60_000, watchTtlMs: 30_000 },
  delay: { lateMin: 5, earlyMin: 1 },
  staleAfterS: 120,
};

interface Running {
  sim: Simulator;
  origin: string;
  baseUrl: string;
}

const started: Simulator[] = [];

async function startSim(rateLimit = 3000): Promise<Running> {
  const sim = createSimulator({ seed: 7, buses: 120, speed: 10, rateLimit, admin: true, timezone: SIM_ZONE });
  started.push(sim);
  const { baseUrl } = await sim.listen(0, '127.0.0.1');
  return { sim, baseUrl, origin: new URL(baseUrl).origin };
}

async function admin<T>(run: Running, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${run.origin}/__admin/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as T;
}

/** `sends` receives the moment of every upstream request the feed sends. */
function feedFor(run: Running, apiKey: string, logs: string[] = [], sends: number[] = []) {
  const recordingFetch: typeof fetch = (input, init) => {
    sends.push(Date.now());
    return fetch(input, init);
  };
  const feed = new Feed({
    config: FEED,
    timezone: null,
    client: (timeRule) => createPartnerClient({ baseUrl: run.baseUrl, apiKey, timeRule, timeoutMs: 5_000, fetch: recordingFetch }),
    log: (line) => logs.push(JSON.stringify(line)),
  });
  feed.start();
  return feed;
}

// Deadlines only stop a hung test: each wait takes a few seconds on an idle machine, and two loaded cores may
// take several times that.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

describe("the app routes over the application context's feed (business key)", () => {
  let run: Running;
  let withdraw: () => Promise<void>;

  beforeAll(async () => {
    run = await startSim();
    process.env.PARTNER_API_BASE_URL = run.baseUrl;
    process.env.PARTNER_API_KEY = DEMO_BUSINESS_KEY;
    process.env.FEED_TRIPS_INTERVAL_S = '5';
    contextFeed = await startFeed();
    ({ withdraw } = publishTestContext(contextFeed));
  });

  afterAll(async () => {
    await withdraw();
    delete process.env.PARTNER_API_BASE_URL;
    delete process.env.PARTNER_API_KEY;
    delete process.env.FEED_TRIPS_INTERVAL_S;
  });

  it('shows positioned buses with trips soon after start, with ETag/304, inferred timezone and measured freshness', async () => {
    const t0 = Date.now();
    const live = async () => adminView((await (await getLive(new Request('http://app/api/live'))).json()) as LiveSnapshot);
    const first = await until('positioned buses on trips', live, (s) => s.vehicles.filter((v) => v.lat !== null && v.trip !== null).length >= 5);
    const firstAfterMs = Date.now() - t0;
    expect(first.health.capabilities.locations).toBe(true);
    // The routes answer from the one feed server start published, never from a feed of their own.
    expect(appContext()?.feed).toBe(contextFeed);

    const res = await getLive(new Request('http://app/api/live'));
    const etag = res.headers.get('etag')!;
    // An administrator's answer (getLive asks as one): the version tag, and `.a` for the full health it carries.
    expect(etag).toMatch(/^W\/"[0-9a-z]+-\d+\.a"$/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    // The answer to a conditional request is the one its ETag implies: 304 with no body while the snapshot the
    // server holds is still that version, 200 in full once a newer one replaced it.
    let current: StoredSnapshot | null = null;
    const source: LiveSource = {
      liveSnapshot: () => (current = contextFeed.liveSnapshot()),
      liveChangesSince: (epoch, version) => contextFeed.liveChangesSince(epoch, version),
      watch: (busId, client) => contextFeed.watch(busId, client),
    };
    const again = liveResponse(source, new Request('http://app/api/live', { headers: { 'if-none-match': etag } }));
    const heldVersion = `W/"${liveVersionTag(current!.snapshot.epoch, current!.snapshot.version)}"`;
    expect(again.status).toBe(heldVersion === etag ? 304 : 200);
    if (heldVersion === etag) expect(await again.text()).toBe('');
    else expect(again.headers.get('etag')).toBe(heldVersion);
    // A later snapshot (new fixes arrive several times a second) has a new version and comes in full.
    const later = await until(
      'a newer snapshot',
      () => getLive(new Request('http://app/api/live', { headers: { 'if-none-match': etag } })),
      (r) => r.status !== 304,
    );
    expect(later.status).toBe(200);
    expect(later.headers.get('etag')).not.toBe(etag);

    // The figures are read once the feed has measured ages on the buses on trips and a second look has confirmed
    // the inferred zone (seconds later, longer under load).
    const s = await until(
      'ages measured and the zone inferred and confirmed',
      live,
      (x) => x.health.freshness.trackedBuses > 0 && x.health.freshness.meanAgeS !== null && x.health.freshness.p95AgeS !== null && x.health.timezone.source === 'inferred',
    );
    const tz = s.health.timezone;
    expect(tz.offsetMinutes).toBe(offsetMinutesAt({ kind: 'zone', zone: SIM_ZONE }, Date.now()));
    const f = s.health.freshness;
    expect(f.trackedBuses).toBeGreaterThan(0);
    expect(f.meanAgeS).not.toBeNull();
    console.info(
      `simulator: ${s.vehicles.length} buses, ${f.trackedBuses} on trips, first positioned trips after ${firstAfterMs} ms; ` +
        `mean age ${f.meanAgeS!.toFixed(2)} s, p95 ${f.p95AgeS!.toFixed(2)} s, bound ${f.boundS!.toFixed(2)} s, ratio ${(f.meanAgeS! / f.boundS!).toFixed(2)}; ` +
        `budget ${s.health.budget.usedLastMinute}/${s.health.budget.limit} in the last minute ${JSON.stringify(s.health.budget.byKind)}`,
    );
    // How close the mean age comes to the bound is a benchmark's figure (npm run bench), not a test's: on a
    // loaded machine the first seconds say little. Here the figures must only be consistent.
    expect(f.boundS!).toBeGreaterThan(0);
    expect(f.p95AgeS!).toBeGreaterThanOrEqual(0);
    expect(s.health.budget.usedLastMinute).toBeLessThanOrEqual(s.health.budget.limit!);

    const status = await getStatus();
    expect(((await status.json()) as { state: string }).state).toMatch(/^(ok|degraded)$/);
  });

  it('answers bad ids with 400 and no upstream request, and serves trips, routes, stops, buses and the network', async () => {
    // The feed itself is never asked (so nothing goes upstream): counted on the feed, because the poller's own
    // route-stop walks run meanwhile and move the simulator's counts.
    const asked = [vi.spyOn(Feed.prototype, 'trip'), vi.spyOn(Feed.prototype, 'routeStops'), vi.spyOn(Feed.prototype, 'watch')];
    const before = await admin<StatsSnapshot>(run, 'stats');
    for (const bad of ['0', 'abc', '-1', '1.5', '01', '1e3', '9007199254740992', '12345678901234567', ' 1', '']) {
      const r = await getTrip(new Request(`http://app/api/trips/${bad}`), { params: Promise.resolve({ id: bad }) });
      expect(r.status).toBe(400);
      const body = (await r.json()) as { error: { status: number; message: string } };
      expect(body.error.status).toBe(400);
      expect(body.error.message).toMatch(/Trip id/);
      expect((await getRouteStops(new Request('http://app/x'), { params: Promise.resolve({ id: bad }) })).status).toBe(400);
    }
    expect((await getLive(new Request('http://app/api/live?watch=abc'))).status).toBe(400);
    expect((await getLive(new Request('http://app/api/live?watch=0'))).status).toBe(400);
    const after = await admin<StatsSnapshot>(run, 'stats');
    for (const spy of asked) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
    // Trips by id are only asked on demand here (no recorder listens, so no final-trip lookups).
    expect(after.byOperation.trip ?? 0).toBe(before.byOperation.trip ?? 0);

    const snapshot = (await (await getLive(new Request('http://app/api/live'))).json()) as LiveSnapshot;
    const tripId = snapshot.vehicles.find((v) => v.trip)!.trip!.tripId;
    const trip = await getTrip(new Request('http://app/x'), { params: Promise.resolve({ id: String(tripId) }) });
    expect(trip.status).toBe(200);
    expect(((await trip.json()) as { trip: { id: number } }).trip.id).toBe(tripId);
    const missing = await getTrip(new Request('http://app/x'), { params: Promise.resolve({ id: '2000000000' }) });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe('Trip 2000000000 was not found upstream.');

    // 100 viewers at once: the snapshot costs nothing upstream, one unknown trip costs one request.
    const beforeCrowd = await admin<StatsSnapshot>(run, 'stats');
    const crowd = await Promise.all([
      ...Array.from({ length: 100 }, () => getLive(new Request('http://app/api/live?watch=1'))),
      ...Array.from({ length: 100 }, () => getTrip(new Request('http://app/x'), { params: Promise.resolve({ id: '2000000001' }) })),
    ]);
    const afterCrowd = await admin<StatsSnapshot>(run, 'stats');
    expect(crowd.slice(0, 100).every((r) => r.status === 200)).toBe(true);
    expect(crowd.slice(100).every((r) => r.status === 404)).toBe(true);
    expect((afterCrowd.byOperation.trip ?? 0) - (beforeCrowd.byOperation.trip ?? 0)).toBe(1);

    const routes = (await (await getRoutes(new Request('http://app/api/routes'))).json()) as { routes: { id: number }[]; fetchedAt: number };
    expect(routes.routes.length).toBeGreaterThan(0);
    const stops = await getRouteStops(new Request('http://app/x'), { params: Promise.resolve({ id: String(routes.routes[0]!.id) }) });
    expect(stops.status).toBe(200);
    expect(((await stops.json()) as { stops: unknown[] }).stops.length).toBeGreaterThan(1);
    const buses = (await (await getBuses()).json()) as { buses: unknown[] };
    expect(buses.buses).toHaveLength(120);
    const network = (await (await getNetwork(new Request('http://app/api/network'))).json()) as { features: { geometry: { type: string } }[]; pendingRoutes: number };
    expect(network.features.some((f) => f.geometry.type === 'LineString')).toBe(true);
    expect(network.pendingRoutes).toBeLessThan(routes.routes.length);
  });
});

describe('the feed against the simulator with other keys and faults', () => {
  let feed: Feed | null = null;
  afterEach(async () => {
    await feed?.stop();
    feed = null;
  });

  it('with the standard key reports capabilities without locations and sends no location request', async () => {
    const run = await startSim();
    feed = feedFor(run, DEMO_STANDARD_KEY);
    const s = await until('trips listed', () => adminView(feed!.liveSnapshot()), (x) => x.unpositionedTrips.length > 0 && x.health.level !== null);
    // The feed goes on spending its poll lane: ten more answered requests, any of which could have been a location.
    const answered: RequestEvent[] = [];
    feed.events.on('request', (e) => answered.push(e));
    await until('ten more requests answered', () => answered.length, (n) => n >= 10);
    const stats = await admin<StatsSnapshot>(run, 'stats');
    expect(s.health.level).toBe('standard');
    expect(s.health.capabilities.locations).toBe(false);
    expect(s.health.capabilities.trips).toBe(true);
    expect(stats.byOperation.busLocation ?? 0).toBe(0);
    expect(stats.byStatus['403'] ?? 0).toBe(0);
    expect(s.vehicles.every((v) => v.lat === null)).toBe(true);
  });

  it('turns unauthorized when the key is revoked and keeps serving the last data with its age', async () => {
    const run = await startSim();
    const logs: string[] = [];
    feed = feedFor(run, DEMO_BUSINESS_KEY, logs);
    await until('positions', () => feed!.liveSnapshot().snapshot, (x) => x.vehicles.filter((v) => v.lat !== null).length >= 20);
    await admin(run, 'faults', { revokedKeys: [DEMO_BUSINESS_KEY] });
    const s = await until('unauthorized', () => adminView(feed!.liveSnapshot()), (x) => x.health.state === 'unauthorized');
    expect(s.vehicles.filter((v) => v.lat !== null).length).toBeGreaterThanOrEqual(20);
    expect(s.health.lastError?.status).toBe(401);
    expect(s.health.message).toMatch(/401/);
    // Nothing new arrives: the newest fix stays what it was and only gets older.
    const newestOf = (x: Pick<LiveSnapshot, 'vehicles'>) => Math.max(...x.vehicles.map((v) => v.fetchedAt ?? 0));
    const newest = newestOf(s);
    // The feed keeps asking (the key is re-checked every trips interval) and keeps being refused: two more 401s.
    const refused: RequestEvent[] = [];
    feed.events.on('request', (e) => e.status === 401 && refused.push(e));
    await until('two more refusals', () => refused.length, (n) => n >= 2);
    expect(newestOf(feed.liveSnapshot().snapshot)).toBe(newest);
    expect(Date.now() - newest).toBeGreaterThan(1_000);
    expect(logs.some((l) => l.includes('"status":401'))).toBe(true);
    expect(logs.join('\n')).not.toContain(DEMO_BUSINESS_KEY);
  });

  it('turns rate-limited in a 429 storm and sends nothing before Retry-After', async () => {
    const run = await startSim();
    const sends: number[] = [];
    feed = feedFor(run, DEMO_BUSINESS_KEY, [], sends);
    await until('positions', () => feed!.liveSnapshot().snapshot, (x) => x.vehicles.some((v) => v.lat !== null));
    await admin(run, 'faults', { storm429: { retryAfterS: 3 } });
    const health = await until('rate-limited', () => feed!.health(), (h) => h.state === 'rate-limited' && h.budget.pausedUntil !== null);
    // Counted where the requests leave the feed, not where the simulator receives them: requests already on the
    // wire when the first 429 came back may land late on a loaded machine, and are not sent during the pause.
    const pausedSeenAt = Date.now();
    const pausedUntil = health.budget.pausedUntil!;
    await sleep(Math.max(0, pausedUntil - Date.now()));
    expect(sends.filter((t) => t > pausedSeenAt && t < pausedUntil)).toEqual([]);
    await admin(run, 'faults', { storm429: null });
    await until('recovered', () => feed!.health(), (h) => h.state === 'ok' || h.state === 'degraded');
  });
});
