// What Fleetmap remembers, end to end on the built app: after a restart the map shows the buses it knew at once
// (restored from the store at their true ages, before any new upstream answer); the replay draws the fleet at a
// past moment as the history API gives it; and "yesterday" on the delay board equals a recomputation from the
// store (filled through the recorder with a simulated yesterday while the app was stopped).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { FleetMomentResponse, HistoryRouteFigures, LiveSnapshot } from '@/lib/model';
import { addDays } from '@/lib/time/calendar';
import { DELAY_COLUMNS } from '@/lib/view/delay-table';
import { historyRouteRows, sortRouteRows } from '@/lib/view/delays';
import { NOT_DERIVED, REGULARITY_COLUMNS } from '@/lib/view/regularity-table';
import { expect, test } from './support/fixtures';
import { placedBuses } from './support/map';
import { ROOT } from './support/stack';

test.use({ stackOptions: { ownStack: 'history' } });
test.describe.configure({ mode: 'serial' });

async function live(appUrl: string): Promise<LiveSnapshot> {
  return (await (await fetch(`${appUrl}/api/live`)).json()) as LiveSnapshot;
}

/** Ids of the buses the map places (read through its handle: overlay and clustered layer). */
async function drawnBusIds(page: Page): Promise<number[]> {
  return (await placedBuses(page)).map((b) => b.busId).sort((a, b) => a - b);
}

test('after a restart the map shows the buses it knew, restored at their true ages', async ({ page, stack }) => {
  // Let the app see buses and record them (the recorder writes every second).
  await expect.poll(async () => (await live(stack.appUrl)).vehicles.filter((v) => v.lat !== null).length, { timeout: 120_000 }).toBeGreaterThan(20);
  const before = await live(stack.appUrl);
  const placedBefore = before.vehicles.filter((v) => v.lat !== null).length;
  // The recorder has written them: the store's fleet at this moment holds as many buses.
  const stored = async () => ((await (await fetch(`${stack.appUrl}/api/history/fleet?at=${new Date().toISOString()}`)).json()) as FleetMomentResponse).vehicles.length;
  await expect.poll(stored, { timeout: 60_000 }).toBeGreaterThanOrEqual(placedBefore);
  let restartedAt = 0;
  await stack.restartApp(async () => {
    restartedAt = Date.now();
  });
  // The first answer after the restart already has the buses, fetched before the restart (restored, not polled).
  const first = await live(stack.appUrl);
  const restored = first.vehicles.filter((v) => v.lat !== null && v.fetchedAt !== null && v.fetchedAt < restartedAt);
  expect(restored.length).toBeGreaterThanOrEqual(placedBefore);
  // The start-up line of the restarted server says where history is kept and what it restored.
  const started = stack.appLogs().split('\n').filter((line) => line.includes('"msg":"Fleetmap started"'));
  expect(JSON.parse(started.at(-1) ?? '{}')).toMatchObject({ level: 'info', store: expect.stringMatching(/^PGlite in /), restored: { fixes: expect.any(Number) } });
  await page.goto('/');
  await expect.poll(async () => (await drawnBusIds(page)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(restored.length);
});

test('the replay draws the fleet at a past moment as the history gives it', async ({ page, stack }) => {
  // A moment a few seconds ago once enough buses have been recorded (4 fixes a second on this stack's key: how
  // many the store holds by now depends on how long the app has run, so the test waits for them).
  let at = 0;
  let expected: FleetMomentResponse = { at, vehicles: [], recorded: null };
  await expect
    .poll(
      async () => {
        const snap = await live(stack.appUrl);
        at = Math.floor((snap.generatedAt - 5_000) / 5_000) * 5_000;
        expected = (await (await fetch(`${stack.appUrl}/api/history/fleet?at=${new Date(at).toISOString()}`)).json()) as FleetMomentResponse;
        return expected.vehicles.length;
      },
      { timeout: 120_000 },
    )
    .toBeGreaterThan(20);
  await page.goto(`/replay?at=${new Date(at).toISOString()}`);
  await expect(page.getByLabel('Buses shown')).toHaveText(String(expected.vehicles.length), { timeout: 60_000 });
  await expect.poll(async () => drawnBusIds(page), { timeout: 60_000 }).toEqual(expected.vehicles.map((v) => v.busId).sort((a, b) => a - b));
});

test('a replay opened before the recording began says so, frames the network and offers the first recorded moment', async ({ page, stack }) => {
  const { recorded } = (await (await fetch(`${stack.appUrl}/api/history/fleet?at=${new Date().toISOString()}`)).json()) as FleetMomentResponse;
  expect(recorded).not.toBeNull();
  await page.goto(`/replay?at=${new Date(recorded!.from - 3_600_000).toISOString()}`);
  const notice = page.getByRole('status').filter({ hasText: 'Nothing was recorded this early.' });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(page.getByLabel('Buses shown')).toHaveText('0');
  // Not the whole world: the organization's stops and routes.
  await expect.poll(() => page.evaluate(() => window.__fleetmap?.map?.getZoom() ?? 0), { timeout: 60_000 }).toBeGreaterThan(8);
  await notice.getByRole('button', { name: /^Show / }).click();
  await expect.poll(async () => Number(await page.getByLabel('Buses shown').textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(notice).toHaveCount(0);
  expect(Date.parse(new URL(page.url()).searchParams.get('at')!)).toBeGreaterThanOrEqual(recorded!.from);
});

test('"yesterday" on the delay board equals a recomputation from the store', async ({ page, stack }) => {
  const clock = (await (await fetch(`${stack.simAdminUrl}/__admin/clock`)).json()) as { local: string; timezone: string };
  const offsetMinutes = (await live(stack.appUrl)).health.timezone.offsetMinutes!;
  const yesterday = addDays(clock.local.slice(0, 10), -1);
  const midnight = Date.parse(`${yesterday}T00:00:00Z`) - offsetMinutes * 60_000;
  let recomputed: (HistoryRouteFigures & { routeCode: string | null })[] = [];
  await stack.restartApp(async () => {
    // Two simulated hours of yesterday's late morning, through the recorder, into the app's own store.
    const res = spawnSync(
      process.execPath,
      [
        '--conditions=react-server',
        '--import',
        'tsx',
        join(ROOT, 'scripts', 'data', 'history-fill.ts'),
        '--dir',
        stack.dataDir,
        '--from',
        new Date(midnight + 10 * 3_600_000).toISOString(),
        '--to',
        new Date(midnight + 12 * 3_600_000).toISOString(),
        '--buses',
        '150',
        '--timezone',
        clock.timezone,
        '--date',
        yesterday,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 600_000 },
    );
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout.trim().split('\n').pop()!) as { routes: (HistoryRouteFigures & { routeCode: string | null })[] };
    recomputed = out.routes.map((r) => ({ ...r, routeName: null }));
  });
  expect(recomputed.length).toBeGreaterThan(5);
  await page.goto('/delays?period=yesterday');
  await expect(page.getByLabel('Period shown')).toContainText(`Service days ${yesterday}`, { timeout: 60_000 });
  const expected = sortRouteRows(historyRouteRows(recomputed), 'worstMin', 'desc').map((r) => [r.label, ...DELAY_COLUMNS.slice(1).map((c) => c.cell(r))]);
  const table = page.getByRole('table', { name: 'Delays per route' });
  const cells = () =>
    table.evaluate((t) =>
      Array.from(t.querySelectorAll('tbody tr'))
        .filter((tr) => tr.querySelector('th'))
        .map((tr) => [tr.querySelector('th [data-cell]')!.textContent!.trim(), ...Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())]),
    );
  await expect.poll(async () => (await cells()).map((row) => row.slice(0, DELAY_COLUMNS.length)), { timeout: 60_000 }).toEqual(expected);
  // The headway columns follow the delay columns: figures for a derived day, "not derived" for one the app has
  // not derived yet (the fill wrote the day while the app was stopped; the app derives it once it knows the network).
  await expect(table.getByRole('columnheader')).toHaveText([...DELAY_COLUMNS.map((c) => new RegExp(`^${c.label}`)), ...REGULARITY_COLUMNS.map((c) => c.label)]);
  for (const row of await cells()) {
    const headways = row.slice(DELAY_COLUMNS.length);
    expect(headways).toHaveLength(REGULARITY_COLUMNS.length);
    if (headways[0] === NOT_DERIVED) expect(headways).toEqual(REGULARITY_COLUMNS.map(() => NOT_DERIVED));
    else for (const cell of headways) expect(cell).toMatch(/^(n\/a|-?\d+(\.\d+)?%?)$/);
  }
  // The excess wait charts, per service day and by hour.
  await expect(page.getByRole('figure').filter({ hasText: 'Excess wait (EWT) per service day' })).toBeVisible();
  await expect(page.getByRole('figure').filter({ hasText: 'Excess wait (EWT) by hour of the day' })).toBeVisible();
});

test('a past period with nothing recorded says so instead of showing bare zeros', async ({ page }) => {
  await page.goto('/delays?period=custom&from=2020-01-06&to=2020-01-12');
  await expect(page.getByLabel('Period shown')).toContainText('2020-01-06');
  await expect(page.getByText('No trip was recorded on these service days.')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByLabel('Trips', { exact: true })).toHaveText('0');
  await expect(page.getByRole('figure').filter({ hasText: 'Excess wait (EWT) per service day' })).toContainText('No headways recorded in this period.');
});
