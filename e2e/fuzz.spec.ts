// Bad input to the app's own API: thousands of generated requests (seeded, reproducible) over every /api route
// with hostile ids, paths, parameters and methods, against the built app. Nothing may answer 5xx, invalid input
// gets a clear 4xx, the key appears nowhere, and invalid input never costs an upstream request: the app talks
// to the simulator through a recording proxy here, so every upstream request is seen with its path.
import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { seededStream } from '@/lib/sim/random';
import { expect, test } from './support/fixtures';
import { startAuthStack } from './support/auth';
import { recordingProxy, type UpstreamLog } from './support/recording-proxy';
import { startStack, type Stack } from './support/stack';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_304);
const REQUESTS = 5_200;
const CONCURRENCY = 16;

const fuzz = test.extend<object, { upstreamLog: UpstreamLog; stack: Stack; signInOn: boolean }>({
  upstreamLog: [async ({}, use) => use({ paths: [] }), { scope: 'worker' }],
  /** AUTH_MODE=local (and no session in any request) instead of the open default. */
  signInOn: [false, { scope: 'worker', option: true }],
  stack: [
    async ({ upstreamLog, signInOn }, use) => {
      const proxy = await recordingProxy(upstreamLog);
      const env = { PARTNER_API_BASE_URL: proxy.baseUrl };
      const stack = signInOn ? await startAuthStack({ mode: 'local', stack: { env } }) : await startStack({ env });
      proxy.setTarget(stack.simAdminUrl);
      try {
        await use(stack);
      } finally {
        await stack.stop();
        await proxy.close();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

// Ids no route may accept, as they appear raw in a path or a query (already percent-encoded where HTTP needs it).
const BAD_IDS = [
  '0', '-1', '1.5', '1e309', '1e3', '9007199254740993', '9007199254740992', '99999999999999999999', '01', '+1', '0x10',
  'Infinity', 'NaN', 'null', 'undefined', 'true', '%20', '%201', '1%20', '%00', '1%00', '%0a', '%0d%0a', '..', '..%2f',
  '..%2F..%2Fstatus', '%2e%2e', '%2e%2e%2f', '%2F', '1%2F2', '%5c..%5c', '%C3%BC', '%F0%9F%9A%8C', '%E2%80%AE1', '%FF',
  '%', '%zz', '%%30', '1;2', '1,2', '[1]', '%7B%7D', '%27%3B--', '%3Cscript%3E', '%24%7Bjndi%7D', '~1', '-0', '1_000',
  '%D9%A3', '%EF%BC%91', 'a'.repeat(10_240), '9'.repeat(10_240),
];

const METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO'];
const PLAIN = ['/api/live', '/api/routes', '/api/buses', '/api/status', '/api/network'];
const JUNK_PARAMS = ['page=-1', 'per_page=1e9', 'x=%00', 'watch', 'watch=', `q=${'z'.repeat(10_240)}`, 'id=..%2f', '__proto__=1', 'constructor=1', 'a=1&a=2&a=3'];

interface Probe {
  method: string;
  path: string;
  /** The input is invalid for the handler it names: a 400 with a message is due, and no upstream request. */
  invalid: boolean;
  body?: string;
}

/** Ids that change the path itself (dot segments, a trailing slash): Next.js may redirect or not find a route. */
const pathLike = (id: string) => /^(\.\.|%2e%2e)($|%2f)|\/$/i.test(id) || id.startsWith('..');

// Paths that try to leave the app or make it redirect elsewhere.
const ESCAPES = ['//evil.example/api/live', '/api/live/..//evil.example/', '/%5cevil.example/', '/api/trips/%2F%2Fevil.example/', '/api/routes/1/stops/', '/api/live/', '/api/trips/1/'];

function generate(n: number, rnd: () => number): Probe[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const junk = () => (rnd() < 0.5 ? '' : `?${pick(JUNK_PARAMS)}`);
  const amp = (q: string) => (q ? `&${q.slice(1)}` : '');
  const out: Probe[] = [];
  for (let i = 0; i < n; i++) {
    const id = pick(BAD_IDS);
    const r = rnd();
    if (r < 0.02) out.push({ method: 'GET', path: pick(ESCAPES), invalid: false });
    else if (r < 0.25) out.push({ method: 'GET', path: `/api/trips/${id}${junk()}`, invalid: !pathLike(id) });
    else if (r < 0.45) out.push({ method: 'GET', path: `/api/routes/${id}/stops${junk()}`, invalid: !pathLike(id) });
    else if (r < 0.6) out.push({ method: 'GET', path: `/api/live?watch=${id}${amp(junk())}`, invalid: true });
    else if (r < 0.65) out.push({ method: 'GET', path: `/api/live?watch=${id}&watch=${pick(BAD_IDS)}`, invalid: true });
    else if (r < 0.8) out.push({ method: 'GET', path: `${pick(PLAIN.filter((p) => p !== '/api/network' || rnd() < 0.2))}${junk()}`, invalid: false });
    else {
      const path = pick([...PLAIN, `/api/trips/${id}`, `/api/routes/${id}/stops`, '/api/trips/1', '/api/routes/1/stops']);
      const method = pick(METHODS);
      out.push({ method, path, invalid: false, body: method === 'POST' || method === 'PUT' || method === 'PATCH' ? '{"watch":1,"__proto__":{"x":1}}' : undefined });
    }
  }
  return out;
}

interface Answer {
  probe: Probe;
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(appUrl: string, agent: Agent, probe: Probe): Promise<Answer> {
  const u = new URL(appUrl);
  return new Promise((resolve, reject) => {
    // node:http sends the path exactly as written: no dot-segment or percent-decoding on our side.
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        method: probe.method,
        path: probe.path,
        agent,
        headers: probe.body ? { 'content-type': 'application/json' } : {},
        // Next.js echoes the path into a redirect's headers: a 10 kB path makes them larger than Node's 16 kB default.
        maxHeaderSize: 128 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ probe, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${probe.method} ${probe.path.slice(0, 80)}`)));
    req.on('error', reject);
    req.end(probe.body);
  });
}

/** Every probe, CONCURRENCY at a time over kept-alive connections. */
async function sendAll(appUrl: string, probes: readonly Probe[]): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) answers.push(await send(appUrl, agent, probes[next++]!));
    }),
  );
  agent.destroy();
  return answers;
}

fuzz.describe.configure({ timeout: 300_000 });

fuzz('5,000+ hostile requests: no 5xx, clear 4xx for invalid input, no key, no upstream request for invalid input', async ({ stack, upstreamLog }) => {
  // Let the poller settle: the status, lists and route stops it loads in the background come first.
  await expect.poll(async () => (await (await fetch(`${stack.appUrl}/api/status`)).json()).state, { timeout: 60_000 }).toBe('ok');
  const probes = generate(REQUESTS, seededStream(SEED));
  const simBefore = await stack.simStats();
  const fromIndex = upstreamLog.paths.length;
  const started = Date.now();
  const answers = await sendAll(stack.appUrl, probes);
  const tookS = (Date.now() - started) / 1000;
  const simAfter = await stack.simStats();
  const upstream = upstreamLog.paths.slice(fromIndex).map((p) => p.path);

  const byStatus: Record<string, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  console.info(`fuzz seed ${SEED}: ${answers.length} requests in ${tookS.toFixed(1)} s, by status ${JSON.stringify(byStatus)}; upstream meanwhile ${upstream.length} requests`);
  expect(answers).toHaveLength(REQUESTS);

  const describe = (a: Answer) => `${a.probe.method} ${a.probe.path.slice(0, 100)} → ${a.status} ${a.body.slice(0, 160)}`;
  expect(answers.filter((a) => a.status >= 500).map(describe), 'answers of 5xx').toEqual([]);
  // Methods Next.js cannot route (TRACE) are refused by scripts/server.mjs in front of it.
  const trace = answers.filter((a) => a.probe.method === 'TRACE');
  expect(trace.length).toBeGreaterThan(0);
  expect(trace.filter((a) => a.status !== 405).map(describe)).toEqual([]);

  // Redirects (dot segments, trailing slashes) stay on this origin: no open redirect.
  const redirects = answers.filter((a) => a.status >= 300 && a.status < 400);
  const elsewhere = redirects.filter((a) => {
    const location = String(a.headers.location ?? '');
    return new URL(location, stack.appUrl).origin !== new URL(stack.appUrl).origin || location.startsWith('//') || location.startsWith('/\\');
  });
  expect(elsewhere.map((a) => `${describe(a)} → ${String(a.headers.location).slice(0, 100)}`)).toEqual([]);

  // Invalid ids to a handler: a 400 whose JSON body names the problem.
  const notClear = answers.filter((a) => {
    if (!a.probe.invalid) return false;
    // A request line past Node's 16 kB header limit is refused by its HTTP parser before the app sees it.
    if (a.status === 431 && a.probe.path.length > 16_000) return false;
    if (a.status !== 400) return true;
    try {
      const body = JSON.parse(a.body) as { error?: { status?: number; message?: unknown } };
      return body.error?.status !== 400 || typeof body.error.message !== 'string' || !/(Trip id|Route id|watch).* must be|not valid percent-encoding/.test(body.error.message);
    } catch {
      return true;
    }
  });
  expect(notClear.map(describe).slice(0, 20), 'invalid ids not answered with a clear 400').toEqual([]);

  // Wrong methods: refused, never served or failed.
  const oddMethods = answers.filter((a) => !['GET', 'HEAD', 'OPTIONS'].includes(a.probe.method));
  expect(oddMethods.filter((a) => ![400, 404, 405, 308].includes(a.status)).map(describe).slice(0, 20)).toEqual([]);

  // Every answer: no key in body or headers.
  const leaks = answers.filter((a) => a.body.includes(stack.apiKey) || JSON.stringify(a.headers).includes(stack.apiKey));
  expect(leaks.map(describe)).toEqual([]);
  expect(answers.filter((a) => 'x-powered-by' in a.headers).map(describe).slice(0, 5)).toEqual([]);

  // Upstream: only what the poller asks for itself, plus trip 1 (the one valid trip id the fuzz sends, by HEAD).
  // No other trip was asked for (the poller never reads one), route stops only for the network's own routes,
  // locations only for the fleet's buses.
  const tripAsks = upstream.filter((p) => p.startsWith('/trips/') && p !== '/trips/active');
  expect(tripAsks.filter((p) => p !== '/trips/1')).toEqual([]);
  expect((simAfter.byOperation.trip ?? 0) - (simBefore.byOperation.trip ?? 0)).toBe(tripAsks.length);
  const routes = (await (await fetch(`${stack.appUrl}/api/routes`)).json()) as { routes: { id: number }[] };
  const routeIds = new Set(routes.routes.map((r) => r.id));
  const buses = (await (await fetch(`${stack.appUrl}/api/buses`)).json()) as { buses: { id: number }[] };
  const busIds = new Set(buses.buses.map((b) => b.id));
  const unexpected = upstream.filter((p) => {
    if (['/status', '/buses', '/routes', '/trips/active', '/trips/1'].includes(p)) return false;
    const stops = /^\/routes\/(\d+)\/stops$/.exec(p);
    if (stops) return !routeIds.has(Number(stops[1]));
    const loc = /^\/buses\/(\d+)\/location$/.exec(p);
    if (loc) return !busIds.has(Number(loc[1]));
    return true;
  });
  expect(unexpected, 'upstream requests the poller would not make').toEqual([]);
  console.info(`upstream during the fuzz by operation: ${JSON.stringify(Object.fromEntries(Object.entries(simAfter.byOperation).map(([k, v]) => [k, v - (simBefore.byOperation[k] ?? 0)])))}`);

  // The server is still fine afterwards.
  const after = await fetch(`${stack.appUrl}/api/live`);
  expect(after.status).toBe(200);
});

// Valid ids the upstream does not know: each could cost an upstream request. One client (every request here comes
// from 127.0.0.1) may cause at most LOOKUP_BURST + LOOKUPS_PER_MINUTE per minute of them (lib/fleet/client-quota.ts:
// 6, then 12 a minute); whatever it sends past that is answered 429 at no upstream cost.
const SWEEP_REQUESTS = 600;
const SWEEP_BURST = 6;
const SWEEP_PER_MINUTE = 12;

fuzz('a sweep of valid but unknown ids costs the upstream a stated bound, and never a 5xx', async ({ stack, upstreamLog }) => {
  await expect.poll(async () => (await (await fetch(`${stack.appUrl}/api/status`)).json()).state, { timeout: 60_000 }).toBe('ok');
  const rnd = seededStream(SEED + 1);
  const probes: Probe[] = Array.from({ length: SWEEP_REQUESTS }, (_, i) => {
    const id = 9_000_000_000 + Math.floor(rnd() * 1_000_000_000);
    return { method: 'GET', path: i % 2 ? `/api/trips/${id}` : `/api/routes/${100_000 + i}/stops`, invalid: false };
  });
  const fromIndex = upstreamLog.paths.length;
  const started = Date.now();
  const answers = await sendAll(stack.appUrl, probes);
  const minutes = (Date.now() - started) / 60_000;
  const swept = upstreamLog.paths.slice(fromIndex).map((p) => p.path).filter((p) => (p.startsWith('/trips/') && p !== '/trips/active') || /^\/routes\/\d{6,}\/stops$/.test(p));
  const byStatus: Record<string, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  const bound = SWEEP_BURST + Math.ceil(SWEEP_PER_MINUTE * minutes) + 1;
  console.info(`id sweep: ${answers.length} requests in ${(minutes * 60).toFixed(1)} s, by status ${JSON.stringify(byStatus)}; upstream lookups ${swept.length} (bound ${bound})`);
  expect(swept.length).toBeLessThanOrEqual(bound);
  expect(answers.filter((a) => a.status >= 500).map((a) => `${a.probe.path} → ${a.status} ${a.body.slice(0, 120)}`)).toEqual([]);
  // Past the bound: a clear 429 from the app, not the upstream's answer.
  const limited = answers.filter((a) => a.status === 429);
  expect(limited.length).toBeGreaterThanOrEqual(SWEEP_REQUESTS - bound);
  for (const a of limited.slice(0, 20)) expect(JSON.parse(a.body)).toEqual({ error: { status: 429, message: expect.stringMatching(/^Too many lookups from this client; try again in \d+ s\.$/) } });
  expect(answers.filter((a) => ![404, 429, 200].includes(a.status)).map((a) => `${a.probe.path} → ${a.status}`)).toEqual([]);
});

fuzz.describe('with sign-in on', () => {
  fuzz.use({ signInOn: true });

  fuzz('the same requests without a session: no 5xx, each refused before the app, no upstream request of their own', async ({ stack, upstreamLog }) => {
    // The poller is running (it needs no session): wait for its first locations.
    await expect.poll(() => upstreamLog.paths.filter((p) => p.path.endsWith('/location')).length, { timeout: 90_000 }).toBeGreaterThan(0);
    const probes = generate(REQUESTS, seededStream(SEED));
    const fromIndex = upstreamLog.paths.length;
    const started = Date.now();
    const answers = await sendAll(stack.appUrl, probes);
    const tookS = (Date.now() - started) / 1000;
    const upstream = upstreamLog.paths.slice(fromIndex).map((p) => p.path);
    const byStatus: Record<string, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    console.info(`fuzz (sign-in on) seed ${SEED}: ${answers.length} requests in ${tookS.toFixed(1)} s, by status ${JSON.stringify(byStatus)}; upstream meanwhile ${upstream.length} requests`);
    expect(answers).toHaveLength(REQUESTS);
    const describe = (a: Answer) => `${a.probe.method} ${a.probe.path.slice(0, 100)} → ${a.status} ${a.body.slice(0, 160)}`;
    expect(answers.filter((a) => a.status >= 500).map(describe), 'answers of 5xx').toEqual([]);

    // Every request is refused: a 401 for the API, the sign-in for a page (on this origin), or refused before
    // Next.js (405 for TRACE by scripts/server.mjs, 431 for a request line past Node's limit; 308 for a trailing slash).
    const origin = new URL(stack.appUrl).origin;
    const served = answers.filter((a) => {
      if (a.status === 401 || a.status === 405 || a.status === 308 || (a.status === 431 && a.probe.path.length > 16_000)) return false;
      if (a.status === 303) return !new URL(String(a.headers.location ?? ''), origin).href.startsWith(`${origin}/signin?next=`);
      return true;
    });
    expect(served.map(describe).slice(0, 20), 'answers that were not a refusal').toEqual([]);
    const api401 = answers.filter((a) => a.status === 401);
    expect(api401.length).toBeGreaterThan(REQUESTS / 2);
    for (const a of api401.slice(0, 50)) expect(JSON.parse(a.body)).toMatchObject({ error: { status: 401, reason: 'sign-in-required' } });
    expect(answers.filter((a) => a.body.includes(stack.apiKey) || JSON.stringify(a.headers).includes(stack.apiKey)).map(describe)).toEqual([]);

    // Upstream: only the poller's own requests. The one valid trip id the fuzz sends (1) was never asked for, nor
    // was any other kind of request than the poller makes.
    expect(upstream.filter((p) => p === '/trips/1')).toEqual([]);
    const pollerKinds = /^\/(status|buses|routes|trips\/active|routes\/\d+\/stops|buses\/\d+\/location|trips\/\d{7,})$/;
    expect(upstream.filter((p) => !pollerKinds.test(p)), 'upstream requests the poller would not make').toEqual([]);
  });
});
