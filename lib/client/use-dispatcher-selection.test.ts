// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '@/lib/model';
import { makeSnapshot, makeTrip, makeVehicle } from '@/lib/testing/view-factories';
import { activeTrips } from '@/lib/view/trips';
import { useDispatcherSelection } from './use-dispatcher-selection';
import type { UrlPatch } from './use-dispatcher-url';

afterEach(cleanup);

// Two buses on trips, and a third bus with no trip.
const snapshot: LiveSnapshot = makeSnapshot({
  vehicles: [
    makeVehicle({ busId: 1, plateNumber: 'BX-1', trip: makeTrip({ tripId: 11 }) }),
    makeVehicle({ busId: 2, plateNumber: 'BX-2', trip: makeTrip({ tripId: 12 }) }),
    makeVehicle({ busId: 3, plateNumber: 'BX-3', trip: null }),
  ],
});
const trips = activeTrips(snapshot);

/** The hook over a URL that takes every patch, as the dispatcher's URL does. */
function setup(start: { tripId: number | null; busId: number | null }) {
  const patches: UrlPatch[] = [];
  const hook = renderHook(
    ({ url }) =>
      useDispatcherSelection(
        url,
        (patch) => {
          patches.push(patch);
          hook.rerender({ url: { ...url, ...patch } as typeof url });
        },
        trips,
        snapshot,
      ),
    { initialProps: { url: start } },
  );
  return { hook, patches };
}

describe('useDispatcherSelection', () => {
  it('nothing selected: no trip, no bus, no vehicle', () => {
    const { hook } = setup({ tripId: null, busId: null });
    expect(hook.result.current.hasSelection).toBe(false);
    expect(hook.result.current.vehicle).toBeNull();
  });

  it('a link naming only a trip selects the bus running it; one naming only a bus selects its trip', () => {
    expect(setup({ tripId: 12, busId: null }).hook.result.current.vehicle?.plateNumber).toBe('BX-2');
    const byBus = setup({ tripId: null, busId: 1 }).hook.result.current;
    expect(byBus.selection.tripId).toBe(11);
    expect(byBus.vehicle?.plateNumber).toBe('BX-1');
  });

  it('a bus picked on the map writes the bus and its trip (none for a bus without one)', () => {
    const { hook, patches } = setup({ tripId: null, busId: null });
    act(() => hook.result.current.selectBus(2));
    act(() => hook.result.current.selectBus(3));
    expect(patches).toEqual([
      { busId: 2, tripId: 12 },
      { busId: 3, tripId: null },
    ]);
    expect(hook.result.current.vehicle?.plateNumber).toBe('BX-3');
    expect(hook.result.current.hasSelection).toBe(true);
  });

  it('a row picked in the list writes its trip and bus', () => {
    const { hook, patches } = setup({ tripId: null, busId: null });
    act(() => hook.result.current.selectTrip(trips.find((t) => t.tripId === 11)!));
    expect(patches).toEqual([{ tripId: 11, busId: 1 }]);
    expect(hook.result.current.selection.row?.tripId).toBe(11);
  });

  it('follow mode is asked for bus by bus: every new selection, and clearing, ends it', () => {
    const { hook, patches } = setup({ tripId: 11, busId: 1 });
    act(() => hook.result.current.setFollow(true));
    expect(hook.result.current.follow).toBe(true);
    act(() => hook.result.current.selectBus(2));
    expect(hook.result.current.follow).toBe(false);
    act(() => hook.result.current.setFollow((f) => !f));
    expect(hook.result.current.follow).toBe(true);
    act(() => hook.result.current.selectTrip(trips.find((t) => t.tripId === 11)!));
    expect(hook.result.current.follow).toBe(false);
    act(() => hook.result.current.setFollow(true));
    act(() => hook.result.current.clearSelection());
    expect(hook.result.current.follow).toBe(false);
    expect(patches.at(-1)).toEqual({ tripId: null, busId: null });
    expect(hook.result.current.hasSelection).toBe(false);
  });
});
