// The quiet hour, on purpose: the simulator runs in a zone where it is 03:00 now. Few trips run, most buses are
// parked. The dispatcher and the wall must still draw every placed bus, count the trips there are (however few)
// and say that data is flowing, with no error.
import type { LiveSnapshot } from '@/lib/model';
import { zoneAtLocalHour } from '@/lib/sim/clock';
import { expect, liveSnapshot, test } from './support/fixtures';
import { placedBuses } from './support/map';

// A small fleet on a roomy key, so that every parked bus is located within seconds of the start.
test.use({ stackOptions: { ownStack: 'night', buses: 150, rateLimit: 1200, simEnv: { SIM_TIMEZONE: zoneAtLocalHour(3) } } });

/** How many buses the map places, from the snapshot the page holds. */
async function drawnCount(page: import('@playwright/test').Page): Promise<number> {
  return (await placedBuses(page)).length;
}

test('at 03:00 the dispatcher shows the parked fleet and the few trips, with data flowing', async ({ page, stack }) => {
  const clock = (await (await fetch(`${stack.simAdminUrl}/__admin/clock`)).json()) as { local: string };
  expect(clock.local.slice(11, 13)).toBe('03');

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Fleetmap', level: 1 })).toBeVisible();
  // Most buses are placed although few are on trips: parked buses are located too.
  await expect
    .poll(async () => {
      const snap = (await liveSnapshot(page)) as LiveSnapshot;
      const placed = snap.vehicles.filter((v) => v.lat !== null).length;
      return placed > snap.vehicles.length / 2 && snap.health.state === 'ok';
    }, { timeout: 60_000 })
    .toBe(true);
  const snap = (await liveSnapshot(page)) as LiveSnapshot;
  const onTrip = snap.vehicles.filter((v) => v.trip !== null).length;
  expect(onTrip).toBeLessThan(snap.vehicles.length / 4);

  // The map draws the placed buses (parked ones included) and the list counts the trips, however few.
  await expect.poll(() => drawnCount(page), { timeout: 30_000 }).toBeGreaterThan(snap.vehicles.length / 2);
  await expect(page.getByText(/^\d+ active trips?$/)).toBeVisible();
  await expect(page.getByLabel('Data status')).toContainText(/updated (.* ago|just now)/);

  await page.goto('/wall');
  await expect.poll(() => drawnCount(page), { timeout: 30_000 }).toBeGreaterThan(snap.vehicles.length / 2);
});
