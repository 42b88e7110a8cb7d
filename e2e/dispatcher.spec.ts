// The dispatcher view against the real app and simulator: the map draws exactly the positioned buses of
// the snapshot, the list finds trips, a bus opens its panel, the route overlay appears, links restore the
// view, a revoked key is announced while the last positions stay with their age, and a Standard-plan key
// gets the list-only view. The fixture fails any test whose page talks to another host or logs an error.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { LiveSnapshot, Vehicle } from '@/lib/model';
import { BUS_SOURCE_ID } from '@/components/map/layers/bus-layer';
import { ROUTE_OVERLAY_LINE_LAYER_ID, ROUTE_OVERLAY_SOURCE_ID } from '@/components/map/layers/route-overlay-layer';
import { SELECTED_BUS_SOURCE_ID } from '@/components/map/layers/selected-bus-layer';
import { expect, guardPage, liveSnapshot, test } from './support/fixtures';
import { startStack } from './support/stack';

const ARTIFACTS = 'e2e/artifacts';
mkdirSync(ARTIFACTS, { recursive: true });

type Positioned = Vehicle & { lat: number; lon: number; trip: NonNullable<Vehicle['trip']> };

function positioned(v: Vehicle): v is Positioned {
  return v.lat !== null && v.lon !== null && v.trip !== null && v.plateNumber !== null;
}

/** Every /api/live body the page received, by version (a 304 has no body and keeps the last one). */
function captureSnapshots(page: Page): Map<number, LiveSnapshot> {
  const received = new Map<number, LiveSnapshot>();
  page.on('response', async (res) => {
    if (new URL(res.url()).pathname !== '/api/live' || res.status() !== 200) return;
    const body = (await res.json().catch(() => null)) as LiveSnapshot | null;
    if (body) received.set(body.version, body);
  });
  return received;
}

function latest(received: Map<number, LiveSnapshot>): LiveSnapshot | undefined {
  return [...received.values()].sort((a, b) => b.version - a.version)[0];
}

/** Bus ids in the map's two bus sources. */
async function drawnBusIds(page: Page): Promise<number[]> {
  return page.evaluate(
    async ([busSource, selectedSource]) => {
      const map = window.__fleetmap?.map;
      const ids = async (id: string) => {
        const src = map?.getSource(id) as unknown as { getData(): Promise<GeoJSON.FeatureCollection> } | undefined;
        return src ? (await src.getData()).features.map((f) => Number(f.id)) : [];
      };
      return [...(await ids(busSource!)), ...(await ids(selectedSource!))].sort((a, b) => a - b);
    },
    [BUS_SOURCE_ID, SELECTED_BUS_SOURCE_ID],
  );
}

function positionedIds(snap: LiveSnapshot): number[] {
  return snap.vehicles.filter((v) => v.lat !== null && v.lon !== null).map((v) => v.busId).sort((a, b) => a - b);
}

/** The map shows exactly the positioned buses of the latest snapshot the page received. */
async function expectMapMatchesSnapshot(page: Page, received: Map<number, LiveSnapshot>) {
  await expect
    .poll(async () => {
      const snap = latest(received);
      if (!snap) return 'no snapshot yet';
      const expected = positionedIds(snap);
      const drawn = await drawnBusIds(page);
      if (expected.length === 0) return 'no positioned bus yet';
      return JSON.stringify(drawn) === JSON.stringify(expected) ? 'match' : `drawn ${drawn.length}, snapshot ${expected.length}`;
    }, { timeout: 30_000 })
    .toBe('match');
}

async function waitForPositionedTrip(page: Page): Promise<{ snap: LiveSnapshot; vehicle: Positioned }> {
  let found: { snap: LiveSnapshot; vehicle: Positioned } | null = null;
  await expect
    .poll(async () => {
      const snap = (await liveSnapshot(page)) as LiveSnapshot;
      const vehicle = snap.vehicles.find(positioned);
      found = vehicle ? { snap, vehicle } : null;
      return found !== null;
    }, { timeout: 30_000 })
    .toBe(true);
  return found!;
}

async function mapReady(page: Page) {
  await expect.poll(() => page.evaluate((id) => !!window.__fleetmap?.map?.getSource(id), BUS_SOURCE_ID)).toBe(true);
}

test('the map draws every positioned bus of the snapshot, and the list every active trip', async ({ page }) => {
  const received = captureSnapshots(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Fleetmap', level: 1 })).toBeVisible();
  await mapReady(page);
  await expectMapMatchesSnapshot(page, received);
  // The list counts the active trips of the snapshot the page holds (the latest it received).
  await expect
    .poll(async () => {
      const snap = latest(received);
      if (!snap) return false;
      const trips = new Set([...snap.vehicles.flatMap((v) => (v.trip ? [v.trip.tripId] : [])), ...snap.unpositionedTrips.map((t) => t.tripId)]);
      return (await page.getByText(/^\d+ active trips$/).textContent()) === `${trips.size} active trips`;
    })
    .toBe(true);
  await expect(page.getByLabel('Data status')).toContainText(/updated (.* ago|just now)/);
  await page.screenshot({ path: `${ARTIFACTS}/dispatcher-overview.png` });
});

test('search finds a trip by plate, and Esc clears it', async ({ page }) => {
  await page.goto('/');
  const { vehicle } = await waitForPositionedTrip(page);
  // The snapshot was read over the API; the page may still be hydrating, and a key pressed before its keyboard
  // handler is attached is lost. A list drawn from client data means it is.
  await page.getByRole('listbox', { name: 'Active trips' }).getByRole('option').first().waitFor();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search trips' });
  await expect(search).toBeFocused();
  await search.fill(vehicle.plateNumber!);
  const list = page.getByRole('listbox', { name: 'Active trips' });
  await expect(list.getByRole('option').first()).toContainText(vehicle.plateNumber!);
  await expect(page).toHaveURL(new RegExp(`q=${vehicle.plateNumber}`));
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
});

test('clicking a bus on the map opens its panel; show route draws the overlay', async ({ page }) => {
  await page.goto('/');
  await mapReady(page);
  const { vehicle } = await waitForPositionedTrip(page);
  // Centre the map on the bus at street zoom, then click where the map draws it.
  const point = await page.evaluate(
    async ([busId, source]) => {
      const map = window.__fleetmap!.map;
      const src = map.getSource(source!) as unknown as { getData(): Promise<GeoJSON.FeatureCollection<GeoJSON.Point>> };
      const f = (await src.getData()).features.find((x) => Number(x.id) === busId)!;
      const [lng, lat] = f.geometry.coordinates as [number, number];
      map.jumpTo({ center: [lng, lat], zoom: 17 });
      await new Promise((r) => map.once('idle', r));
      const p = map.project([lng, lat]);
      const rect = map.getCanvas().getBoundingClientRect();
      return { x: rect.left + p.x, y: rect.top + p.y };
    },
    [vehicle.busId, BUS_SOURCE_ID] as const,
  );
  await page.mouse.click(point.x, point.y);

  const panel = page.getByRole('region', { name: new RegExp(vehicle.trip.routeName ?? String(vehicle.trip.tripId)) });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText(`Trip #${vehicle.trip.tripId}`);
  await expect(panel).toContainText(vehicle.plateNumber!);
  await expect(panel).toContainText('GPS time');
  // The agency's zone by default (the feed's inferred offset in these tests), named.
  await expect(panel).toContainText(/Times in agency time, UTC[+-]\d{2}:\d{2}\./);
  await expect(page).toHaveURL(new RegExp(`trip=${vehicle.trip.tripId}&bus=${vehicle.busId}`));
  await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option', { selected: true })).toContainText(vehicle.plateNumber!);
  await page.screenshot({ path: `${ARTIFACTS}/dispatcher-panel.png` });

  // `f` follows: the map keeps the bus centred (in the part the panel leaves visible); a drag ends it.
  await page.locator('body').press('f');
  const followButton = panel.getByRole('button', { name: 'Follow' });
  await expect(followButton).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(() =>
      page.evaluate(
        async ([busId, source]) => {
          const map = window.__fleetmap!.map;
          const src = map.getSource(source!) as unknown as { getData(): Promise<GeoJSON.FeatureCollection<GeoJSON.Point>> };
          const f = (await src.getData()).features.find((x) => Number(x.id) === busId);
          if (!f) return Infinity;
          const bus = map.project(f.geometry.coordinates as [number, number]);
          const centre = map.project(map.getCenter());
          return Math.hypot(bus.x - centre.x, bus.y - centre.y);
        },
        [vehicle.busId, SELECTED_BUS_SOURCE_ID] as const,
      ),
    )
    .toBeLessThan(30);
  const box = (await page.getByRole('region', { name: 'Live map of the fleet' }).boundingBox())!;
  await page.mouse.move(box.x + 200, box.y + 300);
  await page.mouse.down();
  await page.mouse.move(box.x + 320, box.y + 380, { steps: 6 });
  await page.mouse.up();
  await expect(followButton).toHaveAttribute('aria-pressed', 'false');

  await panel.getByRole('button', { name: 'Show route' }).click();
  await expect(panel.getByRole('button', { name: 'Show route' })).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(() =>
      page.evaluate(
        async ([layer, source]) => {
          const map = window.__fleetmap!.map;
          if (!map.getLayer(layer!)) return 0;
          const src = map.getSource(source!) as unknown as { getData(): Promise<GeoJSON.FeatureCollection> };
          return (await src.getData()).features.filter((f) => f.geometry.type === 'LineString').length;
        },
        [ROUTE_OVERLAY_LINE_LAYER_ID, ROUTE_OVERLAY_SOURCE_ID],
      ),
    )
    .toBe(1);
  await expect(page).toHaveURL(new RegExp(`route=${vehicle.trip.routeId}`));
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${ARTIFACTS}/dispatcher-route-overlay.png` });
});

test('a deep link restores the selection, the overlay, the filters and the map view', async ({ page }) => {
  await page.goto('/');
  const { vehicle } = await waitForPositionedTrip(page);
  const link = `/?trip=${vehicle.trip.tripId}&route=${vehicle.trip.routeId}&sort=route&lng=-73.97000&lat=40.76000&z=13.00`;
  await page.goto(link);
  await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option', { selected: true })).toContainText(vehicle.plateNumber!);
  await expect(page.getByRole('region', { name: new RegExp(vehicle.trip.routeName ?? '') })).toContainText(`Trip #${vehicle.trip.tripId}`);
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('route');
  await mapReady(page);
  const view = await page.evaluate(() => {
    const m = window.__fleetmap!.map;
    return { lng: m.getCenter().lng, lat: m.getCenter().lat, zoom: m.getZoom() };
  });
  expect(view.zoom).toBeCloseTo(13, 1);
  await expect.poll(() => page.evaluate((id) => !!window.__fleetmap?.map.getLayer(id), ROUTE_OVERLAY_LINE_LAYER_ID)).toBe(true);
});

test('keyboard: arrows walk the list and Esc clears the selection', async ({ page }) => {
  await page.goto('/');
  await waitForPositionedTrip(page);
  await page.getByRole('listbox', { name: 'Active trips' }).getByRole('option').first().waitFor();
  await page.locator('body').press('ArrowDown');
  const first = page.getByRole('listbox', { name: 'Active trips' }).getByRole('option', { selected: true });
  await expect(first).toHaveCount(1);
  const firstText = await first.textContent();
  await page.locator('body').press('ArrowDown');
  await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option', { selected: true })).not.toHaveText(firstText!);
  await expect(page.getByText(/^Selected trip \d+/)).toBeAttached();
  await page.locator('body').press('Escape');
  await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option', { selected: true })).toHaveCount(0);
  await expect(page).not.toHaveURL(/trip=/);
});

test('dark theme is remembered across reloads', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await mapReady(page);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${ARTIFACTS}/dispatcher-dark.png` });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
});

test('a revoked key shows the unauthorized banner while buses stay on the map with their age', async ({ page, stack }) => {
  const received = captureSnapshots(page);
  await page.goto('/');
  await mapReady(page);
  await expectMapMatchesSnapshot(page, received);
  try {
    await stack.setFaults({ revokedKeys: [stack.apiKey] });
    const banner = page.locator('[data-banner="unauthorized"]');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toHaveAttribute('role', 'alert');
    await expect(banner).toContainText(/Showing the last data received \((.* ago|just now)\)/);
    // The feed keeps its last positions: the map still shows every one of them.
    expect(latest(received)!.health.state).toBe('unauthorized');
    await expectMapMatchesSnapshot(page, received);
    await expect(page.getByRole('listbox', { name: 'Active trips' }).getByText(/ ago$/).first()).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/dispatcher-unauthorized.png` });
  } finally {
    await stack.resetFaults();
  }
});

// stackOptions is worker-scoped and cannot change inside this file, so the Standard-plan stack is started
// here for this one test, with the same console and foreign-host checks as the fixture's page.
test('a Standard-plan key gets the explanation and the list full width, without a map', async ({ browser }) => {
  test.setTimeout(180_000);
  const std = await startStack({ key: 'standard' });
  const page = await browser.newPage();
  const guard = guardPage(page, std.appUrl);
  try {
    await page.goto(std.appUrl + '/');
    const note = page.getByRole('note');
    await expect(note).toContainText('List only', { timeout: 30_000 });
    await expect(note).toContainText('API Standard');
    await expect(page.getByRole('listbox', { name: 'Active trips' }).getByRole('option').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('region', { name: 'Live map of the fleet' })).toHaveCount(0);
    expect(await page.evaluate(() => window.__fleetmap === undefined)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/dispatcher-list-only.png` });
    guard.verify();
  } finally {
    await page.close();
    await std.stop();
  }
});
