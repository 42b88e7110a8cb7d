// The fuzz of fuzz.spec.ts again with sign-in on (AUTH_MODE=local) and no session in any request: nothing may answer
// 5xx, every request is refused before a page or handler runs (401, or the sign-in for a page), and none causes an
// upstream request of its own (the app reaches the simulator through a recording proxy).
import { seededStream } from '@/lib/sim/random';
import { expect } from './support/fixtures';
import { fuzz, generate, REQUESTS, SEED, sendAll, type Answer } from './support/fuzz-probes';

fuzz.use({ signInOn: true });
fuzz.describe.configure({ timeout: 300_000 });

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

  // Every request is refused: a 401 for the API, the sign-in for a page (on this origin), a 403 for a change from
  // no page of ours, or before Next.js (405 for TRACE by scripts/server/server.mjs, 400 or 431 from Node's parser; 308 for
  // a trailing slash).
  const origin = new URL(stack.appUrl).origin;
  const served = answers.filter((a) => {
    if (a.status === 401 || a.status === 405 || a.status === 308 || (a.status === 431 && a.probe.path.length > 16_000)) return false;
    // A change (POST, PUT, PATCH, DELETE) that names no origin of ours is refused as cross-site first.
    if (a.status === 403) return !a.body.includes('"reason":"csrf"');
    // A method Node's HTTP parser does not know (FOO) is a bare 400 before any server code.
    if (a.status === 400 && a.probe.method === 'FOO') return a.body !== '';
    if (a.status === 303) return !new URL(String(a.headers.location ?? ''), origin).href.startsWith(`${origin}/signin?next=`);
    return true;
  });
  expect(served.map(describe).slice(0, 20), 'answers that were not a refusal').toEqual([]);
  const api401 = answers.filter((a) => a.status === 401);
  expect(api401.length).toBeGreaterThan(REQUESTS / 2);
  // A HEAD answer carries no body; every other 401 says why.
  for (const a of api401.filter((x) => x.probe.method !== 'HEAD').slice(0, 50)) expect(JSON.parse(a.body)).toMatchObject({ error: { status: 401, reason: 'sign-in-required' } });
  expect(answers.filter((a) => a.body.includes(stack.apiKey) || JSON.stringify(a.headers).includes(stack.apiKey)).map(describe)).toEqual([]);

  // Upstream: only the poller's own requests. The one valid trip id the fuzz sends (1) was never asked for, nor
  // was any other kind of request than the poller makes.
  expect(upstream.filter((p) => p === '/trips/1')).toEqual([]);
  const pollerKinds = /^\/(status|buses|routes|trips\/active|routes\/\d+\/stops|buses\/\d+\/location|trips\/\d{7,})$/;
  expect(upstream.filter((p) => !pollerKinds.test(p)), 'upstream requests the poller would not make').toEqual([]);
});
