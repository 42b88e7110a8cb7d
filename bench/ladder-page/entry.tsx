// The browser side of the headways benchmark's ladder figure, bundled with esbuild by bench/ladder-update.ts and
// served only by it (it never ships in the app). Renders the app's own RouteLadder (components/ladder) for one
// direction of 60 stops with 30 buses (or ?stops=&buses=), then applies updates as /api/headways answers bring them: every bus a little
// further along, a new instant, the gaps measured again. Each update is rendered synchronously and waits two frames.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouteLadder } from '@/components/ladder/route-ladder';
import type { DirectionHeadways, HeadwayBus, HeadwayGap, RouteHeadways } from '@/lib/model';
import { ForwardOnly } from '@/lib/view/ladder';

// The case by default; ?stops=&buses= for a bigger column (a route of the 10,000-bus fleet).
const query = new URLSearchParams(window.location.search);
const STOPS = Number(query.get('stops') ?? 60);
const BUSES = Number(query.get('buses') ?? 30);
const SPACING_M = 300;
const LENGTH_M = (STOPS - 1) * SPACING_M;
const SPEED_MPS = 5;
const T0 = Date.parse('2026-03-04T13:00:00Z');

let tick = 0;

function direction(now: number): DirectionHeadways {
  const stops = Array.from({ length: STOPS }, (_, i) => ({ stopId: i + 1, name: `Stop ${i + 1}`, stopOrder: i + 1, m: i * SPACING_M }));
  const buses: HeadwayBus[] = Array.from({ length: BUSES }, (_, i) => {
    const fromM = ((BUSES - 1 - i) * LENGTH_M) / BUSES + (i % 3) * 20;
    const progressM = Math.min(LENGTH_M, fromM + (SPEED_MPS * (now - T0)) / 1000);
    return {
      busId: i + 1,
      tripId: 100 + i,
      label: `Bus ${i + 1}`,
      delayMinutes: i % 4 === 0 ? 7 : 1,
      delayClass: i % 4 === 0 ? 'late' : 'on-time',
      basis: i % 5 === 0 ? 'fix' : 'gps-estimate',
      stale: i % 9 === 0,
      gpsAt: now - (i % 4) * 20_000,
      progressM,
      motion: { fromM: progressM, fromAt: now, speedMps: SPEED_MPS, toM: LENGTH_M },
      scheduledM: Math.min(LENGTH_M, progressM + (i % 4 === 0 ? 900 : 100)),
      layover: null,
      plannedDepartureAt: T0 - (BUSES - i) * 6 * 60_000,
    };
  });
  const gaps: HeadwayGap[] = buses.slice(1).map((f, i) => {
    const l = buses[i]!;
    const headwayS = (l.progressM! - f.progressM!) / SPEED_MPS;
    const ratio = headwayS / 360;
    return { leaderTripId: l.tripId, followerTripId: f.tripId, distanceM: l.progressM! - f.progressM!, headwayS, paceMps: SPEED_MPS, paceSource: 'recent', scheduledS: 360, ratio, cls: ratio <= 0.5 ? 'bunched' : ratio >= 1.5 ? 'gapped' : 'regular' };
  });
  return { direction: 'outbound', toward: `Stop ${STOPS}`, lengthM: LENGTH_M, stops, buses, gaps, layover: [], offLine: [], ghosts: [] };
}

const root = createRoot(document.getElementById('root')!);
const hold = new ForwardOnly();

function render(now: number): void {
  const route: RouteHeadways = { routeId: 1, routeCode: 'M15', routeName: 'First Av', directions: [direction(now)] };
  flushSync(() => root.render(<RouteLadder route={route} now={now} theme="light" selectedTripId={null} onSelect={() => {}} hold={hold} />));
}

const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/** One update: a new answer and a new instant, rendered and painted; the wall time of the render itself. */
async function update(): Promise<{ renderMs: number; buses: number; columnPx: number }> {
  tick++;
  const t = performance.now();
  render(T0 + tick * 5_000);
  const renderMs = performance.now() - t;
  await frames();
  return { renderMs, buses: document.querySelectorAll('[data-bus]').length, columnPx: document.querySelector('svg')?.getBoundingClientRect().height ?? 0 };
}

declare global {
  interface Window {
    __ladder?: { update: typeof update };
  }
}

render(T0);
window.__ladder = { update };
