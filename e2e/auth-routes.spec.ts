// Every route in ROUTE_ACCESS against the built app with sign-in on, through a recording proxy in front of the
// simulator: without a session each answers 401 (pages: a redirect to the sign-in), with the role just below the
// one it needs each answers 403, and none of those answers costs an upstream request.
import { ROUTE_ACCESS, type RoutePattern } from '@/lib/auth/access';
import { ROLES, type Role } from '@/lib/model/access';
import { startAuthStack, type Account, type AuthStack } from './support/auth';
import { test as base, expect } from './support/fixtures';
import { partnerRecordingProxy, type UpstreamLog } from '@/lib/testing/harness';

const accounts: Account[] = ROLES.map((role) => ({ name: `${role}-user`, role, password: `${role}-password-123` }));

const test = base.extend<object, { upstreamLog: UpstreamLog; stack: AuthStack }>({
  upstreamLog: [async ({}, use) => use({ paths: [] }), { scope: 'worker' }],
  stack: [
    async ({ upstreamLog }, use) => {
      const proxy = await partnerRecordingProxy(upstreamLog);
      const stack = await startAuthStack({ mode: 'local', accounts, stack: { env: { PARTNER_API_BASE_URL: proxy.baseUrl } } });
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
test.describe.configure({ timeout: 300_000 });

// Ids no poller ever asks for (the simulator's trip ids are day-numbered, about 2.5·10^9; its routes number a few
// hundred), so any upstream request for them would have been caused by these calls.
const TRIP = '987654321';
const ROUTE = '987654';
const pathOf = (p: string) => p.replace('/api/trips/[id]', `/api/trips/${TRIP}`).replace('/api/routes/[id]', `/api/routes/${ROUTE}`).replace('[id]', '1').replace('[name]', 'viewer-user');
const METHOD: Partial<Record<RoutePattern, string>> = { '/api/auth/signin': 'POST', '/api/auth/signout': 'POST', '/api/admin/users/[name]/sessions': 'DELETE', '/api/admin/tokens/[id]': 'DELETE' };

async function signInAs(appUrl: string, role: Role): Promise<string> {
  const a = accounts.find((x) => x.role === role)!;
  const res = await fetch(`${appUrl}/api/auth/signin`, { method: 'POST', headers: { origin: appUrl, 'content-type': 'application/json' }, body: JSON.stringify({ name: a.name, password: a.password }) });
  expect(res.status).toBe(200);
  return /fleetmap_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
}

test('every route: 401 or the sign-in without a session, 403 one role too low, and no upstream request either way', async ({ stack, upstreamLog }) => {
  await expect.poll(() => upstreamLog.paths.filter((p) => p.path.endsWith('/location')).length, { timeout: 90_000 }).toBeGreaterThan(0);
  const sessions = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await signInAs(stack.appUrl, r)] as const))) as Record<Role, string>;
  const checked: string[] = [];
  for (const [pattern, access] of Object.entries(ROUTE_ACCESS) as Array<[RoutePattern, (typeof ROUTE_ACCESS)[RoutePattern]]>) {
    if (access.role === 'public') continue;
    const path = pathOf(pattern);
    const method = METHOD[pattern] ?? 'GET';
    const headers = { origin: stack.appUrl };
    const anonymous = await fetch(`${stack.appUrl}${path}`, { method, headers, redirect: 'manual' });
    // The API and the GTFS-Realtime feeds refuse in JSON (their callers are programs); pages redirect to the sign-in.
    if (pattern.startsWith('/api/') || pattern.startsWith('/gtfs-rt/')) {
      expect(anonymous.status, `${method} ${path} without a session`).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { status: 401, reason: 'sign-in-required' } });
    } else {
      expect(anonymous.status, `${path} without a session`).toBe(303);
      // Next.js may shorten a same-origin Location to its path.
      expect(new URL(anonymous.headers.get('location') ?? '', stack.appUrl).href).toBe(`${stack.appUrl}/signin?next=${encodeURIComponent(path)}`);
    }
    checked.push(`${method} ${path} anonymous`);
    const below = ROLES[ROLES.indexOf(access.role) - 1];
    if (!below) continue;
    const low = await fetch(`${stack.appUrl}${path}`, { method, headers: { ...headers, cookie: `fleetmap_session=${sessions[below]}` }, redirect: 'manual' });
    expect(low.status, `${method} ${path} as ${below}`).toBe(403);
    checked.push(`${method} ${path} as ${below}`);
  }
  // A viewer's watch is a dispatcher's right.
  const watch = await fetch(`${stack.appUrl}/api/live?watch=1`, { headers: { cookie: `fleetmap_session=${sessions.viewer}` } });
  expect(watch.status).toBe(403);
  console.info(`checked ${checked.length} refusals`);
  expect(checked.length).toBeGreaterThan(Object.keys(ROUTE_ACCESS).length);

  // The same on-demand routes with the right role do reach the upstream: proof that the log would have shown them.
  const allowed = await fetch(`${stack.appUrl}/api/trips/${TRIP}`, { headers: { cookie: `fleetmap_session=${sessions.dispatcher}` } });
  expect(allowed.status).toBe(404);
  await expect.poll(() => upstreamLog.paths.filter((p) => p.path === `/trips/${TRIP}`).length).toBe(1);
  expect(upstreamLog.paths.filter((p) => p.path === `/routes/${ROUTE}/stops`)).toEqual([]);
});
