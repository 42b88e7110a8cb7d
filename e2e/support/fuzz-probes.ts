// The fuzz e2e's pieces, shared by the open run (fuzz.spec.ts) and the run with sign-in on and no session
// (fuzz-signed-out.spec.ts): the seeded probes, how they are sent, and a stack behind a recording proxy.
import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { partnerRecordingProxy, type UpstreamLog } from '@/lib/testing/harness';
import { startAuthStack } from './auth';
import { test } from './fixtures';
import { startStack, type Stack } from './stack';

export const SEED = Number(process.env.FUZZ_SEED ?? 20_260_304);
export const REQUESTS = 5_200;
const CONCURRENCY = 16;

export const fuzz = test.extend<object, { upstreamLog: UpstreamLog; stack: Stack; signInOn: boolean }>({
  upstreamLog: [async ({}, use) => use({ paths: [] }), { scope: 'worker' }],
  /** AUTH_MODE=local (and no session in any request) instead of the open default. */
  signInOn: [false, { scope: 'worker', option: true }],
  stack: [
    async ({ upstreamLog, signInOn }, use) => {
      const proxy = await partnerRecordingProxy(upstreamLog);
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
    { scope: 'worker', timeout: 360_000 },
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

export interface Probe {
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

export function generate(n: number, rnd: () => number): Probe[] {
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

export interface Answer {
  probe: Probe;
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export function send(appUrl: string, agent: Agent, probe: Probe): Promise<Answer> {
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
export async function sendAll(appUrl: string, probes: readonly Probe[]): Promise<Answer[]> {
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

