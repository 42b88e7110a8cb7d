// The first paint below street zoom. The clustered bus layer is tiled by MapLibre's worker, which on a cold visit
// starts half a second or more after the map's first frame; until it has drawn the fleet, the bus overlay draws
// every bus itself, and then steps aside for the clusters. Shown here by holding the worker's script back: the
// buses must be on the map while no worker can exist, and the clusters must take over once it is let through.
import { OVERLAY_MIN_ZOOM } from '@/components/map/bus-drawing';
import { expect, test } from './support/fixtures';
import { placedBuses, renderedBuses } from './support/map';

// Midtown to Harlem at zoom 11: a borough's worth of buses, clustered once the worker has tiled them.
const VIEW = { lng: -73.965, lat: 40.78, zoom: 11 };

test('below street zoom the buses come before the map worker, and the clusters take over once it has drawn them', async ({ page }) => {
  expect(VIEW.zoom).toBeLessThan(OVERLAY_MIN_ZOOM);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let workerAsked = false;
  await page.context().route('**/maplibre-gl-worker.mjs', async (route) => {
    workerAsked = true;
    await held;
    await route.continue();
  });
  try {
    await page.goto(`/?lng=${VIEW.lng}&lat=${VIEW.lat}&z=${VIEW.zoom}`);
    // Buses on the map with the worker's script still held: drawn by the overlay, every one of them, no cluster.
    await expect.poll(() => page.evaluate(() => window.__fleetmap?.buses?.timing.lastFrameBuses ?? 0), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(workerAsked, 'the map asked for its worker (and is still waiting for it)').toBe(true);
    expect(await page.evaluate(() => window.__fleetmap!.map.getZoom())).toBeLessThan(OVERLAY_MIN_ZOOM);
    expect(await page.evaluate(() => window.__fleetmap!.drawing!.drawn().fleet)).toBe('overlay');
    const early = await renderedBuses(page);
    expect(early.clustered, 'no cluster can be drawn without the worker').toBe(0);
    expect(early.singles.length).toBeGreaterThan(0);
    expect((await placedBuses(page)).every((b) => !b.selected)).toBe(true);
    // What the overlay lists is what its last frame drew (polled: a snapshot may land between a frame and the read).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const h = window.__fleetmap!;
          return h.drawing!.drawn().buses.length === h.buses!.timing.lastFrameBuses;
        }),
      )
      .toBe(true);
  } finally {
    release();
  }
  // The worker comes, tiles the fleet, and the clustered layer takes over: the overlay draws no bus but a selected one.
  await expect.poll(() => page.evaluate(() => window.__fleetmap!.drawing!.drawn().fleet), { timeout: 60_000 }).toBe('clusters');
  await expect
    .poll(async () => {
      const r = await renderedBuses(page);
      return r.clustered + r.singles.length;
    }, { timeout: 30_000 })
    .toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__fleetmap!.drawing!.drawn().buses.filter((b) => b.by === 'overlay').length)).toBe(0);
  await expect.poll(() => page.evaluate(() => window.__fleetmap!.buses!.timing.lastFrameBuses)).toBe(0);
});
