// Bad input to the app's own API: thousands of generated requests (seeded, reproducible) over every /api route
// with hostile ids, paths, parameters and methods, against the built app. Nothing may answer 5xx, invalid input
// gets a clear 4xx, the key appears nowhere, and invalid input never costs an upstream request: the app talks
// to the simulator through a recording proxy here, so every upstream request is seen with its path.
import { seededStream } from '@/lib/sim/random';
import { expect } from './support/fixtures';
import { fuzz, generate, REQUESTS, SEED, sendAll, type Answer, type Probe } from './support/fuzz-probes';

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
  // Methods Next.js cannot route (TRACE) are refused by scripts/server/server.mjs in front of it.
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
  // Other trips only as the recorder's final lookups of trips that left /trips/active (the simulator's
  // day-numbered ids, about 2.5·10^9, which the fuzz never sends), route stops only for the network's own routes,
  // locations only for the fleet's buses.
  const finalLookup = (p: string) => /^\/trips\/\d{7,}$/.test(p);
  const tripAsks = upstream.filter((p) => p.startsWith('/trips/') && p !== '/trips/active');
  expect(tripAsks.filter((p) => p !== '/trips/1' && !finalLookup(p))).toEqual([]);
  expect((simAfter.byOperation.trip ?? 0) - (simBefore.byOperation.trip ?? 0)).toBe(tripAsks.length);
  const routes = (await (await fetch(`${stack.appUrl}/api/routes`)).json()) as { routes: { id: number }[] };
  const routeIds = new Set(routes.routes.map((r) => r.id));
  const buses = (await (await fetch(`${stack.appUrl}/api/buses`)).json()) as { buses: { id: number }[] };
  const busIds = new Set(buses.buses.map((b) => b.id));
  const unexpected = upstream.filter((p) => {
    if (['/status', '/buses', '/routes', '/trips/active', '/trips/1'].includes(p) || finalLookup(p)) return false;
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
  // The swept ids' lookups only: the feed's own final lookups of trips that left /trips/active go on meanwhile (more
  // of them the longer a loaded machine takes over the sweep; one once pushed the count past the bound).
  const sweptPaths = new Set(probes.map((p) => p.path.replace(/^\/api/, '')));
  const swept = upstreamLog.paths.slice(fromIndex).map((p) => p.path).filter((p) => sweptPaths.has(p));
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
