// Sign-in through a real OpenID Connect provider started here on 127.0.0.1: authorization code with PKCE, roles
// from the `groups` claim, a role too low for a page refused, an account with no Fleetmap group refused at
// sign-in, sign-out here and at the provider (its end_session_endpoint). The client secret appears in no page,
// answer or log line.
import type { BrowserContext, Page } from '@playwright/test';
import { test as base, expect } from './support/fixtures';
import { startAuthStack, type AuthStack } from './support/auth';
import { startOidcProvider } from './support/oidc-provider';
import { freePort } from './support/stack';

const GROUPS = { maria: ['fleet-managers', 'staff'], victor: ['fleet-viewers'], sam: ['sales'], 'alex-1': ['fleet-viewers'], 'alex-2': ['fleet-managers'] };
// Two subjects of the provider that both call themselves alex (security review, issue 28, finding 9).
const NAMES = { 'alex-1': 'alex', 'alex-2': 'alex' };

type OidcStack = AuthStack & { oidcSecret: string; oidcIssuer: string };

const test = base.extend<object, { stack: OidcStack }>({
  stack: [
    async ({}, use) => {
      const appPort = await freePort();
      const appUrl = `http://127.0.0.1:${appPort}`;
      const provider = await startOidcProvider({ redirectUri: `${appUrl}/api/auth/oidc/callback`, groups: GROUPS, names: NAMES });
      try {
        const stack = await startAuthStack({
          mode: 'oidc',
          stack: { appPort },
          env: {
            PUBLIC_URL: appUrl,
            OIDC_ISSUER: provider.issuer,
            OIDC_CLIENT_ID: provider.clientId,
            OIDC_CLIENT_SECRET: provider.clientSecret,
            OIDC_SCOPES: 'openid profile groups',
            OIDC_ROLES_CLAIM: 'groups',
            OIDC_ROLE_MAP: 'fleet-managers=manager,fleet-viewers=viewer',
          },
        });
        try {
          await use(Object.assign(stack, { oidcSecret: provider.clientSecret, oidcIssuer: provider.issuer }));
        } finally {
          await stack.stop();
        }
      } finally {
        await provider.stop();
      }
    },
    { scope: 'worker', timeout: 360_000 },
  ],
});

test.describe.configure({ timeout: 300_000 });

/** Through Fleetmap's sign-in page and the provider's login and consent forms, as a person would. */
async function oidcSignIn(page: Page, login: string, next = '/') {
  await page.goto(`/signin?next=${encodeURIComponent(next)}`);
  await page.getByRole('link', { name: "Sign in with your organization's account" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function freshContext(browser: import('@playwright/test').Browser, appUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: appUrl });
  // The provider's development login page asks for a web font; this machine is offline.
  await context.route(/fonts\.googleapis\.com/, (r) => r.abort());
  return context;
}

test('a manager signs in through the provider, gets the role from the groups claim, and signs out', async ({ browser, stack }) => {
  const context = await freshContext(browser, stack.appUrl);
  const page = await context.newPage();
  await page.goto('/delays');
  await expect(page).toHaveURL(/\/signin\?next=%2Fdelays$/);
  await oidcSignIn(page, 'maria', '/delays');
  await expect(page).toHaveURL(`${stack.appUrl}/delays`);
  await expect(page.getByLabel('Signed in as')).toHaveText('maria (manager)');
  // The session cookie is HttpOnly and SameSite=Lax; the flow cookie is gone.
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'fleetmap_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  expect(cookies.find((c) => c.name === 'fleetmap_oidc')).toBeUndefined();
  // The admin page is above a manager.
  expect((await page.request.get('/api/admin/audit')).status()).toBe(403);

  // Sign-out ends our session, then the provider's (RP-initiated logout: its end-session page asks to confirm),
  // and comes back to the signed-out page.
  await page.getByRole('button', { name: 'Sign out' }).click();
  expect((await page.request.get('/api/live')).status()).toBe(401);
  await expect(page).toHaveURL(new RegExp(`^${stack.oidcIssuer}/session/end`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${stack.appUrl}/signin?signedOut=1`);
  // The provider's session is over too: signing in again asks for the account, not straight back in as maria.
  await page.getByRole('link', { name: "Sign in with your organization's account" }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await context.close();
});

test('a viewer from the claims is refused the delay board; an account with no Fleetmap group cannot sign in', async ({ browser, stack }) => {
  const context = await freshContext(browser, stack.appUrl);
  const page = await context.newPage();
  await oidcSignIn(page, 'victor');
  await expect(page).toHaveURL(`${stack.appUrl}/`);
  await expect(page.getByLabel('Signed in as')).toHaveText('victor (viewer)');
  await expect(page.getByRole('navigation', { name: 'Views' }).getByText('Delays')).toHaveCount(0);
  const refused = await page.goto('/delays');
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Not for your role' })).toBeVisible();
  expect((await page.request.get('/api/trips/1')).status()).toBe(403);
  await context.close();

  const other = await freshContext(browser, stack.appUrl);
  const page2 = await other.newPage();
  await oidcSignIn(page2, 'sam');
  await expect(page2).toHaveURL(/\/signin\?error=/);
  await expect(page2.locator('#signin-error')).toContainText('has no Fleetmap role');
  expect((await page2.request.get('/api/live')).status()).toBe(401);
  await other.close();
});

test('the client secret appears in no page, answer or log line', async ({ request, stack }) => {
  const secret = stack.oidcSecret;
  for (const path of ['/signin', '/api/auth/oidc/start', '/api/live', '/']) {
    const res = await request.get(`${stack.appUrl}${path}`, { maxRedirects: 0 });
    expect((await res.text()).includes(secret), path).toBe(false);
    expect(JSON.stringify(res.headers()).includes(secret), path).toBe(false);
  }
  expect(stack.appLogs()).toContain('Ready on');
  expect(stack.appLogs().includes(secret)).toBe(false);
});

test('two subjects with the same preferred_username get two accounts, each with its own role', async ({ browser, stack }) => {
  const first = await freshContext(browser, stack.appUrl);
  const page1 = await first.newPage();
  await oidcSignIn(page1, 'alex-1');
  await expect(page1.getByLabel('Signed in as')).toHaveText('alex (viewer)');
  const second = await freshContext(browser, stack.appUrl);
  const page2 = await second.newPage();
  await oidcSignIn(page2, 'alex-2', '/delays');
  await expect(page2).toHaveURL(`${stack.appUrl}/delays`);
  await expect(page2.getByLabel('Signed in as')).toHaveText(/^alex-[0-9a-z]{8} \(manager\)$/);
  // The first subject's account kept its own role: the second's sign-in gave it nothing (it used to be one
  // account named alex, whose role the last sign-in set).
  expect((await page1.request.get('/api/live')).status()).toBe(200);
  expect((await page1.request.get('/delays', { maxRedirects: 0 })).status()).toBe(403);
  await page1.reload();
  await expect(page1.getByLabel('Signed in as')).toHaveText('alex (viewer)');
  await first.close();
  await second.close();
});
