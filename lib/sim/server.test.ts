import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  busLocationSchema,
  busSchema,
  errorEnvelopeSchema,
  pagedData,
  routeSchema,
  routeStopsDataSchema,
  statusDataSchema,
  successEnvelope,
  tripSchema,
} from '@/lib/partner/schemas';
import { createSimulator, type Simulator } from './index';

// Contract tests over real HTTP on 127.0.0.1: every success body is checked with lib/partner's wire
// schemas, every error body with the error envelope schema. The sim clock runs on a fake real clock.

const BUSINESS = 'demo-business-key';
const STANDARD = 'demo-standard-key';
const NARROW = 'demo-narrow-key';
// Wednesday 4 March 2026, 08:00 in New York: morning rush.
const WEDNESDAY_8AM = Date.parse('2026-03-04T13:00:00Z');

interface Running {
  sim: Simulator;
  baseUrl: string;
  origin: string;
  clock: { now: number };
}

async function start(options: Parameters<typeof createSimulator>[0] = {}): Promise<Running> {
  const clock = { now: WEDNESDAY_8AM };
  const sim = createSimulator({ startAt: WEDNESDAY_8AM, now: () => clock.now, ...options });
  const { baseUrl } = await sim.listen(0);
  return { sim, baseUrl, origin: baseUrl.replace(/\/api\/v1\/partner$/, ''), clock };
}

async function call(r: Running, path: string, key: string | null = BUSINESS, init: RequestInit = {}) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(`${r.baseUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { res, status: res.status, text, body };
}

async function ok<T extends z.ZodType>(r: Running, path: string, dataSchema: T, key = BUSINESS): Promise<z.infer<T>> {
  const { status, body, text } = await call(r, path, key);
  expect(status, text).toBe(200);
  return (successEnvelope(dataSchema).parse(body) as { data: z.infer<T> }).data;
}

async function fails(r: Running, path: string, status: number, key: string | null = BUSINESS, init: RequestInit = {}) {
  const got = await call(r, path, key, init);
  expect(got.status, got.text).toBe(status);
  return { ...got, envelope: errorEnvelopeSchema.parse(got.body) };
}

const walk = async <T extends z.ZodType>(r: Running, path: string, item: T, perPage: number) => {
  const items: z.infer<T>[] = [];
  let total = -1;
  for (let page = 1; page < 1000; page++) {
    const data = await ok(r, `${path}?page=${page}&per_page=${perPage}`, pagedData(item));
    total = data.pagination.total;
    expect(data.pagination.total_pages).toBe(Math.ceil(total / perPage));
    items.push(...data.items);
    if (page >= data.pagination.total_pages) break;
  }
  return { items, total };
};

describe('simulator over HTTP', () => {
  let r: Running;
  beforeAll(async () => {
    r = await start({ admin: true });
  });
  afterAll(() => r.sim.close());
  afterEach(() => {
    r.sim.resetFaults();
  });

  it('answers every operation with a body that fits the contract', async () => {
    const status = await ok(r, '/status', statusDataSchema);
    expect(status).toEqual({ plan: 'API Business', level: 'business', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read', 'gps:read'], rate_limit_per_minute: 300 });
    const buses = await ok(r, '/buses', pagedData(busSchema));
    expect(buses.items).toHaveLength(25);
    expect(buses.pagination).toMatchObject({ page: 1, per_page: 25 });
    const routes = await ok(r, '/routes?per_page=100', pagedData(routeSchema));
    expect(routes.items.map((x) => x.code)).toContain('M15');
    const stops = await ok(r, '/routes/1/stops', routeStopsDataSchema);
    expect(stops.route).toMatchObject({ id: 1, code: 'M1' });
    expect(stops.items.map((s) => s.stop_order)).toEqual(stops.items.map((_, i) => i + 1));
    expect(stops.items.filter((s) => s.is_start)).toHaveLength(2);
    const active = await ok(r, '/trips/active?per_page=100', pagedData(tripSchema));
    expect(active.pagination.total).toBeGreaterThan(100);
    const trip = await ok(r, `/trips/${active.items[0]!.id}`, tripSchema);
    expect(trip.id).toBe(active.items[0]!.id);
    const located = await Promise.all(active.items.slice(0, 10).map((t) => ok(r, `/buses/${t.bus_id}/location`, busLocationSchema)));
    expect(located.map((l) => l.id)).toEqual(active.items.slice(0, 10).map((t) => t.bus_id));
    expect(located.filter((l) => l.last_latitude !== null && l.last_latitude > 40.6 && l.last_latitude < 40.95).length).toBeGreaterThan(5);
  });

  it('writes meta with the scope used and the rate limit', async () => {
    const { body } = await call(r, '/buses?per_page=1');
    const meta = (body as { meta: { scope: string; request_id: string; rate_limit: { limit: number; remaining: number; reset_at: number } } }).meta;
    expect(meta.scope).toBe('buses:read');
    expect(meta.request_id).toMatch(/\S+/);
    expect(meta.rate_limit.limit).toBe(300);
    expect(meta.rate_limit.remaining).toBeLessThan(300);
    // epoch seconds, within the next minute of the (fake) real clock
    expect(meta.rate_limit.reset_at).toBeGreaterThan(r.clock.now / 1000);
    expect(meta.rate_limit.reset_at).toBeLessThanOrEqual(Math.ceil((r.clock.now + 60_000) / 1000));
    const status = (await call(r, '/status')).body as { meta: { scope: unknown } };
    expect(status.meta.scope).toBeNull();
  });

  it('serves part of the decimals as strings and part of the flags as 0/1', async () => {
    const raw = (path: string) => call(r, path).then((x) => (x.body as { data: Record<string, unknown> }).data);
    expect(typeof (await raw('/buses/3/location')).last_latitude).toBe('string');
    expect(typeof (await raw('/buses/4/location')).last_latitude).toBe('number');
    const routes = (await raw('/routes?per_page=3')).items as Record<string, unknown>[];
    expect(routes.map((x) => typeof x.distance_estimate)).toEqual(['number', 'number', 'string']);
    const even = (await raw('/routes/2/stops')).items as Record<string, unknown>[];
    const odd = (await raw('/routes/1/stops')).items as Record<string, unknown>[];
    expect(even[0]).toMatchObject({ is_start: 1, is_end: 0 });
    expect(odd[0]).toMatchObject({ is_start: true, is_end: false });
  });

  it('walks every page of a list and returns each item exactly once', async () => {
    const buses = await walk(r, '/buses', busSchema, 100);
    expect(buses.items).toHaveLength(buses.total);
    expect(new Set(buses.items.map((b) => b.id)).size).toBe(buses.total);
    const routes = await walk(r, '/routes', routeSchema, 7);
    expect(routes.items.map((x) => x.id)).toEqual(Array.from({ length: routes.total }, (_, i) => i + 1));
    const trips = await walk(r, '/trips/active', tripSchema, 100);
    expect(new Set(trips.items.map((t) => t.id)).size).toBe(trips.total);
    const past = await ok(r, '/buses?page=999&per_page=100', pagedData(busSchema));
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(buses.total);
  });

  it('lists only running trips as active, each with its bus and route filled in', async () => {
    const { items } = await walk(r, '/trips/active', tripSchema, 100);
    for (const t of items) {
      expect(['started', 'delayed']).toContain(t.status);
      expect(t.actual_arrival_at).toBeNull();
      expect(t.route_code && t.route_name && t.plate_number && t.bus_name && t.trip_date).toBeTruthy();
      if (t.status === 'delayed') expect(t.delay_minutes).toBeGreaterThanOrEqual(5);
      else expect(t.delay_minutes).toBeLessThan(5);
    }
    expect(new Set(items.map((t) => t.direction))).toEqual(new Set(['outbound', 'inbound']));
    // Morning rush: plenty of trips late, and a route mix of local, limited and select service.
    expect(items.filter((t) => t.status === 'delayed').length).toBeGreaterThan(items.length * 0.1);
    expect(new Set(items.map((t) => t.service_kind))).toEqual(new Set(['local', 'limited', 'select']));
  });

  it('takes a trip from scheduled through started to completed as sim time passes', async () => {
    const w = r.sim.world;
    const s = w.schedule(w.serviceDayOf(r.sim.now()));
    const rel = (r.sim.now() - s.baseMs) / 1000;
    let k = 0;
    while (s.depS[k]! < rel + 600) k++;
    const id = w.tripId({ s, k });
    const before = await ok(r, `/trips/${id}`, tripSchema);
    expect(before).toMatchObject({ status: 'scheduled', actual_departure_at: null, actual_arrival_at: null });
    r.clock.now += (s.depS[k]! - rel + s.d0[k]! + 60) * 1000;
    const running = await ok(r, `/trips/${id}`, tripSchema);
    expect(['started', 'delayed']).toContain(running.status);
    expect(running.actual_departure_at).not.toBeNull();
    expect(running.actual_arrival_at).toBeNull();
    r.clock.now += (s.arrS[k]! - s.depS[k]! + 45 * 60) * 1000;
    const done = await ok(r, `/trips/${id}`, tripSchema);
    expect(done.status).toBe('completed');
    expect(done.actual_arrival_at! > done.actual_departure_at!).toBe(true);
    expect(done.delay_minutes).toBe(Math.round(s.dEnd[k]! / 60));
  });

  it('moves buses as sim time passes, and reports new fixes', async () => {
    const { items } = await ok(r, '/trips/active?per_page=20', pagedData(tripSchema));
    const ids = items.map((t) => t.bus_id!);
    const first = await Promise.all(ids.map((id) => ok(r, `/buses/${id}/location`, busLocationSchema)));
    r.clock.now += 120_000;
    const later = await Promise.all(ids.map((id) => ok(r, `/buses/${id}/location`, busLocationSchema)));
    const moved = later.filter((l, i) => l.last_latitude !== first[i]!.last_latitude || l.last_longitude !== first[i]!.last_longitude);
    expect(moved.length).toBeGreaterThan(ids.length / 2);
    expect(later.filter((l, i) => l.last_gps_at! > first[i]!.last_gps_at!).length).toBeGreaterThan(ids.length / 2);
  });

  it('answers errors with the error envelope and the right status', async () => {
    expect((await fails(r, '/buses', 401, null)).envelope.code).toBe('UNAUTHORIZED');
    expect((await fails(r, '/buses', 401, 'not-a-key')).envelope.error.retryable).toBe(false);
    for (const q of ['page=0', 'per_page=101', 'per_page=0', 'page=abc', 'page=1.5', 'page=-1']) {
      const e = await fails(r, `/buses?${q}`, 400);
      expect(e.envelope.code).toBe('VALIDATION_ERROR');
    }
    for (const p of ['/trips/abc', '/trips/0', '/buses/-3/location', '/routes/1.5/stops']) await fails(r, p, 400);
    expect((await fails(r, '/routes/999/stops', 404)).envelope.code).toBe('NOT_FOUND');
    await fails(r, '/buses/100000/location', 404);
    await fails(r, '/trips/123', 404);
    await fails(r, '/no-such-thing', 404);
    await fails(r, '/trips/active/extra', 404);
    const outside = await fetch(`${r.origin}/elsewhere`);
    expect(outside.status).toBe(404);
    const post = await fails(r, '/buses', 405, BUSINESS, { method: 'POST' });
    expect(post.res.headers.get('allow')).toBe('GET');
  });

  it('applies plan and scope rules to the three demo keys', async () => {
    const all = ['/status', '/buses', '/routes', '/routes/1/stops', '/trips/active', '/buses/1/location'];
    const statuses = async (key: string) => Promise.all(all.map(async (p) => (await call(r, p, key)).status));
    expect(await statuses(BUSINESS)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await statuses(STANDARD)).toEqual([200, 200, 200, 200, 200, 403]);
    expect(await statuses(NARROW)).toEqual([200, 403, 200, 200, 403, 403]);
    expect(await ok(r, '/status', statusDataSchema, STANDARD)).toMatchObject({ plan: 'API Standard', level: 'standard' });
    expect((await fails(r, '/buses/1/location', 403, STANDARD)).envelope.message).toMatch(/Business/);
    expect((await fails(r, '/buses', 403, NARROW)).envelope.message).toMatch(/buses:read/);
  });

  it('injects each admin fault, and removes them on reset', async () => {
    const admin = (path: string, body?: unknown) =>
      fetch(`${r.origin}/__admin${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }).then(async (x) => ({ status: x.status, body: await x.json() }));

    expect((await admin('/faults', { errorRate: 1 })).body.errorRate).toBe(1);
    const failed = await fails(r, '/routes', 500);
    expect([500, 503]).toContain(failed.status);
    await admin('/faults/reset', {});
    await admin('/faults', { errorRate: 1, errorStatuses: [503] });
    expect((await fails(r, '/routes', 503)).envelope.error.retryable).toBe(true);
    await admin('/faults/reset', {});

    await admin('/faults', { latencyMs: 300 });
    const t0 = performance.now();
    await ok(r, '/status', statusDataSchema);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    await admin('/faults/reset', {});

    await admin('/faults', { hangRate: 1 });
    await expect(fetch(`${r.baseUrl}/status`, { headers: { Authorization: `Bearer ${BUSINESS}` }, signal: AbortSignal.timeout(300) })).rejects.toThrow();
    await admin('/faults/reset', {});

    await admin('/faults', { malformedRate: 1 });
    const malformed = await call(r, '/routes');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toBeUndefined();
    await admin('/faults/reset', {});

    await admin('/faults', { contractBreakRate: 1 });
    expect(successEnvelope(busLocationSchema).safeParse((await call(r, '/buses/4/location')).body).success).toBe(false);
    expect(successEnvelope(pagedData(busSchema)).safeParse((await call(r, '/buses')).body).success).toBe(false);
    await admin('/faults/reset', {});

    await admin('/faults', { drift: true });
    const drifted: Record<string, unknown>[] = [];
    for (let page = 1; page <= 10; page++) drifted.push(...((await call(r, `/trips/active?per_page=100&page=${page}`)).body as { data: { items: Record<string, unknown>[] } }).data.items);
    expect(drifted.some((t) => t.status === 'en_route_v2')).toBe(true);
    expect(drifted.some((t) => t.status === 'started')).toBe(false);
    expect(drifted[0]).toHaveProperty('block_id');
    const loc = (await call(r, '/buses/4/location')).body as { data: Record<string, unknown> };
    expect(typeof loc.data.last_latitude).toBe('string');
    // Drift stays within what the spec allows: the schemas still accept it.
    expect(successEnvelope(busLocationSchema).safeParse(loc).success).toBe(true);
    await admin('/faults/reset', {});

    await admin('/faults', { revokedKeys: [BUSINESS], downgradedKeys: [STANDARD], removedScopes: { [NARROW]: ['routes:read'] } });
    await fails(r, '/status', 401, BUSINESS);
    expect(await ok(r, '/status', statusDataSchema, STANDARD)).toMatchObject({ level: 'standard' });
    await fails(r, '/routes', 403, NARROW);
    await ok(r, '/routes/1/stops', routeStopsDataSchema, NARROW);
    await admin('/faults/reset', {});

    await admin('/faults', { storm429: { retryAfterS: 17 } });
    const storm = await fails(r, '/status', 429);
    expect(storm.res.headers.get('retry-after')).toBe('17');
    const reset = await admin('/faults/reset', {});
    expect(reset.body.storm429).toBeNull();
    await ok(r, '/status', statusDataSchema);

    expect((await admin('/faults', { errorRate: 2 })).status).toBe(400);
    expect((await admin('/faults', { nonsense: true })).status).toBe(400);
  });

  it('serves truth, clock and request counts on the admin paths, without a key', async () => {
    const truth = (await (await fetch(`${r.origin}/__admin/truth`)).json()) as { at: number; buses: { gps: string; onTrip: boolean; lat: number }[] };
    expect(truth.at).toBe(r.sim.now());
    expect(truth.buses).toHaveLength(r.sim.plan.totalBuses);
    expect(truth.buses.some((b) => b.onTrip)).toBe(true);
    expect(truth.buses.some((b) => b.gps === 'none')).toBe(true);
    // The active trips with the delay /trips/active gives them at the same sim time (the clock stands still here).
    const { trips } = (await (await fetch(`${r.origin}/__admin/truth`)).json()) as { trips: { id: number; busId: number | null; delayMinutes: number | null }[] };
    const { items } = await walk(r, '/trips/active', tripSchema, 100);
    expect(trips).toEqual(items.map((t) => ({ id: t.id, busId: t.bus_id, delayMinutes: t.delay_minutes })));
    const clock = (await (await fetch(`${r.origin}/__admin/clock`)).json()) as { local: string; timezone: string };
    expect(clock.timezone).toBe('America/New_York');
    expect(clock.local).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    await fetch(`${r.origin}/__admin/stats/reset`, { method: 'POST' });
    await call(r, '/routes');
    await call(r, '/buses/4/location');
    await call(r, '/buses/4/location', null);
    const stats = (await (await fetch(`${r.origin}/__admin/stats`)).json()) as { total: number; byOperation: Record<string, number>; byKey: Record<string, number>; byStatus: Record<string, number> };
    expect(stats.total).toBe(3);
    expect(stats.byOperation).toEqual({ routes: 1, busLocation: 2 });
    expect(stats.byKey).toEqual({ 'demo…': 2, '(none)': 1 });
    expect(stats.byStatus).toEqual({ '200': 2, '401': 1 });
  });
});

describe('simulator limits and defaults', () => {
  it('refuses requests past the per-minute limit with 429 and Retry-After, and recovers with the window', async () => {
    const r = await start({ rateLimit: 5, admin: true, resetAt: 'delta-s' });
    try {
      for (let i = 0; i < 5; i++) await ok(r, '/status', statusDataSchema);
      const refused = await fails(r, '/status', 429);
      expect(refused.envelope.code).toBe('RATE_LIMITED');
      expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // Other keys have their own budget.
      await ok(r, '/status', statusDataSchema, STANDARD);
      r.clock.now += 30_000;
      const later = await fails(r, '/status', 429);
      expect(Number(later.res.headers.get('retry-after'))).toBe(30);
      r.clock.now += 30_000;
      const { body } = await call(r, '/status');
      expect((body as { meta: { rate_limit: { remaining: number; reset_at: number } } }).meta.rate_limit).toEqual({ limit: 5, remaining: 4, reset_at: 60 });
      expect((await (await fetch(`${r.origin}/__admin/stats`)).json()).rateLimited).toBe(2);
    } finally {
      await r.sim.close();
    }
  });

  it('keeps admin off unless asked', async () => {
    const r = await start();
    try {
      expect((await fetch(`${r.origin}/__admin/truth`)).status).toBe(404);
      expect((await fetch(`${r.origin}/__admin/faults`, { method: 'POST', body: '{"storm429":{"retryAfterS":5}}' })).status).toBe(404);
      await ok(r, '/status', statusDataSchema);
    } finally {
      await r.sim.close();
    }
  });

  it('builds the same fleet from the same seed, and another from another', async () => {
    const a = await start({ seed: 7, speed: 0 });
    const b = await start({ seed: 7, speed: 0 });
    const c = await start({ seed: 8, speed: 0 });
    try {
      const page = (r: Running) => ok(r, '/buses?per_page=100', pagedData(busSchema));
      const trips = (r: Running) => ok(r, '/trips/active?per_page=50', pagedData(tripSchema));
      expect(await page(a)).toEqual(await page(b));
      expect(await trips(a)).toEqual(await trips(b));
      expect(await page(a)).not.toEqual(await page(c));
    } finally {
      await Promise.all([a.sim.close(), b.sim.close(), c.sim.close()]);
    }
  });

  it('runs sim time SIM_SPEED times faster than real time', async () => {
    // Pinned to a busy morning: at real night hours in New York the ten active trips may not move in five minutes.
    const sim = createSimulator({ speed: 600, startAt: WEDNESDAY_8AM });
    const { baseUrl } = await sim.listen(0);
    try {
      const r: Running = { sim, baseUrl, origin: '', clock: { now: 0 } };
      const { items } = await ok(r, '/trips/active?per_page=10', pagedData(tripSchema));
      const before = await Promise.all(items.map((t) => ok(r, `/buses/${t.bus_id}/location`, busLocationSchema)));
      const simBefore = sim.now();
      await new Promise((res) => setTimeout(res, 500));
      // 0.5 s real is 5 sim minutes.
      expect(sim.now() - simBefore).toBeGreaterThan(250_000);
      const after = await Promise.all(items.map((t) => ok(r, `/buses/${t.bus_id}/location`, busLocationSchema)));
      const moved = after.filter((l, i) => l.last_latitude !== before[i]!.last_latitude);
      expect(moved.length).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});

describe('simulator incidents', () => {
  let r: Running;
  beforeAll(async () => {
    r = await start({ admin: true });
  });
  afterAll(() => r.sim.close());
  afterEach(() => fetch(`${r.origin}/__admin/incidents/reset`, { method: 'POST' }));

  const incident = async (body: unknown) => {
    const res = await fetch(`${r.origin}/__admin/incidents`, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { id: number; busId: number; tripId: number; startAt: number; endAt: number; error?: string } };
  };
  const truth = async () => (await (await fetch(`${r.origin}/__admin/truth`)).json()) as { at: number; buses: { id: number; lat: number; lon: number; speedKmh: number; gps: string }[]; incidents: { id: number; kind: string; active: boolean }[] };
  const truthBus = async (id: number) => (await truth()).buses.find((b) => b.id === id)!;
  const metres = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
    Math.hypot((a.lat - b.lat) * 111_320, (a.lon - b.lon) * 111_320 * Math.cos((a.lat * Math.PI) / 180));
  const location = (busId: number) => ok(r, `/buses/${busId}/location`, busLocationSchema);

  it('breaks a bus down: it stands where it was, its trip runs later by every minute it stands, and it ends', async () => {
    const made = await incident({ kind: 'breakdown', durationS: 600 });
    expect(made.status).toBe(201);
    expect(made.body.endAt - made.body.startAt).toBe(600_000);
    const at = await truthBus(made.body.busId);
    const delayBefore = (await ok(r, `/trips/${made.body.tripId}`, tripSchema)).delay_minutes!;
    r.clock.now += 240_000;
    const later = await truthBus(made.body.busId);
    expect(later.speedKmh).toBe(0);
    expect(metres(later, at)).toBeLessThan(1);
    const trip = await ok(r, `/trips/${made.body.tripId}`, tripSchema);
    expect(trip.delay_minutes).toBe(delayBefore + 4);
    expect(trip.bus_id).toBe(made.body.busId);
    const shown = await truth();
    expect(shown.incidents).toEqual([expect.objectContaining({ id: made.body.id, kind: 'breakdown', active: true })]);
    r.clock.now += 400_000;
    expect((await truth()).incidents[0]!.active).toBe(false);
  });

  it('silences a bus’s GPS: its last fix stays the one before, and fixes come again when it ends', async () => {
    const made = await incident({ kind: 'gps-silent', durationS: 300 });
    const first = await location(made.body.busId);
    r.clock.now += 120_000;
    expect((await location(made.body.busId)).last_gps_at).toBe(first.last_gps_at);
    expect((await truthBus(made.body.busId)).gps).toBe('lost');
    const ended = await fetch(`${r.origin}/__admin/incidents/${made.body.id}/end`, { method: 'POST' });
    expect(ended.status).toBe(200);
    r.clock.now += 40_000;
    expect((await location(made.body.busId)).last_gps_at).not.toBe(first.last_gps_at);
    expect((await truthBus(made.body.busId)).gps).toBe('ok');
  });

  it('moves a bus off its route by the distance asked, and back when it ends', async () => {
    const made = await incident({ kind: 'off-route', distanceM: 300, durationS: 600 });
    const off = await truthBus(made.body.busId);
    await fetch(`${r.origin}/__admin/incidents/${made.body.id}/end`, { method: 'POST' });
    const on = await truthBus(made.body.busId);
    expect(metres(off, on)).toBeGreaterThan(295);
    expect(metres(off, on)).toBeLessThan(305);
  });

  it('runs a trip with no bus while it lasts', async () => {
    const made = await incident({ kind: 'no-bus', durationS: 300 });
    const trip = await ok(r, `/trips/${made.body.tripId}`, tripSchema);
    expect(trip.bus_id).toBeNull();
    const active = await walk(r, '/trips/active', tripSchema, 100);
    expect(active.items.find((t) => t.id === made.body.tripId)?.bus_id).toBeNull();
    r.clock.now += 300_000;
    expect((await ok(r, `/trips/${made.body.tripId}`, tripSchema)).bus_id).toBe(made.body.busId);
  });

  it('refuses a bad incident with 400, an unknown bus with 409 and an unknown incident with 404', async () => {
    expect((await incident({ kind: 'breakdown' })).status).toBe(400);
    expect((await incident({ kind: 'meteor', durationS: 5 })).status).toBe(400);
    expect((await incident({ kind: 'off-route', durationS: 5 })).status).toBe(400);
    const unknown = await incident({ kind: 'breakdown', busId: 99_999, durationS: 5 });
    expect(unknown.status).toBe(409);
    expect(unknown.body.error).toBe('No bus 99999');
    expect((await fetch(`${r.origin}/__admin/incidents/999/end`, { method: 'POST' })).status).toBe(404);
  });
});
