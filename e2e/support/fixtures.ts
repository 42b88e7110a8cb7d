// Playwright fixtures: a worker-scoped stack (simulator + app) and a page that fails the test on console
// errors and on any request that leaves the app's own origin.
import { mkdirSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { THEME_STORAGE_KEY } from '@/lib/theme/theme';
import { startStack, startWithin, type Stack, type StackOptions } from './stack';

interface WorkerFixtures {
  stackOptions: StackOptions;
  stack: Stack;
}

interface TestFixtures {
  /** Console errors matching one of these are expected in this test (e.g. a 502 while a fault is on). */
  allowedConsoleErrors: RegExp[];
  /** Requests seen by the page that went to another origin than the app's. */
  foreignRequests: string[];
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  stackOptions: [{}, { scope: 'worker', option: true }],
  stack: [
    async ({ stackOptions }, use) => {
      // The fixture's own timeout (below) only stops a start that outlives this deadline's message.
      const stack = await startWithin(330_000, (progress) => startStack({ ...stackOptions, progress }));
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: 'worker', timeout: 360_000 },
  ],
  baseURL: async ({ stack }, use) => use(stack.appUrl),
  allowedConsoleErrors: [[], { option: true }],
  foreignRequests: async ({}, use) => use([]),
  page: async ({ page, stack, allowedConsoleErrors, foreignRequests }, use) => {
    const guard = guardPage(page, stack.appUrl, allowedConsoleErrors, foreignRequests);
    await use(page);
    guard.verify();
  },
});

/**
 * Records the page's console errors, uncaught exceptions and requests to any origin but the app's; verify()
 * fails the test on any of them. The `page` fixture does this for every test; a test that opens a page on a
 * stack of its own calls it itself.
 */
/**
 * Answers the app gives in normal operation that Chromium still logs as failed loads: a trip the recorder has not
 * written yet (it started a moment ago, or the store is still opening) is "not recorded" (404) until the trip
 * panel's next refresh.
 */
const EXPECTED_LOADS = [/status of 404 \(Not Found\) \(https?:\/\/[^)]*\/api\/history\/trips\/\d+\)$/];

export function guardPage(page: Page, appUrl: string, allowedConsoleErrors: readonly RegExp[] = [], foreignRequests: string[] = []) {
  const errors: string[] = [];
  const origin = new URL(appUrl).origin;
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A failed load names no address in its text; the console's location is the resource's.
    const where = msg.location().url;
    const text = where && !msg.text().includes(where) ? `${msg.text()} (${where})` : msg.text();
    if (![...EXPECTED_LOADS, ...allowedConsoleErrors].some((re) => re.test(text))) errors.push(text);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreignRequests.push(url);
  });
  return {
    verify() {
      expect(foreignRequests, 'requests to hosts other than the app').toEqual([]);
      expect(errors, 'console errors in the page').toEqual([]);
    },
  };
}

export { expect };

/** Reads the snapshot the app serves, as the browser would. */
export async function liveSnapshot(page: Page) {
  const res = await page.request.get('/api/live');
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/**
 * Screenshots of the page as it stands, in light and in dark (e2e/artifacts/NAME-THEME.png, at the configured
 * 1440×900): the theme is set in the page's storage and the page reloaded for each; `ready` waits until the
 * reloaded page shows what the screenshot is of.
 */
export async function screenshotInThemes(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  mkdirSync('e2e/artifacts', { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await ready();
    await page.screenshot({ path: `e2e/artifacts/${name}-${theme}.png` });
  }
}
