// The security review's attacks (issue 28) against the built server with sign-in on (AUTH_MODE=local), each as the
// reviewer sent it: what a viewer and a wall token read of the health (finding 1), parallel sign-ins from one
// address (2), a `#` in the request target (4), a next path outside ASCII (6), text in ?error= (7), a wall token's
// network reads (10), and a redirect's host (smaller). Sign-ins name their own address (TRUST_PROXY=1 and
// X-Forwarded-For), so that the throttling test's address does not hold up the others.
import type { LiveAnswer, LiveHealth, NetworkResponse, RoutesResponse } from '@/lib/model';
import { authTest, expect, type Account } from './support/auth';
import { rawRequest } from './support/raw-http';

const viewer: Account = { name: 'vera', role: 'viewer', password: 'vera-password-1' };
const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };

const test = authTest({ mode: 'local', accounts: [viewer, admin], env: { TRUST_PROXY: '1' } });
test.describe.configure({ timeout: 180_000 });

// What the reduced health holds, and what no viewer may read of the full one.
const LIVE_HEALTH_KEYS = ['budget', 'lastSuccessAt', 'level', 'locations', 'meanFixAgeS', 'message', 'state', 'timezone'];
const ADMIN_ONLY = ['"scopes"', '"plan"', '"byKind"', '"lastError"', '"notes"', '"source"', '"capabilities"', '"usedLastMinute"', '"fullHealth"'];

async function signInAs(appUrl: string, a: Account, address: string): Promise<string> {
  const res = await fetch(`${appUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { origin: appUrl, 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ name: a.name, password: a.password }),
  });
  expect(res.status, `sign-in of ${a.name}`).toBe(200);
  const m = /fleetmap_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '');
  return `fleetmap_session=${m![1]}`;
}

async function wallCookie(appUrl: string, adminCookie: string, routes: string): Promise<string> {
  const created = await fetch(`${appUrl}/api/admin/tokens`, { method: 'POST', headers: { origin: appUrl, cookie: adminCookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: `screen ${routes}`, routes }) });
  expect(created.status).toBe(201);
  const token = new URL((await created.json()).wallPath, appUrl).searchParams.get('token')!;
  return `fleetmap_wall=${token}`;
}

const get = (appUrl: string, path: string, cookie: string) => fetch(`${appUrl}${path}`, { headers: { cookie } });

/** A full answer, then a delta from it (waiting for the next version), as this caller gets them. */
async function fullAndDelta(appUrl: string, cookie: string): Promise<Array<{ text: string; body: LiveAnswer }>> {
  const fullText = await (await get(appUrl, '/api/live', cookie)).text();
  const full = JSON.parse(fullText) as LiveAnswer;
  let delta: { text: string; body: LiveAnswer } | null = null;
  await expect
    .poll(
      async () => {
        const text = await (await get(appUrl, `/api/live?since=${full.epoch}-${full.version}`, cookie)).text();
        delta = { text, body: JSON.parse(text) as LiveAnswer };
        return delta.body.kind === 'delta' && delta.body.version > full.version;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return [{ text: fullText, body: full }, delta!];
}

test('finding 1: viewers and wall tokens get the reduced health in full answers and deltas; administrators the full one', async ({ stack }) => {
  const viewerCookie = await signInAs(stack.appUrl, viewer, '10.1.0.1');
  const adminCookie = await signInAs(stack.appUrl, admin, '10.1.0.2');
  expect((await get(stack.appUrl, '/api/status', viewerCookie)).status).toBe(403);
  // The live data flows before the answers are read (the health has its plan and scopes by then).
  await expect.poll(async () => ((await (await get(stack.appUrl, '/api/live', viewerCookie)).json()) as LiveAnswer).health.level, { timeout: 120_000 }).toBe('business');
  const routesNow = async () => ((await (await get(stack.appUrl, '/api/routes', adminCookie)).json()) as RoutesResponse).routes;
  await expect.poll(async () => (await routesNow()).length, { timeout: 120_000 }).toBeGreaterThan(0);
  const wall = await wallCookie(stack.appUrl, adminCookie, (await routesNow())[0]!.code!);
  for (const [who, cookie] of [
    ['viewer', viewerCookie],
    ['wall token', wall],
  ] as const) {
    for (const { text, body } of await fullAndDelta(stack.appUrl, cookie)) {
      expect(Object.keys(body.health).sort(), `${who}, ${body.kind}`).toEqual(LIVE_HEALTH_KEYS);
      for (const field of ADMIN_ONLY) expect(text, `${who}, ${body.kind}`).not.toContain(field);
      expect((body.health as LiveHealth).budget.usedShare).toEqual(expect.any(Number));
    }
  }
  for (const { body } of await fullAndDelta(stack.appUrl, adminCookie)) {
    expect(body.fullHealth?.scopes, body.kind).toContain('gps:read');
    expect(body.fullHealth?.plan).toBe('API Business');
  }
});

test('finding 2: twenty parallel sign-ins under other names from an address past its free failures get one password checked', async ({ stack }) => {
  const from = '10.2.0.66';
  const attempt = (name: string) =>
    fetch(`${stack.appUrl}/api/auth/signin`, {
      method: 'POST',
      headers: { origin: stack.appUrl, 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ name, password: 'not the password' }),
    });
  // The ten free failures, then five more, each after the wait the last one set (1, 2, 4, 8, 16 s): the next
  // failure sets a wait of 32 s, long enough for a burst of twenty to arrive within it on a loaded machine (one of
  // 8 s was seen to be too short).
  for (let i = 0; i < 10; i++) expect((await attempt(`guess${i}`)).status).toBe(401);
  for (let i = 10; i < 15; i++) {
    const r = await attempt(`guess${i}`);
    expect(r.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, Number(r.headers.get('retry-after')) * 1000 + 200));
  }
  const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`other${i}`)));
  const statuses = burst.map((r) => r.status);
  expect(statuses.filter((s) => s === 401)).toHaveLength(1);
  expect(statuses.filter((s) => s === 429)).toHaveLength(19);
  // While the address waits, twenty more, the right password among them, check no password at all.
  const more = await Promise.all(Array.from({ length: 20 }, (_, i) => (i === 0 ? fetch(`${stack.appUrl}/api/auth/signin`, { method: 'POST', headers: { origin: stack.appUrl, 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify({ name: viewer.name, password: viewer.password }) }) : attempt(`late${i}`))));
  expect(more.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 429));
});

test('finding 4: a request target with # is refused, so the watch a viewer may not ask for is never read', async ({ stack }) => {
  const cookie = await signInAs(stack.appUrl, viewer, '10.4.0.1');
  const hashed = await rawRequest(stack.appUrl, '/api/live?x#&watch=5', { Cookie: cookie });
  expect(hashed.status).toBe(400);
  expect(hashed.body).toContain('never holds a fragment');
  expect((await rawRequest(stack.appUrl, '/api/live?watch=5', { Cookie: cookie })).status).toBe(403);
  expect((await rawRequest(stack.appUrl, '/api/live', { Cookie: cookie })).status).toBe(200);
});

test('finding 6: a form sign-in with next=/Ā is redirected there, percent-encoded, with its cookie', async ({ stack }) => {
  const res = await fetch(`${stack.appUrl}/api/auth/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.appUrl, 'x-forwarded-for': '10.6.0.1' },
    body: new URLSearchParams({ name: viewer.name, password: viewer.password, next: '/Ā' }),
  });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/%C4%80');
  expect(res.headers.get('set-cookie')).toMatch(/^fleetmap_session=[\w-]{43};/);
});

test('finding 7: the sign-in page shows fixed sentences, never the text of ?error=', async ({ stack }) => {
  const phishing = 'Your account is locked. Call +1 555 0100 to unlock it.';
  const html = await (await fetch(`${stack.appUrl}/signin?error=${encodeURIComponent(phishing)}`)).text();
  expect(html).not.toContain('555 0100');
  expect(html).toContain('The sign-in did not succeed; please try again.');
  const wrong = await (await fetch(`${stack.appUrl}/signin?error=credentials`)).text();
  expect(wrong).toContain('The name or the password is wrong.');
});

test('finding 10: a wall token limited to a route reads that route’s network and stops only', async ({ stack }) => {
  const adminCookie = await signInAs(stack.appUrl, admin, '10.10.0.1');
  await expect.poll(async () => ((await (await get(stack.appUrl, '/api/routes', adminCookie)).json()) as RoutesResponse).routes.length, { timeout: 120_000 }).toBeGreaterThan(1);
  const all = ((await (await get(stack.appUrl, '/api/routes', adminCookie)).json()) as RoutesResponse).routes;
  const [mine, other] = [all[0]!, all[1]!];
  const wall = await wallCookie(stack.appUrl, adminCookie, mine.code!);
  const routes = ((await (await get(stack.appUrl, '/api/routes', wall)).json()) as RoutesResponse).routes;
  expect(routes.map((r) => r.id)).toEqual([mine.id]);
  const network = (await (await get(stack.appUrl, '/api/network', wall)).json()) as NetworkResponse;
  expect(new Set(network.features.map((f) => f.properties.routeId))).toEqual(new Set(network.features.length ? [mine.id] : []));
  const fullNetwork = (await (await get(stack.appUrl, '/api/network', adminCookie)).json()) as NetworkResponse;
  expect(new Set(fullNetwork.features.map((f) => f.properties.routeId)).size).toBeGreaterThan(1);
  // Refused before the feed is asked: no lookup, upstream or cached.
  const refused = await get(stack.appUrl, `/api/routes/${other.id}/stops`, wall);
  expect(refused.status).toBe(403);
  expect((await get(stack.appUrl, `/api/routes/${mine.id}/stops`, wall)).status).toBe(200);
});

test('a redirect never sends the browser to the host a request named (no PUBLIC_URL)', async ({ stack }) => {
  const port = new URL(stack.appUrl).port;
  const a = await rawRequest(stack.appUrl, '/delays', { Host: `evil.example:${port}` });
  expect(a.status).toBe(303);
  expect(a.headers.location).toMatch(/^(\/|http:\/\/127\.0\.0\.1:\d+\/)signin\?next=%2Fdelays$/);
});
