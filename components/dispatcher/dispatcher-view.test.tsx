// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layOutEveryBox, renderLive } from '@/lib/testing/render';
import { makeSnapshot, makeTrip, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { DispatcherView } from './dispatcher-view';

// The map is MapLibre on WebGL, which happy-dom has not: its stand-in says what the view hands it (the drawing
// itself is e2e/dispatcher.spec.ts's).
vi.mock('next/navigation', () => import('@/lib/testing/next-navigation'));
vi.mock('@/components/map/fleet-map', () => import('@/lib/testing/fleet-map-stub'));
vi.mock('@/components/map/preload', () => ({}));

/** Three buses on trips (one 8 min late, one on time, one early) and a trip without a bus. */
const snapshot = makeSnapshot({
  vehicles: [
    makeVehicle({ busId: 7, plateNumber: 'BX-7', trip: makeTrip({ tripId: 71, routeCode: 'M15', delayMinutes: 8 }) }),
    makeVehicle({ busId: 8, plateNumber: 'BX-8', lat: 40.76, trip: makeTrip({ tripId: 81, routeCode: 'M15', delayMinutes: 0 }) }),
    makeVehicle({ busId: 9, plateNumber: 'BX-9', lat: 40.7, trip: makeTrip({ tripId: 91, routeId: 20, routeCode: 'B63', routeName: 'Fifth Av', delayMinutes: -2 }) }),
  ],
  unpositionedTrips: [makeUnpositionedTrip({ tripId: 900 })],
});
const routes = { 'GET /api/exceptions': () => ({ body: { generatedAt: T0, canAct: true, exceptions: [], countsByRule: {} } }) };

beforeEach(() => {
  window.history.replaceState(null, '', '/');
  layOutEveryBox();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const view = () => <DispatcherView staleAfterS={120} ghostAfterS={600} styleUrl={null} styleUrlDark={null} />;
const rowText = (row: HTMLElement) => row.textContent ?? '';

describe('DispatcherView', () => {
  it('lists every active trip, the late one with its delay, and hands the map every located bus', async () => {
    renderLive(view(), { snapshot, routes });
    const rows = await within(await screen.findByRole('listbox', { name: 'Active trips' })).findAllByRole('option');
    expect(rows.map(rowText)).toEqual([
      expect.stringMatching(/^M15First Av \/ Second AvBX-7.*\+8 min$/),
      expect.stringMatching(/^M15First Av \/ Second AvBX-8.*0 min$/),
      expect.stringMatching(/^M101Third Av \/ Lexington AvGhostNo bus.*no position0 min$/),
      expect.stringMatching(/^B63Fifth AvBX-9.*−2 min$/),
    ]);
    expect(within(rows[0]!).getByTitle('Late')).toBeTruthy();
    expect(screen.getByText('3 buses on the map')).toBeTruthy();
    expect(screen.getByText('4 active trips')).toBeTruthy();
    expect(screen.queryByText(/selected on the map/)).toBeNull();
  });

  it('selecting the late trip opens its panel, puts it in the URL and selects its bus on the map', async () => {
    renderLive(view(), { snapshot, routes });
    const rows = await within(await screen.findByRole('listbox', { name: 'Active trips' })).findAllByRole('option');
    fireEvent.click(rows[0]!);
    expect(await screen.findByText('Bus 7 selected on the map')).toBeTruthy();
    expect(rows[0]!.getAttribute('aria-selected')).toBe('true');
    expect(new URLSearchParams(window.location.search).get('trip')).toBe('71');
    const panel = screen.getByRole('region', { name: 'M15 First Av / Second Av' });
    expect(within(panel).getByText(/^Trip #71/)).toBeTruthy();
    expect(within(panel).getAllByText(/\+8 min/).length).toBeGreaterThan(0);
    expect(within(panel).getAllByText('BX-7').length).toBeGreaterThan(0);
  });
});
