// The integration status page with an upstream fault injected through the simulator's admin: the errors appear
// with the correlation ids the upstream sent (the same ones the server logged), by kind, the health transition
// shows on the timeline, and the key's plan, scopes and limit are those the simulator gave it. A stack of its own:
// the page must see this fault, not an earlier spec's.
import type { IntegrationResponse } from '@/lib/model';
import { expect, screenshotInThemes, test } from './support/fixtures';

test.use({
  stackOptions: {
    ownStack: 'status',
    // 'degraded' lingers 20 s after an error here (2 min by default): the test waits for it at the start and for
    // the recovery at the end. A 4 s timeout keeps a slow simulator on a loaded machine from erring on its own.
    env: { PARTNER_TIMEOUT_MS: '4000', FEED_TRIPS_INTERVAL_S: '3', FEED_DEGRADED_WINDOW_S: '20' },
  },
});

/** Correlation ids of the upstream errors in the server's log lines. */
function loggedCorrelationIds(logs: string): Set<string> {
  const ids = new Set<string>();
  for (const line of logs.split('\n')) {
    if (!line.includes('"upstream error"')) continue;
    try {
      const id = (JSON.parse(line.slice(line.indexOf('{'))) as { correlationId?: string | null }).correlationId;
      if (id) ids.add(id);
    } catch {
      // another process's line
    }
  }
  return ids;
}

test('an injected 5xx fault shows on the status page with its correlation ids, by kind and on the timeline', async ({ page, stack, context }) => {
  test.setTimeout(300_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/status');
  const fact = (label: string) => page.locator(`[data-fact="${label}"]`);
  await expect(fact('Plan')).toHaveText('API Business', { timeout: 60_000 });
  await expect(fact('Level')).toHaveText('business');
  await expect(fact('Scopes')).toHaveText('buses:read, routes:read, stops:read, trips:read, gps:read');
  await expect(fact('Limit')).toHaveText('300 requests/min');
  // The recorder runs by default (embedded PGlite); "No recorder" when a server keeps no history.
  await expect(fact('Recorder')).toHaveText(/^(No recorder|(starting|recording|behind|failed) · )/);
  await expect(fact('Instance')).toHaveText(/^Single instance/);
  await expect(fact('Version')).toHaveText(/^\d+\.\d+\.\d+/);
  // 'inferring' until several fresh fixes agree and a later round confirms them: seconds on an idle machine, far
  // longer when the feed's location requests queue behind a loaded machine's other work.
  await expect(fact('Decided by')).toHaveText(/inferred|default/, { timeout: 150_000 });
  // The chart draws the requests already made.
  await expect(page.getByRole('img', { name: /^Requests per minute over the last hour by kind: [1-9]/ })).toBeVisible({ timeout: 60_000 });
  // Wait out any start-up error's degraded window, so the fault's transition is its own.
  await expect.poll(async () => ((await (await page.request.get('/api/integration')).json()) as IntegrationResponse).health.state, { timeout: 180_000 }).toBe('ok');

  // A loaded machine may have left a transition out of ok of its own before (a slow answer): the fault's is a new one.
  const timeline = page.getByRole('list', { name: 'Health transitions' });
  const leftOk = () => timeline.locator('[data-transition^="ok>"]').count();
  const leftOkBefore = await leftOk();
  await stack.setFaults({ errorRate: 1, errorStatuses: [503] });
  try {
    const errors = page.getByRole('table', { name: 'Upstream errors' });
    await expect(errors.locator('[data-correlation-id]').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('list', { name: 'Errors by kind' })).toContainText('HTTP 503');
    await expect.poll(leftOk, { timeout: 60_000 }).toBeGreaterThan(leftOkBefore);
  } finally {
    await stack.resetFaults();
  }
  const shown = await page.getByRole('table', { name: 'Upstream errors' }).locator('[data-correlation-id]').allTextContents();
  const logged = loggedCorrelationIds(stack.appLogs());
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.filter((id) => !logged.has(id)), 'ids on the page the server never logged').toEqual([]);

  // Copy hands the id to the clipboard as it is, for the API provider's support.
  const firstRow = page.getByRole('table', { name: 'Upstream errors' }).locator('tbody tr').first();
  const id = (await firstRow.locator('[data-correlation-id]').textContent())!;
  await firstRow.getByRole('button', { name: /^Copy/ }).click();
  await expect(firstRow.getByRole('button', { name: /^Copied/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  // Recovery shows as a transition back to ok, after the one the fault began with (the start's own "→ ok" precedes it).
  await expect
    .poll(async () => (await timeline.locator('[data-transition]').evaluateAll((items) => items.map((i) => i.getAttribute('data-transition')!))).slice(-1)[0], { timeout: 200_000 })
    .toMatch(/>ok$/);
  const states = await timeline.locator('[data-transition]').evaluateAll((items) => items.map((i) => i.getAttribute('data-transition')!));
  expect(states.findLastIndex((t) => t.startsWith('ok>'))).toBeLessThan(states.length - 1);
  await screenshotInThemes(page, 'page-status-after-fault', () => expect(page.getByRole('table', { name: 'Upstream errors' }).locator('[data-correlation-id]').first()).toBeVisible({ timeout: 60_000 }));
});
