// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseWallOptions } from '@/lib/page-url/wall-options';
import { renderLive } from '@/lib/testing/render';
import { makeSnapshot, makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { WallDisplay } from './wall-display';

// The map is MapLibre on WebGL, which happy-dom has not: its stand-in says what the wall hands it (the drawing
// itself is e2e/wall.spec.ts's).
vi.mock('@/components/map/fleet-map', () => import('@/lib/testing/fleet-map-stub'));
vi.mock('@/components/map/preload', () => ({}));

/** Four buses on trips: two late on M15 (12 and 6 min), one on time on M15, one early on B63. */
const snapshot = makeSnapshot({
  vehicles: [
    makeVehicle({ busId: 1, plateNumber: 'BX-1', trip: makeTrip({ tripId: 11, routeCode: 'M15', delayMinutes: 12 }) }),
    makeVehicle({ busId: 2, plateNumber: 'BX-2', lat: 40.76, trip: makeTrip({ tripId: 12, routeCode: 'M15', delayMinutes: 6 }) }),
    makeVehicle({ busId: 3, plateNumber: 'BX-3', lat: 40.74, trip: makeTrip({ tripId: 13, routeCode: 'M15', delayMinutes: 0 }) }),
    makeVehicle({ busId: 4, plateNumber: 'BX-4', lat: 40.7, trip: makeTrip({ tripId: 14, routeId: 20, routeCode: 'B63', routeName: 'Fifth Av', delayMinutes: -2 }) }),
  ],
});
const exceptions = { 'GET /api/exceptions': () => ({ body: { generatedAt: T0, canAct: false, exceptions: [], countsByRule: { late: 2, 'gps-lost': 1 } } }) };

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const wall = (query: Record<string, string> = {}) => <WallDisplay options={parseWallOptions(query)} staleAfterS={120} styleUrl={null} styleUrlDark={null} />;
const tile = (name: string) => screen.getByRole('region', { name });

describe('WallDisplay', () => {
  it('shows the whole network: its buses on the map, the figures, the worst delays first and the open exceptions', async () => {
    renderLive(wall(), { snapshot, routes: exceptions });
    expect(await screen.findByText('4 buses on the map')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Whole network');
    expect(screen.getByText('2 routes with active trips')).toBeTruthy();
    expect(within(tile('Active trips')).getByText('4')).toBeTruthy();
    expect(within(tile('Late')).getByText('2')).toBeTruthy();
    const worst = within(tile('Worst delays')).getAllByRole('listitem').map((li) => li.textContent);
    expect(worst.slice(0, 2)).toEqual([expect.stringMatching(/^M15.*\+12 min$/), expect.stringMatching(/^M15.*\+6 min$/)]);
    const open = await screen.findByRole('region', { name: 'Open exceptions' });
    expect(within(open).getByLabelText('Late: 2')).toBeTruthy();
    expect(within(open).getByLabelText('GPS lost: 1')).toBeTruthy();
  });

  it('shows one route when the URL asks for it: its buses and its figures only', async () => {
    renderLive(wall({ routes: 'B63' }), { snapshot, routes: exceptions });
    expect(await screen.findByText('1 buses on the map')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Route B63');
    expect(screen.getByText('Fifth Av')).toBeTruthy();
    expect(screen.queryByText(/drawn on the map/)).toBeNull();
    expect(within(tile('Active trips')).getByText('1')).toBeTruthy();
    expect(within(tile('Late')).getByText('0')).toBeTruthy();
  });

  it('rotating through routes shows one at a time, with its line drawn over the map', async () => {
    // The browser's clock picks the route (one 30 s slot each): held at T0, the first slot of a cycle.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    renderLive(wall({ routes: 'M15,B63', rotate: '30' }), { snapshot, routes: exceptions });
    expect(await screen.findByText('1 buses on the map')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Route B63');
    expect(screen.getByText('Route 20 drawn on the map')).toBeTruthy();
    expect(screen.getByText('Fifth Av · 1 of 2')).toBeTruthy();
    // The next slot: the other route, as the wall's clock ticks on to it.
    vi.setSystemTime(T0 + 30_000);
    expect(await screen.findByText('3 buses on the map', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Route M15');
    expect(screen.getByText('Route 10 drawn on the map')).toBeTruthy();
    expect(screen.getByText('First Av / Second Av · 2 of 2')).toBeTruthy();
  });

  it('says it waits for live data before the first snapshot, and names an ignored option', async () => {
    renderLive(wall({ rotate: 'often' }), { routes: exceptions });
    expect(await screen.findByText('Waiting for live data…')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Ignored options' })).getAllByRole('listitem')).toHaveLength(1);
  });
});
