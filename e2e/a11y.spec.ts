// Every page, old and new, in light and dark, checked by axe-core (the accessibility engine most audits use)
// once its content has arrived: no serious or critical violation of WCAG 2.1 A/AA, and on the map pages none of
// the landmark findings either (each landmark named uniquely, all content inside one). A screenshot of each at
// 1440×900 goes to e2e/artifacts.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { authTest, signIn, type Account } from './support/auth';
import { expect, test } from './support/fixtures';

const ARTIFACTS = 'e2e/artifacts';
mkdirSync(ARTIFACTS, { recursive: true });
const THEME_STORAGE_KEY = 'fleetmap-theme';
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

interface PageCase {
  name: string;
  path: (theme: Theme) => string;
  /** Waits until the page shows its data, not a loading state. */
  ready: (page: Page) => Promise<void>;
  /** Rules checked at every impact on this page (the moderate findings fixed). */
  strictRules?: string[];
  /** Signs in first (the pages of a stack with sign-in on). */
  signIn?: boolean;
}

const LANDMARK_RULES = ['landmark-unique', 'region', 'landmark-one-main', 'landmark-no-duplicate-main'];

const PAGES: PageCase[] = [
  {
    name: 'dispatch',
    path: () => '/',
    ready: async (page) => {
      await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option').first()).toBeVisible({ timeout: 60_000 });
      await expect.poll(() => page.evaluate(() => Boolean(window.__fleetmap?.map.isStyleLoaded())), { timeout: 60_000 }).toBe(true);
    },
    strictRules: LANDMARK_RULES,
  },
  {
    name: 'ladder',
    path: () => '/ladder?route=M15,M101',
    ready: async (page) => {
      await expect(page.locator('[data-bus]').first()).toBeVisible({ timeout: 90_000 });
    },
  },
  {
    name: 'delays',
    path: () => '/delays',
    ready: async (page) => {
      // A route's row (its header cell), not the table's empty-state row.
      await expect(page.getByRole('table', { name: 'Delays per route' }).locator('tbody tr th').first()).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('heading', { name: 'Most delayed trips' })).toBeVisible();
    },
  },
  {
    name: 'wall',
    path: (theme) => `/wall?theme=${theme}`,
    ready: async (page) => {
      await expect(page.getByRole('region', { name: 'Active trips' }).locator('[data-value]')).toHaveText(/^[1-9]\d*$/, { timeout: 60_000 });
      await expect.poll(() => page.evaluate(() => Boolean(window.__fleetmap?.map.isStyleLoaded())), { timeout: 60_000 }).toBe(true);
    },
    strictRules: LANDMARK_RULES,
  },
  {
    name: 'fleet',
    path: () => '/fleet',
    ready: async (page) => {
      await expect(page.getByRole('table', { name: 'Fleet' }).getByRole('row').nth(1)).toBeVisible({ timeout: 60_000 });
    },
    strictRules: LANDMARK_RULES,
  },
  {
    name: 'replay',
    // A moment the store holds: a little while ago on this stack, which records from its start.
    path: () => `/replay?at=${new Date(Date.now() - 10_000).toISOString()}`,
    ready: async (page) => {
      await expect(page.getByLabel('Buses shown')).toHaveText(/^\d+$/, { timeout: 60_000 });
      await expect.poll(() => page.evaluate(() => Boolean(window.__fleetmap?.map.isStyleLoaded())), { timeout: 60_000 }).toBe(true);
    },
    strictRules: LANDMARK_RULES,
  },
  {
    name: 'status',
    path: () => '/status',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Budget use per minute, last hour' })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('img', { name: /^Requests per minute over the last hour/ })).toBeVisible({ timeout: 60_000 });
    },
    strictRules: LANDMARK_RULES,
  },
];

// The pages of sign-in itself, on a stack with local accounts: the form, and the admin's console with a wall
// token and the audit log in it.
const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const SIGN_IN_PAGES: PageCase[] = [
  {
    name: 'signin',
    path: () => '/signin?next=%2F',
    ready: async (page) => {
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
    },
    strictRules: LANDMARK_RULES,
  },
  {
    name: 'admin',
    path: () => '/admin',
    signIn: true,
    ready: async (page) => {
      const tokens = page.getByRole('region', { name: 'Wall displays' });
      await expect(tokens).toBeVisible({ timeout: 60_000 });
      // A token in the table, and the audit log's rows. (Made by the first test of this stack; the list may still be
      // loading when it is counted, so a second one is harmless.)
      if ((await tokens.getByRole('cell', { name: 'lobby screen', exact: true }).count()) === 0) {
        await page.getByLabel('Display name').fill('lobby screen');
        await page.getByRole('button', { name: 'Create wall token' }).click();
        await page.getByRole('button', { name: 'Done' }).click();
      }
      await expect(tokens.getByRole('cell', { name: 'lobby screen', exact: true }).first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Audit log' }).getByRole('row').nth(1)).toBeVisible();
    },
    strictRules: LANDMARK_RULES,
  },
];
const signedInTest = authTest({ mode: 'local', accounts: [admin] });

for (const [t, pages] of [
  [test, PAGES],
  [signedInTest, SIGN_IN_PAGES],
] as const) {
  for (const p of pages) {
    for (const theme of THEMES) {
      t(`${p.name} (${theme}): no serious or critical accessibility violation`, async ({ page }) => {
        test.setTimeout(300_000);
        await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
        if (p.signIn) {
          await signIn(page, admin.name, admin.password, p.path(theme));
          await expect(page).toHaveURL(new RegExp(`${p.path(theme).replace(/[?]/g, '\\?')}$`));
        } else await page.goto(p.path(theme));
        await p.ready(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const results = await new AxeBuilder({ page })
          // Experimental in axe, so off by default: a link or button whose name does not contain its visible text.
          // (options() replaces every option: it comes before withTags.)
          .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
          .analyze();
        const describe = (v: (typeof results.violations)[number]) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}): ${v.nodes
            .slice(0, 4)
            .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`)
            .join(' | ')}`;
        const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || p.strictRules?.includes(v.id));
        const others = results.violations.filter((v) => !blocking.includes(v));
        if (others.length) test.info().annotations.push({ type: 'axe (not blocking)', description: others.map(describe).join('\n') });
        expect(blocking.map(describe), `axe violations on ${p.path(theme)} (${theme})`).toEqual([]);
        // Whatever the data, the page is what a person sees: the screenshot waits for nothing else.
        await page.screenshot({ path: `${ARTIFACTS}/page-${p.name}-${theme}.png` });
      });
    }
  }
}
