// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layOutEveryBox, renderLive } from '@/lib/testing/render';
import { makeBus, makeSnapshot, makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { FleetView } from './fleet-view';

vi.mock('next/navigation', () => import('@/lib/testing/next-navigation'));

const bus = (id: number, plateNumber: string, lastGpsAt: number | null) => makeBus({ id, plateNumber, internalCode: `I-${id}`, busName: `Bus ${id}`, lastGpsAt });
/** Three buses: BX-1 on a trip with a fresh fix, BX-2 last heard an hour ago, BX-3 never reported. */
const snapshot = makeSnapshot({ vehicles: [makeVehicle({ busId: 1, plateNumber: 'BX-1', gpsAt: T0 - 10_000, trip: makeTrip({ tripId: 11, routeCode: 'M15', delayMinutes: 9 }) })] });
const routes = {
  'GET /api/buses': () => ({ body: { buses: [bus(1, 'BX-1', T0 - 10_000), bus(2, 'BX-2', T0 - 3_600_000), bus(3, 'BX-3', null)], fetchedAt: T0 - 60_000 } }),
  'GET /api/routes': () => ({ body: { routes: [], fetchedAt: T0 } }),
  'GET /api/buses/last-trips': () => ({ body: { recorded: true, byBus: {} } }),
};

beforeEach(() => {
  window.history.replaceState(null, '', '/fleet');
  layOutEveryBox();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const count = (label: string) => within(screen.getByRole('group', { name: 'Fleet counts' })).getByText(label).nextElementSibling?.textContent;
const shownPlates = async () => {
  const table = await screen.findByRole('table', { name: 'Fleet' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => /BX-\d/.exec(r.textContent ?? '')?.[0]);
};

describe('FleetView', () => {
  it('counts the fleet by GPS health and lists every bus, the one on a trip with its route', async () => {
    renderLive(<FleetView staleAfterS={120} />, { snapshot, routes });
    await screen.findByRole('table', { name: 'Fleet' });
    await vi.waitFor(() => expect(count('Buses')).toBe('3'));
    expect(count('On a trip')).toBe('1');
    expect(count('GPS fresh')).toBe('1');
    expect(count('GPS stale')).toBe('1');
    expect(count('GPS never reported')).toBe('1');
    expect(count('Shown')).toBe('3');
    expect((await shownPlates()).sort()).toEqual(['BX-1', 'BX-2', 'BX-3']);
    const onTrip = within(await screen.findByRole('table', { name: 'Fleet' }))
      .getAllByRole('row')
      .find((r) => r.textContent?.includes('BX-1'))!;
    expect(onTrip.textContent).toContain('M15');
  });

  it('filters by GPS health and by search, keeping both in the URL', async () => {
    renderLive(<FleetView staleAfterS={120} />, { snapshot, routes });
    await vi.waitFor(() => expect(count('Buses')).toBe('3'));
    fireEvent.click(screen.getByRole('button', { name: 'Stale (1)' }));
    await vi.waitFor(() => expect(count('Shown')).toBe('1'));
    expect(await shownPlates()).toEqual(['BX-2']);
    expect(screen.getByRole('button', { name: 'Stale (1)' }).getAttribute('aria-pressed')).toBe('true');
    expect(window.location.search).toContain('stale');
    fireEvent.click(screen.getByRole('button', { name: 'Stale (1)' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search buses' }), { target: { value: 'BX-3' } });
    await vi.waitFor(() => expect(count('Shown')).toBe('1'));
    expect(await shownPlates()).toEqual(['BX-3']);
    expect(new URLSearchParams(window.location.search).get('q')).toBe('BX-3');
  });
});
