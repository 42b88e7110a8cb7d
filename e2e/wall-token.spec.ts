// A wall display on a token: an admin creates it, a fresh browser opens the wall with it (the token leaves the
// address bar for an HttpOnly cookie), the admin revokes it, and the open screen says so.
import { authTest, expect, REFUSED_LOADS, signIn, type Account } from './support/auth';

const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const test = authTest({ mode: 'local', accounts: [admin] });
test.use({ allowedConsoleErrors: REFUSED_LOADS });
test.describe.configure({ timeout: 150_000 });

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
