// Local accounts (AUTH_MODE=local, added with `npm run users`): sign-in through the form, the role in the header
// and its limits, sign-out, wrong passwords throttled with a growing wait, and an admin signing a user out
// everywhere (the open page notices at its next poll).
import { authTest, expect, REFUSED_LOADS, signIn, type Account } from './support/auth';

const viewer: Account = { name: 'vera', role: 'viewer', password: 'vera-password-1' };
const dispatcher: Account = { name: 'dan', role: 'dispatcher', password: 'dan-password-12' };
const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const victim: Account = { name: 'tess', role: 'manager', password: 'tess-password-1' };

const test = authTest({ mode: 'local', accounts: [viewer, dispatcher, admin, victim] });
test.use({ allowedConsoleErrors: REFUSED_LOADS });
test.describe.configure({ timeout: 300_000 });

test('a viewer signs in, sees the map but nothing above the role, and signs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin\?next=%2F$/);
  await signIn(page, viewer.name, viewer.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Signed in as')).toHaveText('vera (viewer)');
  await expect(page.getByRole('navigation', { name: 'Views' }).getByText('Delays')).toHaveCount(0);
  // The live data flows; on-demand upstream calls and the delay board are the dispatcher's and manager's.
  expect((await page.request.get('/api/live')).status()).toBe(200);
  expect((await page.request.get('/api/live?watch=1')).status()).toBe(403);
  expect((await page.request.get('/api/trips/1')).status()).toBe(403);
  const board = await page.request.get('/delays', { maxRedirects: 0 });
  expect(board.status()).toBe(403);
  expect(await board.text()).toContain('Your role (viewer) does not include this');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  expect((await page.request.get('/api/live')).status()).toBe(401);
});

test('wrong passwords are throttled with a growing wait; even the right one waits it out', async ({ page }) => {
  const alert = page.locator('#signin-error');
  let wait = 0;
  // Each failure past the free ones doubles the wait the server names; wait it out and fail again until it is
  // long enough that the next attempt certainly falls inside it.
  for (let attempt = 0; attempt < 12 && wait < 16; attempt++) {
    await signIn(page, dispatcher.name, 'not the password');
    await expect(alert).toContainText(/wrong|Too many/);
    const m = /try again in (\d+) s/.exec((await alert.textContent()) ?? '');
    wait = m ? Number(m[1]) : 0;
    if (wait > 0 && wait < 16) await page.waitForTimeout(wait * 1000 + 200);
  }
  expect(wait).toBeGreaterThanOrEqual(16);
  await signIn(page, dispatcher.name, dispatcher.password);
  await expect(alert).toContainText(/^Too many failed sign-ins: try again in \d+ s\.$/);
  await expect(page).toHaveURL(/\/signin\?error=/);
});

test('an admin signs a user out everywhere; the user’s open page goes to the sign-in', async ({ browser, stack }) => {
  const userContext = await browser.newContext({ baseURL: stack.appUrl });
  const userPage = await userContext.newPage();
  await signIn(userPage, victim.name, victim.password, '/delays');
  await expect(userPage).toHaveURL(/\/delays$/);

  const adminContext = await browser.newContext({ baseURL: stack.appUrl });
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.name, admin.password, '/admin');
  await expect(adminPage).toHaveURL(/\/admin$/);
  const signOutTess = adminPage.getByRole('button', { name: 'Sign out everywhere: tess' });
  await expect(signOutTess).toBeEnabled();
  await signOutTess.click();
  await expect(signOutTess).toBeDisabled();

  // The delay board polls /api/live: its next answer is a 401, and the page goes to the sign-in.
  await expect(userPage).toHaveURL(/\/signin\?next=%2Fdelays$/, { timeout: 60_000 });
  await expect(adminPage.getByRole('cell', { name: 'sessions.revoked' }).first()).toBeVisible({ timeout: 40_000 });
  await userContext.close();
  await adminContext.close();
});
