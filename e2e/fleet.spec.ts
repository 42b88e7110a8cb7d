// The fleet table against the real app and simulator. Its data is held still for the comparison: the bus list
// and one snapshot are read from the app, then served to the page as they are, and the page's clock is fixed at
// the snapshot's time. Then its counts equal a recomputation written here from those two answers (not the
// page's own code), its CSV equals its rows (all of them, scrolled through the virtualized table), its state
// lives in the URL, and a row opens the bus on the map.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseCsv } from '@/lib/csv/csv';
import { expect, test } from './support/fixtures';
import { holdFleetData, type HeldFleet as Held } from './support/held-fleet';

const STALE_AFTER_S = 120;

/** The fleet's figures recomputed from the bus list and the snapshot, by the rules the page states. */
function recount({ buses, snapshot }: Held) {
  const now = snapshot.generatedAt;
  const byBus = new Map(snapshot.vehicles.map((v) => [v.busId, v]));
  const tripBuses = new Set<number>();
  for (const v of snapshot.vehicles) if (v.trip) tripBuses.add(v.busId);
  for (const t of snapshot.unpositionedTrips) if (t.busId !== null) tripBuses.add(t.busId);
  const gps = { fresh: 0, stale: 0, 'no fix': 0, 'never reported': 0 };
  let onTrip = 0;
  for (const b of buses.buses) {
    if (tripBuses.has(b.id)) onTrip++;
    const v = byBus.get(b.id);
    const times = [b.lastGpsAt, v?.gpsAt ?? null].filter((t): t is number => t !== null);
    const last = times.length ? Math.max(...times) : null;
    const positioned = v !== undefined && v.lat !== null && v.lon !== null;
    // Asked for its location, answered without a position.
    const noFix = v !== undefined && v.fetchedAt !== null && !positioned;
    if (last === null) gps[positioned ? 'stale' : 'never reported']++;
    else if (noFix) gps['no fix']++;
    else if (Math.max(0, (now - last) / 1000) <= STALE_AFTER_S) gps.fresh++;
    else gps.stale++;
  }
  return { Buses: buses.buses.length, 'On a trip': onTrip, 'GPS fresh': gps.fresh, 'GPS stale': gps.stale, 'GPS no fix': gps['no fix'], 'GPS never reported': gps['never reported'] };
}

async function shownCounts(page: Page): Promise<Record<string, number>> {
  return page.getByRole('group', { name: 'Fleet counts' }).evaluate((dl) => Object.fromEntries(Array.from(dl.querySelectorAll('[data-count]'), (dd) => [dd.getAttribute('data-count')!, Number(dd.textContent)])));
}

/**
 * Every row of the virtualized table, read window by window: scroll the first unread row to the top, wait until
 * the table has drawn it (the virtualizer draws after the scroll event, later on a busy machine), read what is
 * drawn, and go on from the first row still unread. A window drawn late is waited for, never skipped.
 */
async function allRows(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'Fleet' });
  const total = Number(await table.getAttribute('aria-rowcount')) - 1;
  const seen = new Map<number, string[]>();
  const scroller = page.getByTestId('fleet-scroller');
  let next = 0;
  while (next < total) {
    // Data row i has aria-rowindex i + 2 (the header is 1) and sits i row heights below the top.
    const drawn = await scroller.evaluate(async (el, index) => {
      const rowPx = el.querySelector<HTMLElement>('[role="row"][data-bus-id]')!.offsetHeight;
      el.scrollTop = index * rowPx;
      while (!el.querySelector(`[role="row"][aria-rowindex="${index + 2}"]`)) await new Promise((r) => requestAnimationFrame(r));
      return Array.from(el.querySelectorAll('[role="row"][data-bus-id]'), (r) => [Number(r.getAttribute('aria-rowindex')) - 2, Array.from(r.querySelectorAll('[role="cell"]'), (c) => c.textContent!.trim())] as const);
    }, next);
    for (const [index, cells] of drawn) seen.set(index, cells);
    while (seen.has(next)) next++;
  }
  expect(seen.size, 'rows read from the virtualized table').toBe(total);
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, cells]) => cells);
}

async function downloadCsv(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  return parseCsv(text).filter((l) => !l[0]!.startsWith('#'));
}

test('the fleet table counts every bus as a recomputation from /api/buses and the snapshot does, and its CSV equals its rows', async ({ page }) => {
  test.setTimeout(180_000);
  const held = await holdFleetData(page);
  await page.goto('/fleet');
  const table = page.getByRole('table', { name: 'Fleet' });
  await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });

  const expected = recount(held);
  expect(expected.Buses).toBeGreaterThan(100);
  // Some buses of the simulator never report, some are parked and located, some run trips: every kind is present.
  expect(expected['On a trip']).toBeGreaterThan(0);
  await expect.poll(() => shownCounts(page)).toEqual({ ...expected, Shown: expected.Buses });
  // Every bus is listed, not only those on trips, and the table says how many rows it has.
  await expect(table).toHaveAttribute('aria-rowcount', String(expected.Buses + 1));
  // Virtualized: the DOM holds the rows in view and a few more, not the fleet.
  expect(await table.locator('[role="row"][data-bus-id]').count()).toBeLessThan(80);

  const [header, ...csvRows] = await downloadCsv(page);
  const headerCells = await table.getByRole('columnheader').allTextContents();
  expect(header).toEqual(headerCells.map((h) => h.replace(/[▲▼]/g, '').trim()));
  const rows = await allRows(page);
  expect(csvRows).toEqual(rows);
});

test('filters, search and sort live in the URL; the filtered CSV equals the filtered table; a row opens its bus on the map', async ({ page }) => {
  test.setTimeout(180_000);
  const held = await holdFleetData(page);
  const expected = recount(held);
  await page.goto('/fleet?gps=stale,fresh&trip=on&sort=gpsAt&dir=desc');
  const table = page.getByRole('table', { name: 'Fleet' });
  await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Fresh \(/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: /^Stale \(/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('columnheader', { name: 'Last GPS' })).toHaveAttribute('aria-sort', 'descending');

  const rows = await allRows(page);
  const header = await table.getByRole('columnheader').allTextContents();
  const gpsCol = header.findIndex((h) => h.replace(/[▲▼]/g, '').trim() === 'GPS');
  const tripCol = header.findIndex((h) => h.replace(/[▲▼]/g, '').trim() === 'Trip');
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThanOrEqual(expected['On a trip']);
  expect(new Set(rows.map((r) => r[gpsCol]))).toEqual(new Set(['Fresh', 'Stale'].filter((g) => rows.some((r) => r[gpsCol] === g))));
  expect(rows.every((r) => /^\d+$/.test(r[tripCol]!))).toBe(true);
  expect(await downloadCsv(page).then((c) => c.slice(1))).toEqual(rows);

  // Search by the plate of the first row: the URL takes it, a reload keeps it.
  const plate = rows[0]![0]!;
  await page.getByRole('searchbox', { name: 'Search buses' }).fill(plate);
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(plate);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search buses' })).toHaveValue(plate);
  const first = table.locator('[role="row"][data-bus-id]').first();
  await expect(first.getByRole('cell').first()).toHaveText(plate);
  const busId = Number(await first.getAttribute('data-bus-id'));

  // The row opens the dispatcher's map on that bus.
  await first.getByRole('cell').nth(2).click();
  await expect(page).toHaveURL(new RegExp(`/\\?bus=${busId}$`));
  await expect(page.getByRole('region', { name: 'Live map of the fleet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(plate, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
});
