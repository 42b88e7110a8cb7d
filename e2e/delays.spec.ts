// The delay board against the real app and simulator: its figures are recomputed here from the very snapshot
// the page shows (captured from the page's own /api/live answers), its CSV equals its table, and a trip link
// opens the dispatcher map on that trip.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { LiveSnapshot } from '@/lib/model';
import { activeTrips } from '@/lib/view/trips';
import { filterBoardTrips, routeDelayRows, sortRouteRows, type RouteSortKey, type SortDirection } from '@/lib/view/delays';
import { DELAY_COLUMNS } from '@/lib/view/delay-table';
import { expect, guardPage, test } from './support/fixtures';
import { captureLive } from './support/live-capture';
import { startStack } from './support/stack';

/** The table as rendered: one array of cell texts per data row (route code first, as in DELAY_COLUMNS). */
async function renderedTable(page: Page): Promise<string[][]> {
  return page.getByRole('table', { name: 'Delays per route' }).evaluate((table) =>
    Array.from(table.querySelectorAll('tbody tr'))
      .filter((tr) => tr.querySelector('th'))
      .map((tr) => [tr.querySelector('th [data-cell]')!.textContent!.trim(), ...Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())]),
  );
}

function expectedTable(snap: LiveSnapshot, t: { lateMin: number; earlyMin: number }, sort: RouteSortKey, dir: SortDirection, direction: string | null = null) {
  const trips = filterBoardTrips(activeTrips(snap), { routeKeys: [], direction });
  return sortRouteRows(routeDelayRows(trips, t), sort, dir).map((r) => DELAY_COLUMNS.map((c) => c.cell(r)));
}

/**
 * Pauses the board once it shows a snapshot that came over /api/live (the first one, rendered into the page's
 * HTML, is not on the wire), and returns the snapshot it holds.
 */
async function pause(page: Page, bodies: Map<number, LiveSnapshot>): Promise<LiveSnapshot> {
  await expect
    .poll(async () => bodies.has(Number(await page.getByLabel('Snapshot version').textContent())), { message: 'the page shows a snapshot it polled', timeout: 30_000 })
    .toBe(true);
  await page.getByRole('button', { name: 'Pause updates' }).click();
  return pausedSnapshot(page, bodies);
}

async function pausedSnapshot(page: Page, bodies: Map<number, LiveSnapshot>): Promise<LiveSnapshot> {
  const version = Number(await page.getByLabel('Snapshot version').textContent());
  await expect.poll(() => bodies.has(version), { message: `the page's snapshot ${version} was captured` }).toBe(true);
  return bodies.get(version)!;
}

/** A minimal CSV reader for the board's own output (quoted fields, doubled quotes). */
function parseCsv(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => Array.from(line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g), (m) => m[1]!).slice(0, -1).map((f) => (f.startsWith('"') ? f.slice(1, -1).replace(/""/g, '"') : f)));
}

test('the board shows per-route figures equal to a recomputation of the same snapshot, and follows the thresholds', async ({ page }) => {
  const bodies = await captureLive(page);
  await page.goto('/delays');
  await expect(page.getByRole('heading', { name: 'Delay board' })).toBeVisible();
  // Wait for the feed to have active trips before freezing the moment.
  await expect.poll(async () => Number(await page.getByLabel('Active trips').textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
  const snap = await pause(page, bodies);

  expect(await renderedTable(page)).toEqual(expectedTable(snap, snap.thresholds, 'worstMin', 'desc'));
  await page.screenshot({ path: 'e2e/artifacts/delays-board.png', fullPage: true });

  // Adjusted thresholds change the table the same way lib/view/delays does.
  await page.getByLabel('Late threshold (minutes)').fill('2');
  await page.getByLabel('Early threshold (minutes)').fill('3');
  expect(await renderedTable(page)).toEqual(expectedTable(snap, { lateMin: 2, earlyMin: 3 }, 'worstMin', 'desc'));

  // Every column sorts; a second click reverses.
  await page.getByRole('button', { name: 'Late', exact: true }).click();
  expect(await renderedTable(page)).toEqual(expectedTable(snap, { lateMin: 2, earlyMin: 3 }, 'late', 'desc'));
  await page.getByRole('button', { name: 'Route', exact: true }).click();
  await page.getByRole('button', { name: 'Route', exact: true }).click();
  expect(await renderedTable(page)).toEqual(expectedTable(snap, { lateMin: 2, earlyMin: 3 }, 'route', 'desc'));

  // A bad threshold is refused with a message and the last good one stays in force.
  await page.getByLabel('Late threshold (minutes)').fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'Late threshold' })).toHaveText('Late threshold must be between 1 and 1440 minutes');
  expect(await renderedTable(page)).toEqual(expectedTable(snap, { lateMin: 2, earlyMin: 3 }, 'route', 'desc'));

  const directions = [...new Set(activeTrips(snap).map((t) => t.direction).filter((d): d is string => d !== null))];
  if (directions.length) {
    await page.getByLabel('Direction').selectOption(directions[0]!);
    expect(await renderedTable(page)).toEqual(expectedTable(snap, { lateMin: 2, earlyMin: 3 }, 'route', 'desc', directions[0]!));
  }
});

test('the CSV export equals the table as shown, with its moment and thresholds', async ({ page }) => {
  const bodies = await captureLive(page);
  await page.goto('/delays');
  await expect.poll(async () => Number(await page.getByLabel('Active trips').textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
  const snap = await pause(page, bodies);
  await page.getByLabel('Late threshold (minutes)').fill('4');
  await page.getByRole('button', { name: 'On-time share', exact: true }).click();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^fleetmap-delays-.*\.csv$/);
  const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
  const header = csv.filter((l) => l[0]!.startsWith('#'));
  expect(header).toContainEqual(['# Data at', new Date(snap.generatedAt).toISOString()]);
  expect(header).toContainEqual(['# Late threshold (min)', '>= 4']);
  expect(header).toContainEqual(['# Early threshold (min)', `<= -${snap.thresholds.earlyMin}`]);
  expect(header).toContainEqual(['# Sort', 'On-time share descending']);
  const body = csv.filter((l) => !l[0]!.startsWith('#'));
  expect(body[0]).toEqual(['Route', 'Route name', ...DELAY_COLUMNS.slice(1).map((c) => c.label)]);
  // The file has the route name as its own column; the rest is the table cell for cell.
  const fileRows = body.slice(1).map(([route, , ...rest]) => [route!, ...rest]);
  const table = await renderedTable(page);
  expect(table.length).toBeGreaterThan(0);
  expect(fileRows).toEqual(table);
  expect(table).toEqual(expectedTable(snap, { lateMin: 4, earlyMin: snap.thresholds.earlyMin }, 'onTimeShare', 'desc'));
});

test('a most-delayed trip opens the map with that trip selected', async ({ page }) => {
  await page.goto('/delays');
  const list = page.getByRole('region', { name: 'Most delayed trips' });
  const first = list.getByRole('link').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  const href = await first.getAttribute('href');
  const tripId = Number(/trip=(\d+)/.exec(href ?? '')?.[1]);
  expect(tripId).toBeGreaterThan(0);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`[?&]trip=${tripId}(&|$)`));
  // The dispatcher's trip panel names the selected trip.
  await expect(page.getByText(new RegExp(`Trip #${tripId}\\b`))).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'e2e/artifacts/delays-trip-link.png' });
});

// The board needs trips only. stackOptions is worker-scoped, so the Standard-plan stack (no gps:read: the feed
// never learns a position) is started here for this one test.
test('works on a key without GPS: the same figures, from trips alone', async ({ browser }) => {
  // A stack of its own: starting it alone can take minutes beside the other workers on a loaded machine (it ran out
  // of 180 s once), as the fixtures' stacks may (startWithin 330 s).
  test.setTimeout(480_000);
  const std = await startStack({ key: 'standard' });
  const page = await browser.newPage({ baseURL: std.appUrl });
  const guard = guardPage(page, std.appUrl);
  const bodies = await captureLive(page);
  try {
    await page.goto('/delays');
    await expect.poll(async () => Number(await page.getByLabel('Active trips').textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
    const snap = await pause(page, bodies);
    expect(snap.health.locations).toBe(false);
    expect(snap.vehicles.filter((v) => v.lat !== null || v.lon !== null)).toEqual([]);
    const table = await renderedTable(page);
    expect(table.length).toBeGreaterThan(1);
    expect(table).toEqual(expectedTable(snap, snap.thresholds, 'worstMin', 'desc'));
    await expect(page.getByRole('region', { name: 'Most delayed trips' }).getByRole('link').first()).toBeVisible();
    guard.verify();
  } finally {
    await page.close();
    await std.stop();
  }
});
