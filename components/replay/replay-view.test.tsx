// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FleetMomentResponse, FleetMomentVehicle, Route } from '@/lib/model';
import { renderLive } from '@/lib/testing/render';
import { makeSnapshot, T0 } from '@/lib/testing/view-factories';
import { ReplayView } from './replay-view';

// The map is MapLibre on WebGL, which happy-dom has not: its stand-in says what the replay hands it (the drawing
// itself is e2e/history.spec.ts's).
vi.mock('next/navigation', () => import('@/lib/testing/next-navigation'));
vi.mock('@/components/map/fleet-map', () => import('@/lib/testing/fleet-map-stub'));

const AT = T0 - 3_600_000;
const recorded = { from: T0 - 6 * 3_600_000, to: T0 };
const bus = (busId: number, routeId: number, routeCode: string, delayMinutes: number | null): FleetMomentVehicle => ({
  busId,
  gpsAt: AT - 20_000,
  fetchedAt: AT - 15_000,
  lat: 40.75 + busId / 1000,
  lon: -73.98,
  heading: 90,
  speedKmh: 20,
  accuracy: 5,
  tripId: busId * 10,
  trip: { tripId: busId * 10, routeId, routeCode, routeName: null, direction: 'outbound', status: 'started', delayMinutes },
});
const moment: FleetMomentResponse = { at: AT, vehicles: [bus(1, 10, 'M15', 7), bus(2, 10, 'M15', 0), bus(3, 20, 'B63', null)], recorded };
const route = (id: number, code: string, name: string): Route => ({ id, code, name, startName: null, endName: null, distanceEstimate: null, durationEstimate: null, status: null });
const routes = {
  'GET /api/history/fleet': () => ({ body: moment }),
  'GET /api/routes': () => ({ body: { routes: [route(10, 'M15', 'First Av'), route(20, 'B63', 'Fifth Av')], fetchedAt: T0 } }),
};

beforeEach(() => window.history.replaceState(null, '', `/replay?at=${new Date(AT).toISOString()}`));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const view = () => <ReplayView staleAfterS={120} styleUrl={null} styleUrlDark={null} thresholds={{ lateMin: 5, earlyMin: 1 }} />;

describe('ReplayView', () => {
  it('shows the linked moment in the agency zone, its recorded buses on the map and how many there were', async () => {
    const { calls } = renderLive(view(), { snapshot: makeSnapshot(), routes });
    expect(await screen.findByText('3 buses on the map')).toBeTruthy();
    const status = screen.getByLabelText('Moment shown');
    expect(within(status).getByLabelText('Buses shown').textContent).toBe('3');
    // 13:00 UTC is 09:00 in New York (the snapshot's agency zone).
    expect(screen.getByTestId('replay-moment').textContent).toMatch(/09:00/);
    expect(status.textContent).toContain('agency time');
    expect(calls.filter((c) => c.path === '/api/history/fleet')).toHaveLength(1);
  });

  it('choosing a bus on the way puts it in the URL, selects it on the map and asks for its track', async () => {
    const { calls } = renderLive(view(), { snapshot: makeSnapshot(), routes: { ...routes, 'GET /api/history/buses/2/track': () => ({ body: { busId: 2, from: AT, to: AT, fixes: [] } }) } });
    await screen.findByText('3 buses on the map');
    window.history.replaceState(null, '', `${window.location.search}&bus=2`);
    expect(await screen.findByText('Bus 2 selected on the map')).toBeTruthy();
    expect(await screen.findByText(/Bus 2: 0 of 0 positions in the window so far/)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/history/buses/2/track')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'clear' }));
    expect(await screen.findByText('3 buses on the map')).toBeTruthy();
    expect(screen.queryByText(/selected on the map/)).toBeNull();
    expect(new URLSearchParams(window.location.search).get('bus')).toBeNull();
  });

  it('says why a moment has no bus and offers one inside the recording', async () => {
    renderLive(view(), { snapshot: makeSnapshot(), routes: { ...routes, 'GET /api/history/fleet': () => ({ body: { at: AT, vehicles: [], recorded: { from: T0 - 30 * 60_000, to: T0 } } }) } });
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Nothing was recorded this early.');
    expect(within(notice).getByRole('button', { name: /^Show / })).toBeTruthy();
    expect(screen.getByText('0 buses on the map')).toBeTruthy();
  });
});
