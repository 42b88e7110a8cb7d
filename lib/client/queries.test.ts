import { describe, expect, it } from 'vitest';
import type { NetworkResponse } from '@/lib/model';
import { NETWORK_LOADING_POLL_MS, NETWORK_POLL_MS, networkIncomplete, networkQuery } from './queries';

const stop = (id: number): NetworkResponse['features'][number] => ({
  type: 'Feature',
  id,
  geometry: { type: 'Point', coordinates: [-73.98, 40.75] },
  properties: { kind: 'stop', stopId: id },
});

function network(features: number, pendingRoutes: number, routesListed = true): NetworkResponse {
  return { type: 'FeatureCollection', features: Array.from({ length: features }, (_, i) => stop(i + 1)), pendingRoutes, routesListed };
}

/** The interval networkQuery asks for, given the data it last received. */
function pollAfter(data: NetworkResponse | undefined): unknown {
  const interval = networkQuery().refetchInterval;
  if (typeof interval !== 'function') throw new Error('networkQuery polls by a function of its data');
  return interval({ state: { data } } as Parameters<typeof interval>[0]);
}

describe('networkQuery polling', () => {
  it('asks again soon while there is no data, the routes are not listed yet, or stops are still loading', () => {
    expect(networkIncomplete(undefined)).toBe(true);
    expect(networkIncomplete(network(0, 0, false))).toBe(true);
    expect(networkIncomplete(network(40, 3))).toBe(true);
    expect(pollAfter(undefined)).toBe(NETWORK_LOADING_POLL_MS);
    // The feed before it has listed the routes: nothing, nothing pending, and it says so.
    expect(pollAfter(network(0, 0, false))).toBe(NETWORK_LOADING_POLL_MS);
    expect(pollAfter(network(40, 3))).toBe(NETWORK_LOADING_POLL_MS);
  });

  it('slows down once the network is complete, also when the organization has no routes at all', () => {
    expect(networkIncomplete(network(40, 0))).toBe(false);
    expect(pollAfter(network(40, 0))).toBe(NETWORK_POLL_MS);
    expect(networkIncomplete(network(0, 0))).toBe(false);
    expect(pollAfter(network(0, 0))).toBe(NETWORK_POLL_MS);
  });
});
