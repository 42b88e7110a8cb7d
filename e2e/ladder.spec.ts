// The route ladder against the real app and a simulator in its midday: the ladder shows a route's buses in the order
// of their true progress (/__admin/truth), a ghost appears when the simulator silences a bus's GPS, and clicking a
// bus selects it on the map. Screenshots light and dark in e2e/artifacts/.
import type { Page } from '@playwright/test';
import type { HeadwaysResponse } from '@/lib/model';
import { expect, screenshotInThemes, test } from './support/fixtures';

// A ghost after 30 s without a fix (the least GHOST_AFTER_S allows), and a budget that locates every bus often, so
// the ladder's estimates stand close to the truth.
test.use({ stackOptions: { ownStack: 'ladder', rateLimit: 3_000, env: { GHOST_AFTER_S: '30' } } });

/** Two buses closer than this in truth may be drawn either way round (the estimate's error on a moving bus). */
const TIE_M = 250;

async function headways(page: Page, route: string): Promise<HeadwaysResponse> {
  const res = await page.request.get(`/api/headways?route=${route}`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as HeadwaysResponse;
}

/** The route (of a few busy ones) with the most buses on its outbound line, once its stops are in. */
async function busyRoute(page: Page): Promise<string> {
  let best = { code: '', buses: 0 };
  await expect
    .poll(
      async () => {
        const h = await headways(page, 'M15,M101,M2,M4,M5');
        for (const r of h.routes) {
          const n = r.directions[0]?.buses.length ?? 0;
          if (n > best.buses) best = { code: r.routeCode!, buses: n };
        }
        return best.buses;
      },
      { timeout: 180_000 },
    )
    .toBeGreaterThanOrEqual(4);
  return best.code;
}

test('the ladder orders buses by their true progress, shows a silenced bus as a ghost, and selects on the map', async ({ page, stack }) => {
  test.setTimeout(420_000);
  const code = await busyRoute(page);
  await page.goto(`/ladder?route=${code}`);
  const outbound = page.getByRole('group', { name: new RegExp(`^Ladder of ${code} outbound`) });
  await expect(outbound.locator('[data-bus]').first()).toBeVisible({ timeout: 60_000 });

  // Order: the buses drawn on the outbound line, top (first stop) to bottom, against their true progress read in the
  // same second: the simulator's own metres along each bus's trip (a true place projected onto the line instead can
  // land on another leg of a route that loops or runs a street both ways). A bus the simulator has off its trip
  // (arrived, laying over) has no true progress and takes no part.
  let checked = 0;
  await expect
    .poll(
      async () => {
        const [drawn, truth, app] = await Promise.all([
          outbound.locator('[data-bus]').evaluateAll((els) => els.map((e) => ({ busId: Number(e.getAttribute('data-bus')), y: Number(e.getAttribute('data-y')), drawnM: Number(e.getAttribute('data-m')) }))),
          (await fetch(`${stack.simAdminUrl}/__admin/truth`)).json() as Promise<{ buses: Array<{ id: number; alongM: number | null }> }>,
          headways(page, code),
        ]);
        const trueM = new Map(truth.buses.map((b) => [b.id, b.alongM]));
        const sorted = drawn.sort((a, b) => a.y - b.y).flatMap((d) => {
          const m = trueM.get(d.busId);
          return m === null || m === undefined ? [] : [{ ...d, m }];
        });
        // What the app said of each bus, for the message: a misordered pair names its buses, where the page drew them,
        // their basis, the age of their fixes and the progress the app gave them.
        const said = new Map((app.routes[0]?.directions[0]?.buses ?? []).map((b) => [b.busId, b]));
        const named = (d: { busId: number; m: number; drawnM: number }) => {
          const b = said.get(d.busId);
          const age = b?.gpsAt ? `${Math.round((app.at - b.gpsAt) / 1000)} s` : 'no fix';
          return `bus ${d.busId} at ${Math.round(d.m)} m (drawn at ${d.drawnM} m; app: ${b ? `${Math.round(b.progressM ?? NaN)} m, ${b.basis}${b.stale ? ', stale' : ''}, fix ${age} old` : 'not on the line'})`;
        };
        const wrong: string[] = [];
        checked = 0;
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          if (Math.abs(b.m - a.m) < TIE_M) continue;
          checked++;
          if (b.m < a.m) wrong.push(`${named(a)} drawn before ${named(b)}`);
        }
        return wrong;
      },
      { timeout: 60_000 },
    )
    .toEqual([]);
  expect(checked).toBeGreaterThan(0);

  // A ghost: the simulator silences the GPS of a bus on the line; after GHOST_AFTER_S the ladder draws its trip as a ghost.
  // The bus furthest back on the line: its trip runs on long enough for the ghost to show.
  const line0 = (await headways(page, code)).routes[0]!.directions[0]!.buses;
  const target = line0[line0.length - 1]!;
  const incident = await fetch(`${stack.simAdminUrl}/__admin/incidents`, { method: 'POST', body: JSON.stringify({ kind: 'gps-silent', busId: target.busId, durationS: 3600 }) });
  expect(incident.status).toBe(201);
  const ghost = page.locator(`[data-ghost="${target.tripId}"]`);
  await expect(ghost).toBeVisible({ timeout: 180_000 });
  await expect(ghost).toHaveAttribute('aria-label', /^Ghost trip/);
  // Bounded tries, as for a bus below: a bus gliding over the ghost's place can take the click.
  await expect(async () => {
    await ghost.click({ timeout: 5_000 });
    await expect(page.getByRole('region', { name: 'Selected trip' })).toContainText('Ghost', { timeout: 2_000 });
  }).toPass({ timeout: 90_000 });

  // Clicking a bus selects it; the selection shows on the map.
  // The bus drawn halfway down the line (the ghost's aside): its trip has about half its run left, so it is still on
  // the ladder through the reloads below (a bus near the end of its line may finish its trip, and the selection then
  // rightly goes away), and it is away from the terminals' boxes. Taken from what the page draws, not from the API,
  // whose answer may be newer than the page's. The ladder reorders as buses move: take that bus's trip, then click
  // that bus (not whichever is there by then). Buses glide between fixes, and a neighbour sliding under the pointer
  // can take the click: click again until it is this one.
  const drawnNow = (await outbound.locator('[data-bus]').evaluateAll((els) => els.map((e) => ({ trip: e.getAttribute('data-trip'), y: Number(e.getAttribute('data-y')) }))))
    .filter((d) => d.trip !== null && d.trip !== String(target.tripId))
    .sort((a, b) => a.y - b.y);
  expect(drawnNow.length).toBeGreaterThan(0);
  const tripId = drawnNow[Math.floor(drawnNow.length / 2)]!.trip!;
  const bus = outbound.locator(`[data-bus][data-trip="${tripId}"]`);
  // Each try is bounded: a gliding bus may not hold still for the two frames a click waits for.
  await expect(async () => {
    await bus.click({ timeout: 5_000 });
    await expect(page).toHaveURL(new RegExp(`[?&]trip=${tripId}(&|$)`), { timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  await screenshotInThemes(page, 'ladder', async () => {
    await expect(page.locator('[data-bus]').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('region', { name: 'Selected trip' })).toBeVisible();
  });
  // The same ladder on a wall display, in place of the map.
  await page.goto(`/wall?ladder=${code}&theme=light`);
  await expect(page.getByRole('group', { name: new RegExp(`^Ladder of ${code} outbound`) }).locator('[data-bus]').first()).toBeVisible({ timeout: 60_000 });
  await page.goto(`/ladder?route=${code}&trip=${tripId}`);
  await page.getByRole('link', { name: 'Show on the map' }).click();
  // The map adds its camera to the URL once it has framed the trip (&lng=…&lat=…&z=…).
  await expect(page).toHaveURL(new RegExp(`/\\?trip=${tripId}(&|$)`));
  await expect(page.getByRole('heading', { level: 2 }).and(page.locator('#trip-panel-title'))).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('#trip-panel-title').locator('..')).toContainText(`Trip #${tripId}`);
});
