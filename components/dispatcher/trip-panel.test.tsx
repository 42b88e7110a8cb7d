// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Estimate } from '@/lib/estimate';
import type { Trip, Vehicle } from '@/lib/model';
import { fakeFetch, renderWithClient } from '@/lib/testing/render';
import { makeTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { BusPlacement } from '@/lib/placement/bus-placement';
import { activeTrips } from '@/lib/view/trips';
import { TripPanel, type TripPanelProps } from './trip-panel';

const vehicle: Vehicle = makeVehicle({ busId: 7, plateNumber: 'BX-7', gpsAt: T0 - 40_000, trip: makeTrip({ tripId: 11, routeId: 10, routeCode: 'M15', delayMinutes: 6 }) });
const row = activeTrips({ vehicles: [vehicle], unpositionedTrips: [] })[0]!;
const estimated: BusPlacement = {
  busId: 7,
  estimate: { basis: 'gps-estimate', fix: { lon: vehicle.lon!, lat: vehicle.lat!, gpsAt: T0 - 40_000 } } as Estimate,
  cls: 'late',
  stale: false,
  label: 'M15',
};

function props(over: Partial<TripPanelProps> = {}): TripPanelProps {
  return {
    tripId: 11,
    row,
    vehicle,
    placement: estimated,
    now: T0,
    staleAfterS: 120,
    theme: 'light',
    follow: false,
    onFollowChange: vi.fn(),
    onRecentre: vi.fn(),
    routeOverlayId: null,
    onToggleRoute: vi.fn(),
    onClose: vi.fn(),
    hasMap: true,
    zone: { zone: 'UTC', name: 'UTC', kind: 'agency' },
    ...over,
  };
}

const tripDetails: Trip = {
  id: 11,
  routeId: 10,
  busId: 7,
  tripDate: '2025-06-02',
  direction: 'outbound',
  tripType: 'regular',
  serviceKind: 'weekday',
  plannedDepartureAt: T0 - 20 * 60_000,
  plannedArrivalAt: T0 + 40 * 60_000,
  actualDepartureAt: T0 - 19 * 60_000,
  actualArrivalAt: null,
  status: 'started',
  delayMinutes: 6,
  routeName: 'First Av / Second Av',
  routeCode: 'M15',
  plateNumber: 'BX-7',
  busName: 'Bus 7',
};

let api: ReturnType<typeof fakeFetch>;
beforeEach(() => {
  api = fakeFetch({ 'GET /api/trips/11': () => ({ body: { trip: tripDetails, fetchedAt: T0 } }) });
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('TripPanel', () => {
  it('shows the trip, its bus, and how the map places it, in words; the trip resource adds its details', async () => {
    renderWithClient(<TripPanel {...props()} />);
    const panel = screen.getByRole('region', { name: /M15/ });
    expect(panel.textContent).toContain('Trip #11');
    expect(panel.textContent).toContain('BX-7');
    expect(screen.getByLabelText('Position on the map').textContent).toBe('On the map: estimated from a fix 40 s old');
    expect(await screen.findByText('weekday')).toBeTruthy();
    expect(screen.getByText('2025-06-02')).toBeTruthy();
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/trips/11');
  });

  it('a trip the upstream no longer has (404) leaves the panel usable with what the snapshot knows', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/trips/11': () => ({ status: 404, body: { error: { message: 'Trip not found' } } }) }).fetch);
    renderWithClient(<TripPanel {...props()} />);
    expect(await screen.findByText('Trip finished or not found')).toBeTruthy();
    expect(screen.getByText('BX-7')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveProperty('disabled', false);
  });

  it('a viewer asks the upstream for nothing and cannot follow: trip details and follow are the dispatcher’s', () => {
    const { client } = renderWithClient(<TripPanel {...props()} />, { viewer: { kind: 'user', name: 'v', role: 'viewer', mode: 'local' } });
    expect(screen.getByText('Trip details need the dispatcher role')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Re-centre' })).toHaveProperty('disabled', false);
    // The trip's query exists, disabled: never fetching, never fetched.
    const details = client.getQueryCache().find({ queryKey: ['trip', 11] });
    expect(details?.state).toMatchObject({ fetchStatus: 'idle', status: 'pending', dataUpdateCount: 0, errorUpdateCount: 0 });
    expect(api.calls).toEqual([]);
  });

  it('a bus the map does not draw cannot be followed or re-centred on, and says so', () => {
    renderWithClient(<TripPanel {...props({ placement: null })} />);
    expect(screen.getByLabelText('Position on the map').textContent).toBe('On the map: not on the map');
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Re-centre' })).toHaveProperty('disabled', true);
  });

  it('its buttons say what they would change: follow, re-centre, the route overlay on and off, close', () => {
    const p = props();
    const { rerender } = renderWithClient(<TripPanel {...p} />);
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(p.onFollowChange).toHaveBeenLastCalledWith(true);
    fireEvent.click(screen.getByRole('button', { name: 'Re-centre' }));
    expect(p.onRecentre).toHaveBeenCalledTimes(1);
    const route = screen.getByRole('button', { name: 'Show route' });
    expect(route.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(route);
    expect(p.onToggleRoute).toHaveBeenLastCalledWith(10);
    rerender(<TripPanel {...p} routeOverlayId={10} follow />);
    expect(screen.getByRole('button', { name: 'Show route' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Show route' }));
    expect(p.onToggleRoute).toHaveBeenLastCalledWith(null);
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(p.onFollowChange).toHaveBeenLastCalledWith(false);
    fireEvent.click(screen.getByRole('button', { name: 'Close trip panel' }));
    expect(p.onClose).toHaveBeenCalledTimes(1);
  });

  it('a fix older than the stale limit is marked stale; the list-only view has no map buttons', () => {
    renderWithClient(<TripPanel {...props({ staleAfterS: 30, hasMap: false })} />);
    expect(screen.getByText(/· stale/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByLabelText('Position on the map')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show route' })).toHaveProperty('disabled', true);
  });
});
