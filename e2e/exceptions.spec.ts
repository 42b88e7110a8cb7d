// Exceptions end to end, with sign-in on: buses break down on the simulator, the dispatcher's panel shows a
// `stopped` exception, a dispatcher acknowledges it and a viewer cannot, the wall counts it, it resolves when the
// breakdown ends and the wall's count follows; axe finds nothing serious on the panel and on /exceptions.
// Short thresholds (one minute standing, 5 s holds) and a small fleet polled often keep each step to a minute or two
// on the simulator's real-time clock.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import type { LiveExceptionsResponse } from '@/lib/model';
import { authTest, expect, REFUSED_LOADS, signIn, type Account } from './support/auth';

const dispatcher: Account = { name: 'dana', role: 'dispatcher', password: 'dana-password-12' };
const viewer: Account = { name: 'vic', role: 'viewer', password: 'vic-password-123' };
const manager: Account = { name: 'mona', role: 'manager', password: 'mona-password-12' };

const test = authTest({
  mode: 'local',
  accounts: [dispatcher, viewer, manager],
  stack: {
    ownStack: 'exceptions',
    buses: 120,
    rateLimit: 1200,
    env: { ALERT_STOPPED_MIN: '1', ALERT_HOLD_S: '5', FEED_TRIPS_INTERVAL_S: '5' },
  },
});
test.use({ allowedConsoleErrors: REFUSED_LOADS });
test.describe.configure({ timeout: 600_000 });

// Only stops a hung step: a bus's stand needs a minute of fixes, then a hold, a poll and a render.
const OPENS_MS = 300_000;

async function axe(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Opens the panel's list: a click before the page has hydrated does nothing, so click until it says it is open. */
async function openPanel(panel: Locator): Promise<void> {
  const button = panel.getByRole('button', { name: /^Exceptions/ });
  await expect(async () => {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

async function wallCount(page: Page): Promise<number> {
  const item = page.getByRole('region', { name: 'Open exceptions' }).getByLabel(/^Stopped: \d+$/);
  if ((await item.count()) === 0) return 0;
  return Number(/(\d+)$/.exec((await item.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
}

test('a breakdown shows in the panel, a dispatcher acknowledges it and a viewer cannot, and it resolves with the wall following', async ({ page, stack, browser }) => {
  const admin = (path: string, body: unknown) => fetch(`${stack.simAdminUrl}/__admin/${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
  // Three buses break down (one may stand at a terminal, where stopping is no exception).
  const incidents = (await Promise.all([0, 1, 2].map(() => admin('incidents', { kind: 'breakdown', durationS: 3600 })))) as { id: number; busId: number }[];
  const broken = new Set(incidents.map((i) => i.busId));

  await signIn(page, dispatcher.name, dispatcher.password);
  await expect(page).toHaveURL(/\/$/);
  const panel = page.getByRole('region', { name: 'Exceptions' });
  await openPanel(panel);
  const item = panel.getByRole('listitem', { name: /^Critical Stopped: / }).filter({ has: page.getByRole('button', { name: 'Acknowledge' }) });
  await expect(item.first()).toBeVisible({ timeout: OPENS_MS });
  expect(await axe(page, 'section[aria-label="Exceptions"]')).toEqual([]);

  // Which bus: the live list names it; it must be one that broke down. Another bus may stand long enough to open
  // a stopped exception first (in traffic, or on a slow machine where its fixes lag): wait for one of the broken.
  const brokenStopped = async () => {
    const live = (await page.evaluate(() => fetch('/api/exceptions').then((r) => r.json()))) as LiveExceptionsResponse;
    return live.exceptions.filter((e) => e.rule === 'stopped' && e.state === 'open' && broken.has(e.subject.busId!));
  };
  await expect.poll(async () => (await brokenStopped()).length, { timeout: OPENS_MS }).toBeGreaterThan(0);
  const target = (await brokenStopped())[0]!;

  // The wall counts it (a viewer's wall).
  const viewerContext = await browser.newContext({ baseURL: stack.appUrl });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer.name, viewer.password);
  await expect(viewerPage).toHaveURL(/\/$/);
  const viewerPanel = viewerPage.getByRole('region', { name: 'Exceptions' });
  await openPanel(viewerPanel);
  await expect(viewerPanel.getByRole('listitem', { name: /^Critical Stopped: / }).first()).toBeVisible({ timeout: 60_000 });
  // A viewer reads: no acknowledge, no snooze, and the API refuses it.
  await expect(viewerPanel.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await expect(viewerPanel.getByRole('combobox', { name: /^Snooze/ })).toHaveCount(0);
  const refused = await viewerPage.evaluate((id) => fetch(`/api/exceptions/${id}/acknowledge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status), target.id);
  expect(refused).toBe(403);

  const wall = await viewerContext.newPage();
  await wall.goto('/wall');
  await expect.poll(() => wallCount(wall), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);

  // The dispatcher acknowledges it, with its bus's row.
  const row = panel.getByRole('listitem').filter({ hasText: target.message.split(' has not moved')[0]! }).filter({ has: page.getByRole('button', { name: 'Acknowledge' }) });
  await row.first().getByRole('button', { name: 'Acknowledge' }).click();
  await expect(panel.getByText(`Acknowledged by ${dispatcher.name}`).first()).toBeVisible({ timeout: 30_000 });
  const acked = (await page.evaluate(() => fetch('/api/exceptions').then((r) => r.json()))) as LiveExceptionsResponse;
  expect(acked.exceptions.find((e) => e.id === target.id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: dispatcher.name });

  // The breakdowns end: the exception resolves by itself, and the wall's count follows.
  const before = await wallCount(wall);
  for (const i of incidents) await admin(`incidents/${i.id}/end`, {});
  await expect
    .poll(async () => ((await page.evaluate(() => fetch('/api/exceptions').then((r) => r.json()))) as LiveExceptionsResponse).exceptions.find((e) => e.id === target.id)?.state, { timeout: OPENS_MS })
    .toBe('resolved');
  await expect.poll(() => wallCount(wall), { timeout: 60_000 }).toBeLessThan(before);
  await viewerContext.close();

  // A manager's history lists it, and axe finds nothing serious there.
  const managerContext = await browser.newContext({ baseURL: stack.appUrl });
  const managerPage = await managerContext.newPage();
  await signIn(managerPage, manager.name, manager.password, '/exceptions');
  await expect(managerPage).toHaveURL(/\/exceptions$/);
  await expect(managerPage.getByRole('region', { name: /Exceptions opened/ }).getByRole('row').filter({ hasText: 'Stopped' }).first()).toBeVisible({ timeout: 60_000 });
  expect(await axe(managerPage, 'body')).toEqual([]);
  await managerContext.close();
});
