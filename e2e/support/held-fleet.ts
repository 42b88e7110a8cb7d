// The fleet at one moment, held still for a page: the bus list and one snapshot are read from the app once the
// feed has something to show, then served to the page as they are, with the page's clock fixed at the snapshot's
// time, so what the page computes can be compared with what a test computes from the same two answers. The
// routes and each bus's last recorded trip are held too (read once they answer), so that nothing on the page
// changes between two readings of it (a CSV and the rows): a history still opening answered "unavailable" first.
import type { Page } from '@playwright/test';
import { decodeCompactFull, decodeRoster, type BusesResponse, type CompactFull, type CompactRoster, type LiveSnapshot } from '@/lib/model';
import { expect, liveSnapshot } from './fixtures';

export interface HeldFleet {
  buses: BusesResponse;
  snapshot: LiveSnapshot;
}

/** Waits for a fleet worth looking at (listed, some positions, some trips), then serves that moment to the page. */
export async function holdFleetData(page: Page): Promise<HeldFleet> {
  await expect
    .poll(
      async () => {
        const buses = (await (await page.request.get('/api/buses')).json()) as BusesResponse;
        const snap = (await liveSnapshot(page)) as LiveSnapshot;
        return buses.buses?.length > 0 && snap.vehicles.filter((v) => v.lat !== null).length > 20 && snap.vehicles.some((v) => v.trip);
      },
      { timeout: 90_000, message: 'the feed has listed the buses and located some' },
    )
    .toBe(true);
  const buses = (await (await page.request.get('/api/buses')).json()) as BusesResponse;
  // The page's feed reads the compact form (lib/model/live-compact.ts): the held snapshot is that answer, and what it
  // decodes to is what the page shows (times in whole seconds, positions to 1e-5°), so the test reads the same.
  const compact = (await (await page.request.get('/api/live?shape=compact')).json()) as CompactFull;
  const roster = (await (await page.request.get(`/api/live?shape=roster&roster=${encodeURIComponent(compact.roster)}`)).json()) as CompactRoster;
  if (roster.version !== compact.roster) throw new Error(`the roster changed while the fleet was being held (${compact.roster} → ${roster.version}); run again`);
  const snapshot = decodeCompactFull(compact, decodeRoster(roster));
  for (const path of ['/api/routes', '/api/buses/last-trips']) {
    let held: unknown = null;
    await expect
      .poll(
        async () => {
          const res = await page.request.get(path);
          if (res.ok()) held = await res.json();
          return res.status();
        },
        { timeout: 90_000, message: `${path} answers` },
      )
      .toBe(200);
    await page.route(`**${path}`, (route) => route.fulfill({ json: held }));
  }
  await page.route('**/api/buses', (route) => route.fulfill({ json: buses }));
  const heldAnswer = (shape: string | null) => (shape === 'compact' ? compact : shape === 'roster' ? roster : { kind: 'full', ...snapshot });
  await page.route(/\/api\/live(\?|$)/, (route) => route.fulfill({ json: heldAnswer(new URL(route.request().url()).searchParams.get('shape')) }));
  // Date.now() stays at the snapshot's time; timers still run, so the page polls and ticks as usual.
  await page.clock.setFixedTime(snapshot.generatedAt);
  return { buses, snapshot };
}

