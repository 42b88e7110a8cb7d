// 10,000 buses end to end, once: the simulator runs a fleet of 10,000 on a 1,200/min key, and the app that reads
// it draws them, opens a trip from the list, and scrolls the fleet table to its last bus. Midday in the simulator
// (the stack's default), so thousands of trips run.
import type { LiveFull } from '@/lib/model';
import { expect, test } from './support/fixtures';
import { placedBuses } from './support/map';

const FLEET = 10_000;

test.use({ stackOptions: { ownStack: 'scale', buses: FLEET, rateLimit: 1_200 } });

test('at 10,000 buses the map draws them, a trip opens, and the fleet table scrolls to its last bus', async ({ page }) => {
  test.setTimeout(420_000);
  await page.goto('/');
  // Every bus on a trip is drawn, at its fix or by its schedule, once the trips walk has gone round: thousands (3,500
  // to 4,700 trips run around the simulator's midday). Drawn against what the app holds at the same moment.
  await expect
    .poll(
      async () => {
        const live = (await (await page.request.get('/api/live')).json()) as LiveFull;
        const placeable = live.vehicles.filter((v) => v.trip !== null || (v.lat !== null && v.lon !== null)).length;
        const placed = (await placedBuses(page)).length;
        return placeable >= 2_000 && placed >= 0.95 * placeable ? 'drawn' : `${placed} drawn of ${placeable}`;
      },
      { timeout: 240_000, intervals: [2_000] },
    )
    .toBe('drawn');

  const list = page.getByRole('listbox', { name: 'Active trips' });
  const option = list.getByRole('option').first();
  await option.waitFor();
  // The option's id names its trip (its text carries an age that ticks).
  const tripId = Number((await option.getAttribute('id'))?.replace('trip-option-', ''));
  expect(tripId).toBeGreaterThan(0);
  await list.locator(`#trip-option-${tripId}`).click();
  // The selection is read from the page's announcement, not from the list's selected row: the list is sorted live by
  // delay and virtualized, so the clicked row can move out of the rendered window before it is read (seen twice).
  // The announcement is 'Selected trip N, route …' while the trip is in the list, 'Selected trip N.' once it is not.
  await expect(page.getByText(new RegExp(`^Selected trip ${tripId}[,.]`))).toBeAttached({ timeout: 90_000 });
  await expect(page).toHaveURL(new RegExp(`[?&]trip=${tripId}(&|$)`));
  // The trip opens in the panel.
  await expect(page.getByText(`Trip #${tripId}`).first()).toBeVisible({ timeout: 90_000 });

  await page.goto('/fleet');
  const table = page.getByRole('table', { name: 'Fleet' });
  await expect(table).toHaveAttribute('aria-rowcount', String(FLEET + 1), { timeout: 120_000 });
  const scroller = page.getByTestId('fleet-scroller');
  // The virtualized table draws a window of rows: scrolled to the end, it draws the last one.
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(table.locator(`[role="row"][aria-rowindex="${FLEET + 1}"]`)).toBeVisible();
  expect(await table.locator('[role="row"][data-bus-id]').count()).toBeLessThan(200);
});
