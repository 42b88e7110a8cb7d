// A wall display on a token: an admin creates it, a fresh browser opens the wall with it (the token leaves the
// address bar for an HttpOnly cookie), the admin revokes it, and the open screen says so. A token limited to
// routes gets only their buses and trips, whatever it asks.
import { decodeCompactFull, decodeRoster, LIVE_COMPACT_SHAPE, LIVE_ROSTER_SHAPE, tripMatchesRouteToken, type CompactFull, type CompactRoster, type LiveAnswer } from '@/lib/model';
import { authTest, expect, REFUSED_LOADS, signIn, type Account } from './support/auth';

const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const test = authTest({ mode: 'local', accounts: [admin] });
test.use({ allowedConsoleErrors: REFUSED_LOADS });
test.describe.configure({ timeout: 300_000 });

test('create a wall token, open the wall with it in a fresh browser, revoke it: the screen says so', async ({ page, browser, stack }) => {
  await signIn(page, admin.name, admin.password, '/admin');
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByLabel('Display name').fill('depot screen 2');
  await page.getByRole('button', { name: 'Create wall token' }).click();
  const wallUrl = await page.getByLabel('Wall address').inputValue();
  expect(wallUrl).toMatch(new RegExp(`^${stack.appUrl}/wall\\?token=[\\w-]{43}$`));
  const token = new URL(wallUrl).searchParams.get('token')!;
  await page.getByRole('button', { name: 'Done' }).click();
  const tokens = page.getByRole('region', { name: 'Wall displays' });
  await expect(tokens.getByRole('cell', { name: 'depot screen 2', exact: true })).toBeVisible();

  const wallContext = await browser.newContext();
  const wall = await wallContext.newPage();
  await wall.goto(wallUrl);
  // The token is exchanged for the display's cookie and leaves the address bar.
  await expect(wall).toHaveURL(`${stack.appUrl}/wall`);
  const cookie = (await wallContext.cookies()).find((c) => c.name === 'fleetmap_wall');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(300 * 86_400_000);
  await expect(wall.getByLabel('Data age')).toBeVisible({ timeout: 60_000 });
  // The wall's token is for the wall: nothing else.
  expect((await wall.request.get(`${stack.appUrl}/api/trips/1`)).status()).toBe(403);
  expect((await wall.request.get(`${stack.appUrl}/`, { maxRedirects: 0 })).status()).toBe(403);

  // The admin page shows the first use, then revokes.
  await page.reload();
  const row = tokens.getByRole('row', { name: /depot screen 2/ });
  await expect(row).not.toContainText('never');
  await page.getByRole('button', { name: 'Revoke depot screen 2' }).click();
  await expect(row).toContainText('revoked');

  // The open screen learns it at its next poll; a reload gets the server's page with the same words.
  await expect(wall.getByRole('heading', { name: "This display's access was revoked" })).toBeVisible({ timeout: 60_000 });
  const reloaded = await wall.reload();
  expect(reloaded?.status()).toBe(401);
  await expect(wall.getByRole('heading', { name: "This display's access was revoked" })).toBeVisible();
  // The token itself, tried again in the URL, is refused the same way.
  const again = await wall.goto(`${stack.appUrl}/wall?token=${token}`);
  expect(again?.status()).toBe(401);

  // The audit log holds creation, first use and revocation.
  const audit = (await (await page.request.get('/api/admin/audit')).json()) as { entries: Array<{ event: string; subject: string }> };
  const events = audit.entries.filter((e) => e.subject === 'depot screen 2').map((e) => e.event);
  expect(events).toEqual(expect.arrayContaining(['token.created', 'token.first-use', 'token.revoked']));
  await wallContext.close();
});

/** The JSON object that starts at `start` in `text` (its braces matched, strings skipped); throws when there is none. */
function jsonObjectAt(text: string, start: number): string {
  if (start < 0 || text[start] !== '{') throw new Error('no object there');
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error('an object that does not end');
}

/** Every route an answer of /api/live names, on a bus or an unpositioned trip. */
function routesOf(a: LiveAnswer): Array<{ routeId: number | null; routeCode: string | null }> {
  return [...a.vehicles.map((v) => v.trip ?? { routeId: null, routeCode: null }), ...a.unpositionedTrips];
}

test('a token limited to routes gets only their buses and trips from /api/live, in full and in deltas', async ({ page, browser, stack }) => {
  await signIn(page, admin.name, admin.password, '/admin');
  await expect(page).toHaveURL(/\/admin$/);
  // A route with buses on it now, out of a network with others: what the admin sees is the whole fleet.
  let everything: LiveAnswer | null = null;
  await expect
    .poll(
      async () => {
        everything = (await (await page.request.get('/api/live')).json()) as LiveAnswer;
        return new Set(everything.vehicles.flatMap((v) => (v.trip?.routeCode ? [v.trip.routeCode] : []))).size;
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(1);
  const code = everything!.vehicles.find((v) => v.trip?.routeCode)!.trip!.routeCode!;

  await page.getByLabel('Display name').fill('route screen');
  await page.getByLabel('Routes (optional)').fill(code);
  await page.getByRole('button', { name: 'Create wall token' }).click();
  const wallUrl = await page.getByLabel('Wall address').inputValue();
  await page.getByRole('button', { name: 'Done' }).click();

  const wallContext = await browser.newContext();
  try {
    const wall = await wallContext.newPage();
    await wall.goto(wallUrl);
    await expect(wall).toHaveURL(/\/wall\?routes=/);
    // The display's cookie reads /api/live: whatever its URL asks, only the token's route comes back.
    const full = await wall.request.get(`${stack.appUrl}/api/live`);
    expect(full.status()).toBe(200);
    const limited = (await full.json()) as LiveAnswer;
    expect(limited.kind).toBe('full');
    expect(limited.vehicles.length).toBeGreaterThan(0);
    for (const r of routesOf(limited)) expect(tripMatchesRouteToken(r, code)).toBe(true);
    // Its roster (the buses' plates and names) holds its route's buses only, even asked for everyone's version.
    const rosterOf = async (request: typeof wall.request, query: string) => decodeRoster((await (await request.get(`${stack.appUrl}/api/live?shape=roster${query}`)).json()) as CompactRoster);
    const everyonesRoster = await rosterOf(page.request, '');
    const wallRoster = await rosterOf(wall.request, `&roster=${everyonesRoster.version}`);
    expect(wallRoster.busIds.length).toBeGreaterThan(0);
    expect(wallRoster.busIds.length).toBeLessThan(everyonesRoster.busIds.length);
    expect(wallRoster.version).not.toBe(everyonesRoster.version);
    // Its ETag is its own: the full one's is another answer, and its own gets a 304.
    const etag = full.headers()['etag']!;
    const adminAtOnce = await page.request.get('/api/live', { headers: { 'If-None-Match': etag } });
    expect(adminAtOnce.status()).toBe(200);
    expect(adminAtOnce.headers()['etag']).not.toBe(etag);
    const same = await wall.request.get(`${stack.appUrl}/api/live`, { headers: { 'If-None-Match': etag } });
    expect([200, 304]).toContain(same.status());
    if (same.status() === 200) expect(same.headers()['etag']).not.toBe(etag);
    // Deltas from the version it holds carry its route alone, even while other routes' buses move.
    let deltas = 0;
    await expect
      .poll(
        async () => {
          const d = (await (await wall.request.get(`${stack.appUrl}/api/live?since=${limited.epoch}-${limited.version}`)).json()) as LiveAnswer;
          for (const r of routesOf(d)) expect(tripMatchesRouteToken(r, code)).toBe(true);
          if (d.kind === 'delta' && d.version > limited.version) deltas++;
          return deltas;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    // The page itself carries no other route's bus either: its first snapshot, in the compact form (plates and ids
    // are not written out whole there), read out of the React payload in its HTML and decoded as the page decodes it.
    const html = await (await wall.request.get(`${stack.appUrl}/wall`)).text();
    const flight = [...html.matchAll(/self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/g)].map((m) => JSON.parse(m[1]!) as string).join('');
    const embeddedRoster = JSON.parse(jsonObjectAt(flight, flight.indexOf(`{"shape":"${LIVE_ROSTER_SHAPE}"`))) as CompactRoster;
    const embedded = decodeCompactFull(JSON.parse(jsonObjectAt(flight, flight.indexOf(`{"kind":"full","shape":"${LIVE_COMPACT_SHAPE}"`))) as CompactFull, decodeRoster(embeddedRoster));
    // Its roster holds its routes' buses only, as /api/live's roster for its token does.
    expect(decodeRoster(embeddedRoster).busIds).toEqual(embedded.vehicles.map((v) => v.busId));
    expect(embedded.vehicles.length).toBeGreaterThan(0);
    for (const r of routesOf({ kind: 'full', ...embedded })) expect(tripMatchesRouteToken(r, code)).toBe(true);
  } finally {
    await wallContext.close();
  }
});

test('a name typed before the admin page has started is the name the token gets', async ({ page }) => {
  await signIn(page, admin.name, admin.password, '/admin');
  await expect(page).toHaveURL(/\/admin$/);
  // The page again, with its scripts held back until the name is typed: the server's form, not React's yet (a
  // slow machine, a quick hand). A field mirrored in React state was emptied when the page started, and the
  // token was asked for with no name.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/**/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin', { waitUntil: 'commit' });
  await page.getByLabel('Display name').fill('early screen');
  release();
  // The button waits for the page's scripts (it is disabled until then), so this click is React's.
  await page.getByRole('button', { name: 'Create wall token' }).click();
  await expect(page.getByLabel('Wall address')).toHaveValue(/\/wall\?token=/);
  await expect(page.getByRole('region', { name: 'Wall displays' }).getByRole('cell', { name: 'early screen', exact: true })).toBeVisible();
});
