import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, type TestStore } from '@/lib/testing/store';
import { ROLES, type Role } from '@/lib/model/access';
import { ROUTE_ACCESS, type RoutePattern } from './access';
import { authConfig } from './config';
import { guardRequest, type GuardOutcome } from './guard';
import { AuthService, SESSION_COOKIE, WALL_COOKIE } from './service';
import { AuthStore } from './store';

const ORIGIN = 'http://127.0.0.1:3106';
let opened: TestStore;
let service: AuthService;
const sessions = {} as Record<Role, string>;
let wallToken = '';
let revokedToken = '';

beforeAll(async () => {
  opened = await freshPgliteStore();
  service = new AuthService(authConfig({ AUTH_MODE: 'local' }), new AuthStore(opened.db));
  const ctx = { actor: 'test', address: null };
  for (const role of ROLES) {
    await service.putLocalUser(`${role}-user`, role, 'a long enough password', ctx);
    const r = await service.signInLocal(`${role}-user`, 'a long enough password', '10.0.0.1');
    if (!r.ok) throw new Error(r.message);
    sessions[role] = r.session;
  }
  wallToken = (await service.createWallToken('depot screen 2', ['M15'], { actor: 'admin-user', address: null })).token;
  const revoked = await service.createWallToken('old screen', null, { actor: 'admin-user', address: null });
  revokedToken = revoked.token;
  await service.revokeWallToken(revoked.row.id, { actor: 'admin-user', address: null });
});
afterAll(async () => opened?.dispose());

describe('feed tokens (role feed)', () => {
  it('read the feeds by ?token= or a bearer header, nothing else; a revoked one or a wall token gets 401', async () => {
    const ctx = { actor: 'admin-user', address: null };
    const feed = await service.createWallToken('trip planner', null, ctx, 'feed');
    expect(feed.row.kind).toBe('feed');
    for (const path of ['/gtfs-rt/vehicle-positions', '/gtfs-rt/trip-updates']) {
      expect((await request(`${path}?token=${feed.token}`)).kind, path).toBe('allow');
      expect((await request(path, { headers: { authorization: `Bearer ${feed.token}` } })).kind, path).toBe('allow');
    }
    // Anywhere else the token is nobody: the same 401 as no token at all.
    for (const path of ['/api/live', '/api/network', '/api/trips/1/predictions', '/wall']) {
      const o = await request(`${path}?token=${feed.token}`, { headers: { authorization: `Bearer ${feed.token}` } });
      expect(o.kind, path).toBe('respond');
      if (o.kind === 'respond') expect([401, 303], path).toContain(o.response.status);
    }
    // A wall token does not open a feed, nor a feed token a wall.
    expect(await json(await request(`/gtfs-rt/trip-updates?token=${wallToken}`))).toMatchObject({ status: 401 });
    expect((await request(`/wall?token=${feed.token}`)).kind).toBe('respond');
    await service.revokeWallToken(feed.row.id, ctx);
    expect(await json(await request(`/gtfs-rt/vehicle-positions?token=${feed.token}`))).toMatchObject({ status: 401 });
    expect(await json(await request('/gtfs-rt/vehicle-positions', { headers: { authorization: `Bearer ${feed.token}` } }))).toMatchObject({ status: 401 });
    // A signed-in viewer reads the feeds too.
    expect((await request('/gtfs-rt/vehicle-positions', { cookie: `${SESSION_COOKIE}=${sessions.viewer}` })).kind).toBe('allow');
  });
});

/** A concrete path for a route pattern ([id] → 1, [name] → ann). */
const pathOf = (pattern: string) => pattern.replace('[id]', '1').replace('[name]', 'ann');
const METHOD: Partial<Record<RoutePattern, string>> = {
  '/api/auth/signin': 'POST',
  '/api/auth/signout': 'POST',
  '/api/admin/users/[name]/sessions': 'DELETE',
  '/api/admin/tokens/[id]': 'DELETE',
};

function request(path: string, o: { method?: string; cookie?: string; headers?: Record<string, string> } = {}) {
  const method = o.method ?? 'GET';
  const headers = new Headers({ ...(o.cookie ? { cookie: o.cookie } : {}), ...(method !== 'GET' ? { origin: ORIGIN } : {}), host: '127.0.0.1:3106', ...o.headers });
  return guardRequest(service, { method, url: new URL(path, ORIGIN), headers });
}

async function json(o: GuardOutcome) {
  expect(o.kind).toBe('respond');
  return o.kind === 'respond' ? { status: o.response.status, body: (await o.response.json()) as { error: { reason: string; message: string } } } : null;
}

/** Programs call these: refusals come as JSON, not as a sign-in redirect. */
const answersJson = (pattern: string) => pattern.startsWith('/api/') || pattern.startsWith('/gtfs-rt/');

const entries = Object.entries(ROUTE_ACCESS) as Array<[RoutePattern, (typeof ROUTE_ACCESS)[RoutePattern]]>;

describe('guardRequest, every route', () => {
  it('without a session: API routes answer 401, pages redirect to the sign-in; public routes pass', async () => {
    for (const [pattern, access] of entries) {
      const path = pathOf(pattern);
      const o = await request(path, { method: METHOD[pattern] });
      if (access.role === 'public') {
        expect(o.kind, pattern).toBe('allow');
      } else if (answersJson(pattern)) {
        const r = await json(o);
        expect(r, pattern).toMatchObject({ status: 401, body: { error: { reason: 'sign-in-required' } } });
      } else {
        expect(o.kind, pattern).toBe('respond');
        if (o.kind !== 'respond') continue;
        expect(o.response.status, pattern).toBe(303);
        expect(o.response.headers.get('location'), pattern).toBe(`${ORIGIN}/signin?next=${encodeURIComponent(path)}`);
      }
    }
  });

  it('with a role below the route’s: 403; with the role or above: allowed', async () => {
    for (const [pattern, access] of entries) {
      if (access.role === 'public') continue;
      for (const role of ROLES) {
        const o = await request(pathOf(pattern), { method: METHOD[pattern], cookie: `${SESSION_COOKIE}=${sessions[role]}` });
        const enough = ROLES.indexOf(role) >= ROLES.indexOf(access.role);
        if (enough) expect(o.kind, `${pattern} as ${role}`).toBe('allow');
        else {
          expect(o.kind, `${pattern} as ${role}`).toBe('respond');
          if (o.kind === 'respond') expect(o.response.status, `${pattern} as ${role}`).toBe(403);
          if (answersJson(pattern)) expect((await json(o))?.body.error.reason).toBe('role-too-low');
        }
      }
    }
  });

  it('a viewer may not watch a bus (an upstream cost); a dispatcher may', async () => {
    expect((await json(await request('/api/live?watch=5', { cookie: `${SESSION_COOKIE}=${sessions.viewer}` })))?.status).toBe(403);
    expect((await request('/api/live?watch=5', { cookie: `${SESSION_COOKIE}=${sessions.dispatcher}` })).kind).toBe('allow');
  });

  it('a wall token opens the wall and what the wall reads, nothing else', async () => {
    const cookie = `${WALL_COOKIE}=${wallToken}`;
    for (const [pattern, access] of entries) {
      if (access.role === 'public') continue;
      const o = await request(pathOf(pattern), { method: METHOD[pattern], cookie });
      expect(o.kind === 'allow', pattern).toBe(Boolean((access as { wall?: true }).wall));
    }
    expect((await json(await request('/api/live?watch=5', { cookie })))?.status).toBe(403);
  });
});

describe('wall tokens in the URL', () => {
  it('are exchanged once for an HttpOnly cookie and dropped from the address', async () => {
    const o = await request(`/wall?token=${wallToken}&rotate=30`);
    expect(o.kind).toBe('respond');
    if (o.kind !== 'respond') return;
    expect(o.response.status).toBe(303);
    expect(o.response.headers.get('location')).toBe(`${ORIGIN}/wall?rotate=30`);
    const cookie = o.response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${WALL_COOKIE}=${wallToken}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
  });

  it('a revoked token gets the revoked page; its polls a 401 saying so', async () => {
    const page = await request(`/wall?token=${revokedToken}`);
    expect(page.kind).toBe('respond');
    if (page.kind !== 'respond') return;
    expect(page.response.status).toBe(401);
    expect(await page.response.text()).toContain('This display&#39;s access was revoked');
    const poll = await json(await request('/api/live', { cookie: `${WALL_COOKIE}=${revokedToken}` }));
    expect(poll).toMatchObject({ status: 401, body: { error: { reason: 'wall-token-revoked' } } });
  });

  it('an unknown token is not a session', async () => {
    expect((await json(await request('/api/live', { cookie: `${WALL_COOKIE}=nope` })))?.status).toBe(401);
  });
});

describe('CSRF', () => {
  const cookie = () => `${SESSION_COOKIE}=${sessions.admin}`;
  it('refuses a state-changing request from another origin, or one that names none', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, {}] as Array<Record<string, string>>) {
      const o = await guardRequest(service, { method: 'DELETE', url: new URL('/api/admin/tokens/1', ORIGIN), headers: new Headers({ cookie: cookie(), host: '127.0.0.1:3106', ...headers }) });
      expect((await json(o))?.body.error.reason, JSON.stringify(headers)).toBe('csrf');
    }
    // The sign-in form too (no session yet): login CSRF.
    const signIn = await guardRequest(service, { method: 'POST', url: new URL('/api/auth/signin', ORIGIN), headers: new Headers({ origin: 'https://evil.example', host: '127.0.0.1:3106' }) });
    expect((await json(signIn))?.status).toBe(403);
  });

  it('lets our own pages through (Origin, or Sec-Fetch-Site when Origin is absent)', async () => {
    expect((await request('/api/admin/tokens/1', { method: 'DELETE', cookie: cookie() })).kind).toBe('allow');
    const o = await guardRequest(service, { method: 'DELETE', url: new URL('/api/admin/tokens/1', ORIGIN), headers: new Headers({ cookie: cookie(), host: '127.0.0.1:3106', 'sec-fetch-site': 'same-origin' }) });
    expect(o.kind).toBe('allow');
  });
});

describe('AUTH_MODE=none', () => {
  it('lets everything through, as before sign-in existed', async () => {
    const open = new AuthService(authConfig({}), null);
    for (const [pattern] of entries) {
      const o = await guardRequest(open, { method: METHOD[pattern] ?? 'GET', url: new URL(pathOf(pattern), ORIGIN), headers: new Headers() });
      expect(o.kind, pattern).toBe('allow');
    }
  });
});
