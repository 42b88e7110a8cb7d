// GTFS-Realtime feed tokens with sign-in on: an admin issues one in the admin page, a consumer with no session
// reads both feeds with it (in the query or as a bearer token) and decodes real protobuf, while the same token
// opens nothing else: the API and the pages refuse it. Once revoked, the feeds answer 401.
import type { APIRequestContext, Page } from '@playwright/test';
import { transit_realtime } from 'gtfs-realtime-bindings';
import { authTest, expect, REFUSED_LOADS, signIn, type Account } from './support/auth';

const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const test = authTest({ mode: 'local', accounts: [admin] });
test.use({ allowedConsoleErrors: REFUSED_LOADS });
test.describe.configure({ timeout: 180_000 });

interface IssuedFeed {
  token: string;
  vehiclePositions: string;
  tripUpdates: string;
}

/** Issues a feed token through the admin page, as an admin would, and reads the two addresses it shows once. */
async function issueFeedToken(page: Page, name: string): Promise<IssuedFeed> {
  await signIn(page, admin.name, admin.password, '/admin');
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Kind').selectOption('feed');
  await page.getByRole('button', { name: 'Create wall token' }).click();
  const vehiclePositions = await page.getByLabel('Vehicle positions feed address').inputValue();
  const tripUpdates = await page.getByLabel('Trip updates feed address').inputValue();
  await page.getByRole('button', { name: 'Done' }).click();
  const token = new URL(vehiclePositions).searchParams.get('token')!;
  expect(token).toMatch(/^[\w-]{43}$/);
  expect(new URL(tripUpdates).searchParams.get('token')).toBe(token);
  await expect(page.getByRole('region', { name: 'Wall displays' }).getByRole('cell', { name: `${name} (GTFS-Realtime feed)`, exact: true })).toBeVisible();
  return { token, vehiclePositions, tripUpdates };
}

/** One feed read: its status, and its message decoded by gtfs-realtime-bindings when it answered 200. */
async function readFeed(api: APIRequestContext, url: string, headers: Record<string, string> = {}) {
  const res = await api.get(url, { headers });
  const message = res.status() === 200 ? transit_realtime.FeedMessage.decode(await res.body()) : null;
  return { status: res.status(), contentType: res.headers()['content-type'], message };
}

test('a feed token reads both GTFS-Realtime feeds, in the query or as a bearer token, and nothing else', async ({ page, playwright, stack }) => {
  const feed = await issueFeedToken(page, 'trip planner');
  // A consumer of its own: no cookie, no session, only the token.
  const api = await playwright.request.newContext({ baseURL: stack.appUrl });
  try {
    // Without the token the feed is closed: the token is what opens it.
    expect((await readFeed(api, '/gtfs-rt/vehicle-positions')).status).toBe(401);

    // Vehicle positions by the address the admin page gave: protobuf, GTFS-RT 2.0, full dataset, located buses.
    let positions: transit_realtime.FeedMessage | null = null;
    await expect
      .poll(
        async () => {
          const r = await readFeed(api, feed.vehiclePositions);
          expect(r.status).toBe(200);
          expect(r.contentType).toBe('application/x-protobuf');
          positions = r.message;
          return positions!.entity.filter((e) => e.vehicle?.position).length;
        },
        { timeout: 90_000 },
      )
      .toBeGreaterThan(0);
    expect(positions!.header.gtfsRealtimeVersion).toBe('2.0');
    expect(positions!.header.incrementality).toBe(transit_realtime.FeedHeader.Incrementality.FULL_DATASET);
    const vp = positions!.entity.find((e) => e.vehicle?.position)!.vehicle!;
    expect(vp.vehicle?.id).toMatch(/^\S+$/);
    expect(Math.abs(vp.position!.latitude)).toBeGreaterThan(0);

    // Trip updates with the token as a bearer header instead: trips with their remaining stops' times.
    await expect
      .poll(
        async () => {
          const r = await readFeed(api, '/gtfs-rt/trip-updates', { Authorization: `Bearer ${feed.token}` });
          expect(r.status).toBe(200);
          return r.message!.entity.filter((e) => (e.tripUpdate?.stopTimeUpdate?.length ?? 0) > 0).length;
        },
        { timeout: 90_000 },
      )
      .toBeGreaterThan(0);
    // The readable copy is the same feed.
    const json = await api.get(`/gtfs-rt/trip-updates?format=json&token=${feed.token}`);
    expect(json.status()).toBe(200);
    expect(((await json.json()) as { header: { gtfsRealtimeVersion: string } }).header.gtfsRealtimeVersion).toBe('2.0');

    // Nothing else: the API refuses the token in the query and as a bearer header, the pages send to the sign-in,
    // and the wall will not take it for a display's.
    for (const path of ['/api/live', '/api/trips/1/predictions', '/api/stops/1/arrivals', '/api/network']) {
      const inQuery = await api.get(`${path}?token=${feed.token}`);
      expect(inQuery.status(), `${path}?token=`).toBe(401);
      expect(((await inQuery.json()) as { error: { status: number } }).error.status).toBe(401);
      expect((await api.get(path, { headers: { Authorization: `Bearer ${feed.token}` } })).status(), `${path} with a bearer token`).toBe(401);
    }
    for (const path of ['/', '/admin', '/ladder']) {
      const res = await api.get(`${path}?token=${feed.token}`, { maxRedirects: 0 });
      expect(res.status(), path).toBe(303);
      expect(res.headers()['location']).toMatch(/\/signin\?next=/);
    }
    const wall = await api.get(`/wall?token=${feed.token}`, { maxRedirects: 0 });
    expect(wall.status()).toBe(401);
    expect(wall.headers()['set-cookie']).toBeUndefined();
    // Having used the feeds took no session either: the API is still closed to this consumer.
    expect((await api.get('/api/live')).status()).toBe(401);
  } finally {
    await api.dispose();
  }

  // The admin page shows the token was used.
  await page.reload();
  const row = page.getByRole('region', { name: 'Wall displays' }).getByRole('row', { name: /trip planner/ });
  await expect(row).not.toContainText('never');
  await expect(row).toContainText('active');
});

test('a revoked feed token gets 401 from both feeds, in the query and as a bearer token', async ({ page, playwright, stack }) => {
  const feed = await issueFeedToken(page, 'journey app');
  const api = await playwright.request.newContext({ baseURL: stack.appUrl });
  try {
    // It works first.
    expect((await readFeed(api, feed.vehiclePositions)).status).toBe(200);
    expect((await readFeed(api, feed.tripUpdates)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke journey app' }).click();
    await expect(page.getByRole('region', { name: 'Wall displays' }).getByRole('row', { name: /journey app/ })).toContainText('revoked');

    for (const url of [feed.vehiclePositions, feed.tripUpdates]) {
      const res = await api.get(url);
      expect(res.status(), url).toBe(401);
      expect(res.headers()['content-type']).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { status: number; message: string } }).error).toMatchObject({ status: 401, message: 'This feed token is unknown or was revoked.' });
    }
    for (const path of ['/gtfs-rt/vehicle-positions', '/gtfs-rt/trip-updates']) {
      expect((await api.get(path, { headers: { Authorization: `Bearer ${feed.token}` } })).status(), `${path} with a bearer token`).toBe(401);
    }
  } finally {
    await api.dispose();
  }
  const audit = (await (await page.request.get('/api/admin/audit')).json()) as { entries: Array<{ event: string; subject: string }> };
  const events = audit.entries.filter((e) => e.subject === 'journey app').map((e) => e.event);
  expect(events).toEqual(expect.arrayContaining(['token.created', 'token.first-use', 'token.revoked']));
});
