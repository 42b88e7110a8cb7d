// The wall's ?routes= option against the real app and simulator: only those routes' buses and figures, estimates
// drawn for them, and bad options named on screen rather than fatal.
import type { Page } from '@playwright/test';
import type { LiveSnapshot, NetworkResponse } from '@/lib/model';
import { activeTrips, tripMatchesRouteToken } from '@/lib/view/trips';
import { expect, liveSnapshot, test } from './support/fixtures';
import { placedBuses, renderedBusCount, renderedBuses } from './support/map';

// A stack of its own, started clean: on the wall spec's stack, right after its outage test, this test's premise
// (buses of several routes located, one of them with its stops in) once took longer than its wait on a loaded
// machine. This test is about the filter.
test.use({ stackOptions: { ownStack: 'wall-routes' } });

/** Labels of the single (unclustered) buses drawn on screen. */
async function renderedBusLabels(page: Page): Promise<string[]> {
  return (await renderedBuses(page)).singles.map((b) => b.label);
}

const tileValue = (page: Page, name: string) => page.getByRole('region', { name }).locator('[data-value]');

test('?routes= limits buses and figures to those routes; bad options are named, not fatal', async ({ page }) => {
  // Generous: on a loaded machine the first routes' stops can take minutes to arrive (see below).
  test.setTimeout(360_000);
  // Pick the route with the most located buses on active trips, once buses of several routes are located, among
  // the routes whose stops the feed already holds: estimates need them, and the feed walks every route's stops in
  // the background, a few at a time (minutes for all of them on a loaded machine).
  const located = (s: LiveSnapshot, code?: string) => s.vehicles.filter((v) => v.trip?.routeCode && v.lat !== null && (!code || v.trip.routeCode === code));
  let snap: LiveSnapshot = await liveSnapshot(page);
  let withStops = new Set<string>();
  await expect
    .poll(async () => {
      snap = await liveSnapshot(page);
      const network = (await (await page.request.get('/api/network')).json()) as NetworkResponse;
      withStops = new Set(network.features.filter((f) => f.properties.kind === 'route').map((f) => String(f.properties.code)));
      const routes = new Set(located(snap).map((v) => v.trip!.routeCode));
      return routes.size > 3 && [...routes].some((c) => withStops.has(c!));
    }, { timeout: 180_000 })
    .toBe(true);
  const counts = new Map<string, number>();
  for (const v of located(snap)) if (withStops.has(v.trip!.routeCode!)) counts.set(v.trip!.routeCode!, (counts.get(v.trip!.routeCode!) ?? 0) + 1);
  const code = [...counts].sort((a, b) => b[1] - a[1])[0]![0];

  await page.goto(`/wall?routes=${encodeURIComponent(code)}&theme=light&rotate=abc`);
  await expect(page.locator('[data-theme="light"]').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: `Route ${code}` })).toBeVisible();
  // The wall draws estimates: the route's stops are in, so its buses are advanced along it, marked so.
  await expect.poll(async () => (await placedBuses(page)).some((b) => b.basis !== 'fix'), { timeout: 90_000 }).toBe(true);
  await expect(page.getByRole('list', { name: 'Ignored options' })).toContainText('Ignored rotate="abc"');

  // The figures are those of this route alone (within the few seconds between two reads of the feed).
  await expect
    .poll(async () => {
      const s = (await liveSnapshot(page)) as LiveSnapshot;
      const expected = activeTrips(s).filter((t) => tripMatchesRouteToken(t, code)).length;
      return Math.abs(Number(await tileValue(page, 'Active trips').textContent()) - expected);
    }, { timeout: 30_000 })
    .toBeLessThanOrEqual(1);
  // The map draws this route's located buses and no others (again within a feed refresh or two); with estimates it
  // also places the route's buses that have no fix yet, from their schedule.
  await expect
    .poll(
      async () => {
        const s = (await liveSnapshot(page)) as LiveSnapshot;
        const onRoute = new Set(s.vehicles.filter((v) => v.trip?.routeCode === code).map((v) => v.busId));
        const r = await renderedBuses(page);
        // Cluster members cannot be told apart: they count towards the route's buses, as before estimates.
        const singlesOnRoute = r.singles.filter((b) => onRoute.has(b.busId)).length;
        const foreign = r.singles.length - singlesOnRoute;
        const missing = located(s, code).length - (singlesOnRoute + r.clustered);
        return missing <= 1 && foreign <= 1 ? 'this route only' : `${missing} located buses missing, ${foreign} of other routes`;
      },
      { timeout: 30_000 },
    )
    .toBe('this route only');
  // Fewer buses than the whole fleet's would be drawn: every bus on a trip, located or placed by its schedule (the
  // located ones alone can be fewer than this route's drawn buses early on, when few are located yet).
  expect(await renderedBusCount(page)).toBeLessThan(activeTrips(await liveSnapshot(page)).length);
  // At street zoom every bus is drawn singly: every label on screen is the route's code. (The whole route at its
  // fitted zoom may be all clusters, now that buses without a fix are placed too: look closer, at one of its buses.)
  const one = (await placedBuses(page))[0]!;
  expect(one, 'a bus of the route on the map').toBeDefined();
  await page.evaluate(async ([lon, lat]) => {
    const map = window.__fleetmap!.map;
    map.jumpTo({ center: [lon!, lat!], zoom: 13 });
    await new Promise((r) => map.once('idle', r));
  }, [one.lon, one.lat]);
  await expect.poll(async () => (await renderedBusLabels(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const labels = await renderedBusLabels(page);
  expect(new Set(labels)).toEqual(new Set([code]));
  await page.screenshot({ path: 'e2e/artifacts/wall-route-light.png' });
});
