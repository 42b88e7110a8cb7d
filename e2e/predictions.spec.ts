// Arrival predictions in the dispatcher view, against the real app and simulator (the stack pins the simulator's
// clock to midday, when the network runs a full service): the trip panel lists the trip's next stops with a
// predicted time, a countdown and the uncertainty in words, and the list moves on as the bus passes its stops;
// clicking a stop shared by two routes on the map opens "next arrivals here", which lists buses of both routes; the
// ladder names each bus's next stop and its predicted arrival.
import type { Page } from '@playwright/test';
import type { HeadwaysResponse, LiveSnapshot, NetworkResponse } from '@/lib/model';
import type { StopArrivalsResponse, TripPredictions, TripPredictionsResponse } from '@/lib/model/predictions';
import { distanceM } from '@/lib/geo/sphere';
import { ROUTE_OVERLAY_STOP_LAYER_IDS } from '@/components/map/layers/route-overlay-layer';
import { expect, liveSnapshot, test } from './support/fixtures';

test.describe.configure({ timeout: 300_000 });

async function predictionsOf(page: Page, tripId: number): Promise<TripPredictions | null> {
  const res = await page.request.get(`/api/trips/${tripId}/predictions`);
  return res.ok() ? ((await res.json()) as TripPredictionsResponse).predictions : null;
}

async function mapReady(page: Page) {
  await expect.poll(() => page.evaluate(() => !!window.__fleetmap?.drawing && !!window.__fleetmap.map.isStyleLoaded())).toBe(true);
}

/** The ids of the stops the panel lists, in order. */
/** The chosen bus's next stop is due within this: the test then waits PASS_WAIT_MS for the bus to pass it. */
const NEXT_STOP_DUE_MAX_MS = 120_000;
const PASS_WAIT_MS = 240_000;

async function panelStopIds(page: Page): Promise<number[]> {
  const ids = await page.getByRole('list', { name: 'Next stops' }).getByRole('listitem').evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-stop-id'))));
  return ids;
}

test("the trip panel lists the trip's next stops with predicted times, and moves on as the bus passes them", async ({ page }) => {
  // A bus on a trip predicted from its GPS position, with a few stops to go, whose next stop is due within
  // NEXT_STOP_DUE_MAX_MS (limited-stop routes space their stops minutes apart); the one due soonest is the quickest
  // to pass its next stop.
  test.setTimeout(420_000);
  let chosen: TripPredictions | null = null;
  await expect
    .poll(
      async () => {
        const snap = (await liveSnapshot(page)) as LiveSnapshot;
        const candidates = snap.vehicles.filter((v) => v.trip && v.lat !== null && v.speedKmh !== null && v.speedKmh > 5).slice(0, 24);
        const found: TripPredictions[] = [];
        for (const v of candidates) {
          const p = await predictionsOf(page, v.trip!.tripId);
          if (p && p.basis === 'gps' && p.stops.length >= 4 && p.stops[0]!.arrivalAt - p.at > 20_000 && p.stops[0]!.arrivalAt - p.at <= NEXT_STOP_DUE_MAX_MS) found.push(p);
        }
        found.sort((a, b) => a.stops[0]!.arrivalAt - a.at - (b.stops[0]!.arrivalAt - b.at));
        chosen = found[0] ?? null;
        return chosen !== null;
      },
      { timeout: 120_000 },
    )
    .toBe(true);
  const trip = chosen!;
  const order = new Map<number, number>();

  await page.goto(`/?trip=${trip.tripId}&bus=${trip.busId}`);
  const panel = page.locator('section[aria-labelledby="trip-panel-title"]');
  await expect(panel).toContainText(`Trip #${trip.tripId}`);
  await expect(panel.getByRole('heading', { name: 'Next stops' })).toBeVisible();
  await expect(panel).toContainText("From the bus's position and pace along its route");

  // The panel lists the stops the server predicts, in the trip's order (both move with the bus: read together).
  let listed: number[] = [];
  await expect
    .poll(
      async () => {
        const api = await predictionsOf(page, trip.tripId);
        for (const s of api?.stops ?? []) order.set(s.stopId, s.stopOrder);
        listed = await panelStopIds(page);
        return JSON.stringify(listed) === JSON.stringify((api?.stops ?? []).slice(0, listed.length).map((s) => s.stopId)) && listed.length >= Math.min(4, api?.stops.length ?? 0);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  expect(listed.length).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < listed.length; i++) expect(order.get(listed[i]!)!).toBeGreaterThan(order.get(listed[i - 1]!)!);

  // Each row: the stop's name, the uncertainty in words, the predicted clock time and a countdown, which grows
  // down the list. The rows are read in one go: the bus may pass its next stop meanwhile, and the list then moves
  // up by a row (read row by row, a row's stop and its name came from two lists: failed so in CI).
  const names = new Map(trip.stops.map((s) => [s.stopId, s.stopName]));
  const rows = await panel
    .getByRole('list', { name: 'Next stops' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((li) => ({
        id: Number(li.getAttribute('data-stop-id')),
        text: li.textContent ?? '',
        clock: li.querySelector('[title="Predicted arrival"]')?.textContent ?? '',
        countdown: li.querySelector('[aria-label="Countdown"]')?.textContent ?? '',
      })),
    );
  expect(rows.length).toBeGreaterThanOrEqual(2);
  const countdowns: number[] = [];
  for (const row of rows) {
    if (names.has(row.id)) expect(row.text).toContain(names.get(row.id)!);
    expect(row.text).toMatch(/due now|in about \d+ min|in \d+–\d+ min/);
    expect(row.clock).toMatch(/^\d{1,2}:\d{2}( [AP]M)?$/);
    expect(row.countdown).toMatch(/^\d+:\d{2}$/);
    const [m, s] = row.countdown.split(':').map(Number);
    countdowns.push(m! * 60 + s!);
  }
  for (let i = 1; i < countdowns.length; i++) expect(countdowns[i]!).toBeGreaterThanOrEqual(countdowns[i - 1]!);

  // The list follows the trip: the bus passes the stop listed first, which leaves the list, and a later stop of the
  // trip heads it.
  const first = listed[0]!;
  await expect
    .poll(
      async () => {
        const now = await panelStopIds(page);
        return now.length > 0 && !now.includes(first) && (order.get(now[0]!) ?? -1) > order.get(first)!;
      },
      { timeout: PASS_WAIT_MS, intervals: [2_000] },
    )
    .toBe(true);
});

interface Shared {
  /** A route stop at the place, of the route whose overlay is shown, and where it is. */
  stopId: number;
  lat: number;
  lon: number;
  routeId: number;
  /** Two routes with a bus on its way to the place. */
  routes: [number, number];
  name: string;
}

/** The network's route stops of two routes or more that share a name within 30 m: candidate shared stops. */
function sharedStopCandidates(network: NetworkResponse): Array<{ stopId: number; routeId: number; lat: number; lon: number; name: string }> {
  type S = { stopId: number; routeId: number; lat: number; lon: number; name: string };
  const byName = new Map<string, S[]>();
  for (const f of network.features) {
    const p = f.properties;
    if (p.kind !== 'stop' || f.geometry.type !== 'Point' || typeof p.stopId !== 'number' || typeof p.routeId !== 'number' || typeof p.name !== 'string') continue;
    const [lon, lat] = f.geometry.coordinates;
    byName.set(p.name, [...(byName.get(p.name) ?? []), { stopId: p.stopId, routeId: p.routeId, lat, lon, name: p.name }]);
  }
  const out: S[] = [];
  for (const stops of byName.values()) {
    for (const s of stops) {
      if (stops.some((o) => o.routeId !== s.routeId && distanceM(o.lon, o.lat, s.lon, s.lat) <= 30)) out.push(s);
    }
  }
  return out;
}

test("clicking a stop two routes share opens its next arrivals, listing buses of both routes", async ({ page }) => {
  // A place where buses of two routes are on their way, found over the API the page uses.
  let shared: Shared | null = null;
  await expect
    .poll(
      async () => {
        const network = (await (await page.request.get('/api/network')).json()) as NetworkResponse;
        const tried = new Set<string>();
        for (const c of sharedStopCandidates(network)) {
          if (tried.has(c.name) || tried.size >= 40) continue;
          tried.add(c.name);
          const res = await page.request.get(`/api/stops/${c.stopId}/arrivals`);
          if (!res.ok()) continue;
          const a = (await res.json()) as StopArrivalsResponse;
          const routes = [...new Set(a.arrivals.flatMap((x) => (x.routeId !== null ? [x.routeId] : [])))];
          if (routes.length < 2 || !routes.includes(c.routeId)) continue;
          shared = { ...c, routes: [c.routeId, routes.find((r) => r !== c.routeId)!], name: a.place.name };
          return true;
        }
        return false;
      },
      { timeout: 150_000, intervals: [5_000] },
    )
    .toBe(true);
  const s = shared!;

  // The route's overlay, the map on the stop at street zoom; then a click where the overlay draws the stop.
  const stopView = `/?route=${s.routeId}&lng=${s.lon.toFixed(5)}&lat=${s.lat.toFixed(5)}&z=17.00`;
  await page.goto(stopView);
  await mapReady(page);
  const stopOnScreen = () =>
    page.evaluate(
      ([stopId, lon, lat, layers]) => {
        const map = window.__fleetmap!.map;
        const p = map.project([lon as number, lat as number]);
        const present = (layers as string[]).filter((l) => map.getLayer(l));
        const ids = present.length ? map.queryRenderedFeatures(p, { layers: present }).map((f) => Number(f.properties.stopId)) : [];
        const rect = map.getCanvas().getBoundingClientRect();
        return { ok: ids.includes(stopId as number), x: rect.left + p.x, y: rect.top + p.y };
      },
      [s.stopId, s.lon, s.lat, ROUTE_OVERLAY_STOP_LAYER_IDS] as const,
    );
  await expect.poll(async () => (await stopOnScreen()).ok, { timeout: 60_000 }).toBe(true);
  const panel = page.getByRole('region', { name: `Next arrivals here: ${s.name}` });
  // Each click is tried again: a bus gliding over the stop may take it (failed once in a full run beside the
  // 10,000-bus benchmark: the panel never opened in 20 s). A bus selected instead may move the view: then back.
  await expect(async () => {
    const hit = await stopOnScreen();
    if (!hit.ok) {
      await page.goto(stopView);
      await mapReady(page);
    }
    expect(hit.ok).toBe(true);
    await page.mouse.click(hit.x, hit.y);
    await expect(panel).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  const list = panel.getByRole('list', { name: 'Next arrivals' });
  // Both routes' buses, each row under its route (the page refreshes every 10 s: the set may move meanwhile).
  await expect
    .poll(async () => {
      const ids = await list.getByRole('listitem').evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-route-id'))));
      return s.routes.every((r) => ids.includes(r));
    }, { timeout: 60_000 })
    .toBe(true);
  // The place names every route serving it, and the rows come soonest first.
  const place = ((await (await page.request.get(`/api/stops/${s.stopId}/arrivals`)).json()) as StopArrivalsResponse).place;
  expect(place.routes.map((r) => r.routeId)).toEqual(expect.arrayContaining(s.routes));
  await expect(panel).toContainText(`Routes: ${place.routes.map((r) => r.code ?? r.name ?? `#${r.routeId}`).join(', ')}`);
  const countdowns = await list.getByRole('listitem').evaluateAll((items) =>
    items.map((li) => {
      const [m, sec] = (li.lastElementChild?.textContent ?? '').split(':').map(Number);
      return m! * 60 + sec!;
    }),
  );
  expect(countdowns.every((c) => Number.isFinite(c))).toBe(true);
  for (let i = 1; i < countdowns.length; i++) expect(countdowns[i]!).toBeGreaterThanOrEqual(countdowns[i - 1]!);
});

test("the ladder shows each bus's next stop and predicted arrival, as the trip's predictions give them", async ({ page }) => {
  // A route with buses on its line whose trips have predictions.
  let code = '';
  await expect
    .poll(
      async () => {
        const h = (await (await page.request.get('/api/headways')).json()) as HeadwaysResponse;
        const route = h.routes.find((r) => r.routeCode && r.directions.some((d) => d.buses.some((b) => b.next)));
        code = route?.routeCode ?? '';
        return code;
      },
      { timeout: 120_000 },
    )
    .not.toBe('');

  await page.goto(`/ladder?route=${code}`);
  const buses = page.locator('[data-bus]');
  await expect(buses.first()).toBeVisible({ timeout: 60_000 });
  // A bus's mark names its next stop and the arrival in words, the very stop its trip's predictions put first. The
  // page shows the answer of its last poll (up to 5 s old) and a bus may pass a stop meanwhile: the trip's
  // predictions are read just before and just after the marks, and the mark names the first stop of one of them.
  let picked: { tripId: number; stopName: string } | null = null;
  let lastSeen = 'no mark named a next stop';
  const words = (name: string) => new RegExp(`, next stop ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (due now|in about \\d+ min|in \\d+–\\d+ min)$`);
  const marksNow = () => buses.evaluateAll((els) => els.map((e) => ({ tripId: Number(e.getAttribute('data-trip')), label: e.getAttribute('aria-label') ?? '' })));
  const firstStops = async (tripIds: number[]) => new Map(await Promise.all(tripIds.map(async (id) => [id, (await predictionsOf(page, id))?.stops[0]?.stopName ?? null] as const)));
  try {
    await expect
      .poll(
        async () => {
          const ids = (await marksNow()).filter((x) => x.label.includes('next stop')).slice(0, 8).map((x) => x.tripId);
          const before = await firstStops(ids);
          const marks = new Map((await marksNow()).map((x) => [x.tripId, x.label]));
          const after = await firstStops(ids);
          for (const id of ids) {
            const label = marks.get(id);
            if (label === undefined) continue;
            const name = [before.get(id), after.get(id)].find((n) => n && words(n).test(label));
            if (name) {
              picked = { tripId: id, stopName: name };
              return true;
            }
            lastSeen = `trip ${id}: mark "${label}"; predictions' first stop ${JSON.stringify(before.get(id))} before, ${JSON.stringify(after.get(id))} after`;
          }
          return false;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  } catch (e) {
    throw new Error(`No ladder mark named its trip's next predicted stop; the last compared: ${lastSeen}`, { cause: e });
  }

  // Selected, the bus's line says it in full: the stop, the words and the predicted clock time. The mark is selected
  // from the keyboard, as the ladder allows: a gliding mark never holds still for the two frames a click waits for
  // (a click here waited out the test's deadline, in CI and once in three runs here); e2e/ladder.spec.ts clicks one.
  const mark = page.locator(`[data-bus][data-trip="${picked!.tripId}"]`);
  await expect(async () => {
    await mark.press('Enter', { timeout: 5_000 });
    await expect(page).toHaveURL(new RegExp(`[?&]trip=${picked!.tripId}(&|$)`), { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const selected = page.getByRole('region', { name: 'Selected trip' });
  await expect(selected).toContainText(`trip ${picked!.tripId}`);
  await expect(selected.locator('[data-next-stop]')).toHaveText(/^\s*·\s*next stop .+, (due now|in about \d+ min|in \d+–\d+ min) \(\d{1,2}:\d{2}( [AP]M)?\)$/);
});
