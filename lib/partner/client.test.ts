import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '@/lib/log';
import type { Paged } from '@/lib/model';
import { createPartnerClient, MAX_BODY_BYTES, walkPages, type PartnerResponse, type ResponseInfo } from './client';
import { isPartnerError, PartnerError } from './errors';
import { wireBus, wireBusLocation, wireError, wireMeta, wirePaged, wireRoute, wireRouteStop, wireStatus, wireSuccess, wireTrip } from '@/lib/testing/partner-fixtures';

const API_KEY = 'fm_live_S3CR3T-key-0123456789';
const NOW = Date.UTC(2025, 0, 15, 17, 0, 0);

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  accept: string | undefined;
}

let handler: Handler = (_req, res) => res.writeHead(500).end();
const seen: Seen[] = [];
const server = http.createServer((req, res) => {
  seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, accept: req.headers.accept });
  handler(req, res);
});
let baseUrl = '';
let infos: ResponseInfo[] = [];

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function makeClient(over: Partial<Parameters<typeof createPartnerClient>[0]> = {}) {
  return createPartnerClient({
    baseUrl,
    apiKey: API_KEY,
    timeRule: () => ({ kind: 'zone', zone: 'America/New_York' }),
    onResponse: (i) => infos.push(i),
    now: () => NOW,
    ...over,
  });
}

async function failure(p: Promise<unknown>): Promise<PartnerError> {
  try {
    await p;
  } catch (e) {
    expect(isPartnerError(e)).toBe(true);
    return e as PartnerError;
  }
  throw new Error('expected the call to fail');
}

function expectNoKey(x: unknown) {
  const err = x as Error;
  const dump = [JSON.stringify(x), JSON.stringify({ ...(x as object) }), String(x), err.message, err.stack ?? '', Object.values(x as object).join(' ')].join('\n');
  expect(dump).not.toContain(API_KEY);
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/partner/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  seen.length = 0;
  infos = [];
});

describe('successful operations', () => {
  const routes: Record<string, unknown> = {
    '/api/v1/partner/status': wireStatus(),
    '/api/v1/partner/buses?page=1&per_page=25': wirePaged([wireBus(), wireBus({ id: 2, last_gps_at: null })]),
    '/api/v1/partner/routes?page=1&per_page=25': wirePaged([wireRoute()]),
    '/api/v1/partner/routes/7/stops': { route: { id: 7, name: 'Crosstown' }, items: [wireRouteStop({ id: 72, stop_order: 2 }), wireRouteStop()] },
    '/api/v1/partner/trips/active?page=1&per_page=25': wirePaged([wireTrip()]),
    '/api/v1/partner/trips/500': wireTrip(),
    '/api/v1/partner/buses/1/location': wireBusLocation(),
  };

  beforeAll(() => {
    handler = (req, res) => {
      const data = routes[req.url ?? ''];
      if (data === undefined) return send(res, 404, wireError({ code: 'NOT_FOUND', message: `No route ${req.url}` }));
      send(res, 200, wireSuccess(data, { meta: wireMeta({ request_id: `req:${req.url}`, scope: 'buses:read' }) }));
    };
  });

  it('calls every operation with Bearer + Accept and maps the data', async () => {
    const c = makeClient();
    const status = await c.status();
    expect(status.data).toEqual({ plan: 'API Business', level: 'business', scopes: expect.arrayContaining(['gps:read']), rateLimitPerMinute: 60 });
    expect(status.status).toBe(200);
    expect(status.requestId).toBe('req:/api/v1/partner/status');
    expect(status.scope).toBe('buses:read');
    expect(status.rateLimit).toEqual({ limit: 60, remaining: 59, resetAt: 1_750_000_000_000, resetAtRaw: 1_750_000_000 });

    const buses = await c.listBuses();
    expect(buses.data.items.map((b) => [b.id, b.lastGpsAt])).toEqual([
      [1, Date.UTC(2025, 0, 15, 13, 30)],
      [2, null],
    ]);
    expect(buses.data.totalPages).toBe(1);
    expect((await c.listRoutes()).data.items[0]?.distanceEstimate).toBe(12.5);
    const stops = await c.routeStops(7);
    expect(stops.data.route).toEqual({ id: 7, name: 'Crosstown', code: null });
    expect(stops.data.stops.map((s) => [s.id, s.isStart])).toEqual([
      [70, true],
      [72, true],
    ]);
    expect((await c.activeTrips()).data.items[0]?.plannedDepartureAt).toBe(Date.UTC(2025, 0, 15, 13));
    expect((await c.trip(500)).data.delayMinutes).toBe(4);
    const loc = await c.busLocation(1);
    expect([loc.data.latitude, loc.data.longitude, loc.data.speedKmh]).toEqual([40.7128, -73.9, 12]);

    expect(seen.map((s) => s.url)).toEqual(Object.keys(routes));
    for (const s of seen) {
      expect(s.method).toBe('GET');
      expect(s.authorization).toBe(`Bearer ${API_KEY}`);
      expect(s.accept).toBe('application/json');
    }
    expect(infos.map((i) => [i.operation, i.path, i.status, i.error])).toEqual([
      ['status', '/status', 200, null],
      ['listBuses', '/buses', 200, null],
      ['listRoutes', '/routes', 200, null],
      ['routeStops', '/routes/7/stops', 200, null],
      ['activeTrips', '/trips/active', 200, null],
      ['trip', '/trips/500', 200, null],
      ['busLocation', '/buses/1/location', 200, null],
    ]);
    for (const i of infos) {
      expect(i.durationMs).toBeGreaterThanOrEqual(0);
      expect(i.rateLimit?.limit).toBe(60);
    }
  });

  it('reads the time rule on every response', async () => {
    let offset = -300;
    const c = makeClient({ timeRule: () => ({ kind: 'offset', minutes: offset }) });
    const first = (await c.trip(500)).data.plannedDepartureAt;
    offset = -240;
    const second = (await c.trip(500)).data.plannedDepartureAt;
    expect(first! - second!).toBe(3_600_000);
  });
});

describe('request building', () => {
  beforeAll(() => {
    handler = (_req, res) => send(res, 200, wireSuccess(wirePaged([])));
  });

  it.each([
    [{ page: 0, perPage: 1000 }, 'page=1&per_page=100'],
    [{ page: -3, perPage: -1 }, 'page=1&per_page=1'],
    [{ page: 2.7, perPage: 10.9 }, 'page=2&per_page=10'],
    [{ page: Number.NaN, perPage: Number.POSITIVE_INFINITY }, 'page=1&per_page=25'],
    [{}, 'page=1&per_page=25'],
    [{ page: 4, perPage: 100 }, 'page=4&per_page=100'],
  ])('clamps page params %j to %s', async (p, query) => {
    await makeClient().listBuses(p);
    expect(seen.map((s) => s.url)).toEqual([`/api/v1/partner/buses?${query}`]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '7' as unknown as number, '1/../../admin' as unknown as number])(
    'rejects the id %j with a RangeError before any request',
    async (id) => {
      const c = makeClient();
      await expect(c.trip(id)).rejects.toThrow(RangeError);
      await expect(c.busLocation(id)).rejects.toThrow(RangeError);
      await expect(c.routeStops(id)).rejects.toThrow(RangeError);
      expect(seen).toHaveLength(0);
      expect(infos).toHaveLength(0);
    },
  );

  it('rejects a base URL that is not the partner API root, and an empty key', () => {
    expect(() => makeClient({ baseUrl: 'http://127.0.0.1:1/api/v2' })).toThrow(/\/api\/v1\/partner/);
    expect(() => makeClient({ baseUrl: 'ftp://127.0.0.1/api/v1/partner' })).toThrow(/http or https/);
    expect(() => makeClient({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
    expect(() => makeClient({ apiKey: '' })).toThrow(/empty/);
  });
});

describe('walkPages', () => {
  const buses = Array.from({ length: 250 }, (_, i) => wireBus({ id: i + 1 }));

  beforeAll(() => {
    handler = (req, res) => {
      const u = new URL(req.url ?? '', 'http://x');
      const page = Number(u.searchParams.get('page'));
      const perPage = Number(u.searchParams.get('per_page'));
      const items = buses.slice((page - 1) * perPage, page * perPage);
      send(res, 200, wireSuccess(wirePaged(items, { page, per_page: perPage, total: buses.length })));
    };
  });

  it('walks 3 pages of 100 and returns every item once', async () => {
    const c = makeClient();
    let paced = 0;
    const r = await walkPages((p) => c.listBuses(p), { beforePage: async () => void paced++ });
    expect(r.items.map((b) => b.id)).toEqual(buses.map((b) => b.id));
    expect(new Set(r.items.map((b) => b.id)).size).toBe(250);
    expect(r.responses).toHaveLength(3);
    expect(r.complete).toBe(true);
    expect(paced).toBe(3);
    expect(seen.map((s) => s.url)).toEqual([1, 2, 3].map((p) => `/api/v1/partner/buses?page=${p}&per_page=100`));
    expect(infos).toHaveLength(3);
  });

  function fakePage<T>(items: T[], page: number, totalPages: number): PartnerResponse<Paged<T>> {
    return { data: { items, page, perPage: 100, total: totalPages * 100, totalPages }, rateLimit: null, requestId: null, scope: null, status: 200 };
  }

  it('does not follow a total_pages that keeps growing', async () => {
    let calls = 0;
    const r = await walkPages(async (p) => {
      calls++;
      return fakePage([p.page], p.page!, p.page! + 2);
    });
    expect(calls).toBe(3);
    expect(r.items).toEqual([1, 2, 3]);
    expect(r.complete).toBe(true);
  });

  it('stops on an empty page and reports the walk incomplete', async () => {
    let calls = 0;
    const r = await walkPages(async (p) => {
      calls++;
      return fakePage(p.page === 1 ? ['a'] : [], p.page!, 50);
    });
    expect(calls).toBe(2);
    expect(r).toMatchObject({ items: ['a'], complete: false });
  });

  it('stops at maxPages', async () => {
    let calls = 0;
    const r = await walkPages(async (p) => fakePage([calls++], p.page!, 10_000), { maxPages: 5 });
    expect(calls).toBe(5);
    expect(r.complete).toBe(false);
  });

  it('stops early when total_pages shrinks, and handles an empty list', async () => {
    const shrink = await walkPages(async (p) => fakePage([p.page], p.page!, p.page === 1 ? 5 : 2));
    expect(shrink.items).toEqual([1, 2]);
    const empty = await walkPages(async (p) => fakePage([], p.page!, 0));
    expect(empty).toMatchObject({ items: [], complete: true });
    expect(empty.responses).toHaveLength(1);
  });

  it('passes a failure of a page through', async () => {
    const err = new PartnerError({ kind: 'http', status: 429, message: 'slow down', operation: 'listBuses', path: '/buses' });
    await expect(walkPages(async () => Promise.reject(err))).rejects.toBe(err);
  });
});

describe('HTTP errors', () => {
  it.each([
    [401, 'UNAUTHORIZED', 'Invalid API key.'],
    [403, 'FORBIDDEN', 'The key lacks the gps:read scope.'],
    [404, 'NOT_FOUND', 'Bus 99 not found.'],
  ])('%i carries the upstream message, code and correlation id and is not retryable', async (status, code, message) => {
    handler = (_req, res) => send(res, status, wireError({ code, message, retryable: false, correlation_id: `corr-${status}` }));
    const err = await failure(makeClient().busLocation(99));
    expect(err).toMatchObject({ kind: 'http', status, code, message, retryable: false, correlationId: `corr-${status}`, operation: 'busLocation', path: '/buses/99/location', field: null });
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ operation: 'busLocation', path: '/buses/99/location', status, error: err });
    expectNoKey(err);
  });

  it('401 without an envelope falls back to the status sentence and is not retryable', async () => {
    handler = (_req, res) => send(res, 401, '');
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'http', status: 401, message: 'HTTP 401 from /buses', retryable: false, code: null, correlationId: null });
  });

  it('429 with Retry-After in seconds', async () => {
    handler = (_req, res) =>
      send(res, 429, wireError({ code: 'RATE_LIMITED', message: 'Too many requests.', retryable: true }, { meta: wireMeta({ rate_limit: { limit: 60, remaining: 0, reset_at: 7 } }) }), {
        'retry-after': '7',
      });
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'http', status: 429, retryAfterS: 7, retryable: true, message: 'Too many requests.' });
    expect(infos[0]?.rateLimit).toEqual({ limit: 60, remaining: 0, resetAt: NOW + 7000, resetAtRaw: 7 });
  });

  it('429 with Retry-After as an HTTP-date, and no body', async () => {
    handler = (_req, res) => send(res, 429, '', { 'retry-after': new Date(NOW + 30_000).toUTCString() });
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'http', status: 429, retryAfterS: 30, retryable: true, message: 'HTTP 429 from /buses' });
  });

  it('429 with an HTTP-date in the past waits 0 s', async () => {
    handler = (_req, res) => send(res, 429, '', { 'retry-after': new Date(NOW - 60_000).toUTCString() });
    expect((await failure(makeClient().listBuses())).retryAfterS).toBe(0);
  });

  it('500 with an envelope keeps the message and correlation id', async () => {
    handler = (_req, res) => send(res, 500, wireError({ code: 'INTERNAL', message: 'Database unavailable.', retryable: true, correlation_id: 'c-500' }));
    const err = await failure(makeClient().trip(12));
    expect(err).toMatchObject({ kind: 'http', status: 500, message: 'Database unavailable.', correlationId: 'c-500', retryable: true, path: '/trips/12' });
  });

  it('uses the envelope retryable over the status default', async () => {
    handler = (_req, res) => send(res, 503, wireError({ code: 'MAINTENANCE', message: 'Down for maintenance.', retryable: false }));
    expect((await failure(makeClient().status())).retryable).toBe(false);
  });

  it('500 without a body', async () => {
    handler = (_req, res) => res.writeHead(500).end();
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'http', status: 500, message: 'HTTP 500 from /buses', retryable: true, correlationId: null });
  });

  it('503 with an HTML page never quotes the page', async () => {
    const page = `<html><body>${'x'.repeat(5000)}</body></html>`;
    handler = (_req, res) => send(res, 503, page, { 'content-type': 'text/html' });
    const err = await failure(makeClient().listRoutes());
    expect(err.message).toBe('HTTP 503 from /routes');
  });

  it('truncates a very long upstream message', async () => {
    handler = (_req, res) => send(res, 500, wireError({ message: 'y'.repeat(5000) }));
    const err = await failure(makeClient().listRoutes());
    expect(err.message.length).toBeLessThanOrEqual(201);
  });

  it('does not follow redirects (the bearer key must not travel elsewhere)', async () => {
    handler = (req, res) => (req.url?.includes('elsewhere') ? send(res, 200, wireSuccess(wireStatus())) : res.writeHead(302, { location: '/elsewhere' }).end());
    const err = await failure(makeClient().status());
    expect(err).toMatchObject({ kind: 'http', status: 302 });
    expect(seen).toHaveLength(1);
  });

  it('redacts the key if an upstream echoes it', async () => {
    handler = (req, res) => send(res, 401, wireError({ message: `Key ${req.headers.authorization} is revoked.` }));
    const err = await failure(makeClient().status());
    expect(err.message).toBe('Key Bearer [redacted] is revoked.');
    expectNoKey(err);
  });

  it('redacts an echoed key before it cuts the message: no piece of the key survives near the cut', async () => {
    // The key starts at character 180 of the upstream message: cut first at 200, its first 20 characters stayed.
    handler = (_req, res) => send(res, 401, wireError({ message: `${'x'.repeat(180)}${API_KEY} and more text after the key` }));
    const err = await failure(makeClient().status());
    expect(err.message).toBe(`${'x'.repeat(180)}[redacted] and more …`);
    for (let n = 6; n <= API_KEY.length; n++) expect(err.message).not.toContain(API_KEY.slice(0, n));
  });

  it('redacts a cut key (its first 6 characters or more) wherever the upstream put it', async () => {
    handler = (_req, res) => send(res, 500, wireError({ message: `key ${API_KEY.slice(0, 9)}, again ${API_KEY.slice(0, 6)}; not ${API_KEY.slice(0, 5)}` }));
    const err = await failure(makeClient().status());
    expect(err.message).toBe(`key [redacted], again [redacted]; not ${API_KEY.slice(0, 5)}`);
  });
});

describe('transport failures', () => {
  it('times out on a server that never answers', async () => {
    handler = () => {};
    const started = Date.now();
    const err = await failure(makeClient({ timeoutMs: 200 }).listBuses());
    expect(err).toMatchObject({ kind: 'timeout', status: null, retryable: true, path: '/buses' });
    expect(err.message).toMatch(/200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ status: null, error: err });
    expectNoKey(err);
  });

  it('times out on a body that never ends', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,');
    };
    // Long enough for the head to arrive on a loaded machine (200 ms was not, once): the status shows it did.
    const err = await failure(makeClient({ timeoutMs: 3_000 }).status());
    expect(err).toMatchObject({ kind: 'timeout', status: 200, retryable: true });
  });

  it('aborts an endless body at the size cap and names the cap', async () => {
    let sent = 0;
    let closed!: Promise<void>;
    handler = (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,"data":"');
      const chunk = 'x'.repeat(64 * 1024);
      // As fast as the connection drains, forever: only the client's cap can end it.
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    };
    // A timeout far longer than reading 8 MB takes even on a loaded machine: the cap must end it, not the clock.
    const err = await failure(makeClient({ timeoutMs: 120_000 }).status());
    expect(err).toMatchObject({ kind: 'contract', status: 200, path: '/status' });
    expect(err.message).toBe('The response of /status is larger than the 8 MB cap; the request was aborted.');
    // The connection was dropped: the server stops sending soon after the cap.
    await closed;
    expect(sent).toBeGreaterThan(MAX_BODY_BYTES);
    expect(sent).toBeLessThan(MAX_BODY_BYTES + 16 * 1024 * 1024);
  });

  it('refuses a body whose declared length passes the cap without reading it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) });
      res.write('{');
    };
    const err = await failure(makeClient({ timeoutMs: 120_000 }).status());
    expect(err).toMatchObject({ kind: 'contract', message: expect.stringContaining('8 MB cap') });
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await failure(makeClient({ baseUrl: `http://127.0.0.1:${port}/api/v1/partner` }).status());
    expect(err).toMatchObject({ kind: 'network', status: null, retryable: true, path: '/status' });
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(infos).toHaveLength(1);
    expectNoKey(err);
  });
});

describe('contract breaks', () => {
  it('malformed JSON', async () => {
    handler = (_req, res) => send(res, 200, '{"success": true, "data": [');
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'contract', status: 200, retryable: false, field: null });
    expect(err.message).toMatch(/not JSON/);
  });

  it('a missing field is named', async () => {
    const second = wireBus({ id: 2 });
    delete second.plate_number;
    handler = (_req, res) => send(res, 200, wireSuccess(wirePaged([wireBus(), second])));
    const err = await failure(makeClient().listBuses());
    expect(err).toMatchObject({ kind: 'contract', field: 'data.items.1.plate_number', retryable: false });
    expect(err.message).toBe('The response of /buses breaks the contract: data.items.1.plate_number is missing.');
  });

  it('a wrong type is named with what came instead', async () => {
    handler = (_req, res) => send(res, 200, wireSuccess(wireBusLocation({ last_latitude: 'north' })));
    const err = await failure(makeClient().busLocation(1));
    expect(err.field).toBe('data.last_latitude');
    expect(err.message).toBe('The response of /buses/1/location breaks the contract: data.last_latitude: expected a number or a decimal string (got "north").');
  });

  it('a broken envelope is named', async () => {
    handler = (_req, res) => send(res, 200, { success: true, code: 'OK', data: wireTrip(), errors: [] });
    expect((await failure(makeClient().trip(500))).field).toBe('meta');
  });

  it('a JSON body that is not an object', async () => {
    handler = (_req, res) => send(res, 200, '[1,2,3]');
    const err = await failure(makeClient().status());
    expect(err.kind).toBe('contract');
    expect(err.message).toMatch(/breaks the contract/);
  });

  it('a 200 with success:false', async () => {
    handler = (_req, res) => send(res, 200, wireError({ message: 'Something odd.' }));
    const err = await failure(makeClient().status());
    expect(err).toMatchObject({ kind: 'contract', status: 200, field: 'success', retryable: false });
    expect(err.message).toMatch(/success: false: Something odd\./);
  });

  it('quotes at most ~200 characters of an offending value', async () => {
    handler = (_req, res) => send(res, 200, wireSuccess(wireBusLocation({ last_latitude: 'z'.repeat(10_000) })));
    const err = await failure(makeClient().busLocation(1));
    expect(err.message.length).toBeLessThan(400);
  });
});

describe('onResponse', () => {
  it('is called exactly once per request, success or failure, and a throwing hook does not break the call', async () => {
    let n = 0;
    handler = (_req, res) => (n++ % 2 === 0 ? send(res, 200, wireSuccess(wireStatus())) : send(res, 500, ''));
    const c = makeClient();
    const results = await Promise.allSettled([c.status(), c.status(), c.status(), c.status()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(infos).toHaveLength(4);
    expect(infos.filter((i) => i.error !== null)).toHaveLength(2);

    // The hook's failure is logged once, through the process logger (lib/log), and the call goes on.
    const logged = vi.spyOn(logger(), 'error').mockImplementation(() => undefined);
    let messages: unknown[] = [];
    try {
      handler = (_req, res) => send(res, 200, wireSuccess(wireStatus()));
      const throwing = makeClient({
        onResponse: () => {
          throw new Error('observer bug');
        },
      });
      expect((await throwing.status()).data.level).toBe('business');
    } finally {
      messages = logged.mock.calls.map((c) => c[1]);
      logged.mockRestore();
    }
    expect(messages).toEqual(['partner onResponse hook threw']);
  });

  it('never lets the key into any error across every failure kind', async () => {
    const collected: unknown[] = [];
    const scenarios: Handler[] = [
      (_q, s) => send(s, 401, wireError()),
      (_q, s) => send(s, 429, '', { 'retry-after': '3' }),
      (_q, s) => send(s, 200, 'nope'),
      (_q, s) => send(s, 200, wireSuccess({})),
    ];
    for (const h of scenarios) {
      handler = h;
      collected.push(await failure(makeClient().status()));
    }
    collected.push(...infos);
    for (const x of collected) expectNoKey(x);
  });
});
