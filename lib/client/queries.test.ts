import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeCompactDelta, encodeCompactFull, encodeRoster, liveChanges, type CompactAnswer, type CompactRoster, type LiveSnapshot, type NetworkResponse } from '@/lib/model';
import { makeSnapshot, makeVehicle } from '@/lib/testing/view-factories';
import { fetchLive, liveUrl, type RosterHolder, NETWORK_LOADING_POLL_MS, NETWORK_POLL_MS, networkIncomplete, networkQuery } from './queries';

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

describe('fetchLive', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A server that answers each URL from this list of bodies, in order, and records what was asked. */
  function serve(...bodies: (CompactAnswer | CompactRoster)[]) {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(bodies.shift()), { status: 200 });
    });
    return asked;
  }

  const v1 = makeSnapshot({ epoch: 'ab', version: 1, vehicles: [makeVehicle({ busId: 1 }), makeVehicle({ busId: 2 })] });
  const v2: LiveSnapshot = { ...v1, version: 2, generatedAt: v1.generatedAt + 1_000, vehicles: [v1.vehicles[0]!, makeVehicle({ busId: 2, lat: 40.9 })] };
  const deltaTo2 = encodeCompactDelta(v2, 1, liveChanges(v1, v2));
  const full = (s: LiveSnapshot, roster = 'r1') => encodeCompactFull(s, roster);
  const rosterOf = (s: LiveSnapshot, version = 'r1') => encodeRoster(s.vehicles, version);
  const rosterUrl = (version: string) => `/api/live?shape=roster&roster=${version}`;

  it('asks for the whole snapshot first, then for what changed since the version it holds', async () => {
    const asked = serve(full(v1), rosterOf(v1), deltaTo2);
    const rosters: RosterHolder = { roster: undefined };
    const first = await fetchLive(undefined, 7, undefined, rosters);
    expect(first).toEqual(v1);
    const second = await fetchLive(first, 7, undefined, rosters);
    expect(asked).toEqual(['/api/live?shape=compact&watch=7', rosterUrl('r1'), '/api/live?shape=compact&watch=7&since=ab-1']);
    expect(second).toEqual(v2);
    expect(second.vehicles[0]).toBe(first.vehicles[0]);
  });

  it('takes a full answer in place of the held snapshot, and starts over when a delta does not fit it', async () => {
    const other = { ...v2, epoch: 'cd', version: 9 };
    const rosters: RosterHolder = { roster: undefined };
    serve(full(other), rosterOf(other));
    expect(await fetchLive(v1, null, undefined, rosters)).toEqual(other);
    // The roster held is the one the next full answer names: it is not asked again.
    const asked = serve(deltaTo2, full(v2));
    expect(await fetchLive({ ...v1, version: 5 }, null, undefined, rosters)).toEqual(v2);
    expect(asked).toEqual(['/api/live?shape=compact&since=ab-5', '/api/live?shape=compact']);
  });

  it('asks in full when the snapshot it holds is not one the server sent (a broken answer must not stick)', async () => {
    const asked = serve(full(v2), rosterOf(v2));
    const broken = { version: -1, vehicles: 'not a list' } as unknown as LiveSnapshot;
    expect(await fetchLive(broken, null)).toEqual(v2);
    expect(asked).toEqual(['/api/live?shape=compact', rosterUrl('r1')]);
  });

  it('asks for the roster again when a full answer names another version, and for the full answer again when the server no longer has that roster', async () => {
    const rosters: RosterHolder = { roster: undefined };
    const renamed: LiveSnapshot = { ...v2, vehicles: [{ ...v2.vehicles[0]!, plateNumber: 'NEW-1' }, v2.vehicles[1]!] };
    serve(full(v1), rosterOf(v1));
    await fetchLive(undefined, null, undefined, rosters);
    // A plate changed: the full answer names r2, which is asked for by name.
    let asked = serve(full(renamed, 'r2'), rosterOf(renamed, 'r2'));
    expect((await fetchLive(undefined, null, undefined, rosters)).vehicles[0]!.plateNumber).toBe('NEW-1');
    expect(asked).toEqual(['/api/live?shape=compact', rosterUrl('r2')]);
    // The answer names r3, but the server already answers r4 for it: the full answer is asked again, and names r4.
    const again = { ...renamed, vehicles: [{ ...renamed.vehicles[0]!, plateNumber: 'NEWER' }, renamed.vehicles[1]!] };
    asked = serve(full(renamed, 'r3'), rosterOf(again, 'r4'), full(again, 'r4'));
    expect((await fetchLive(undefined, null, undefined, rosters)).vehicles[0]!.plateNumber).toBe('NEWER');
    expect(asked).toEqual(['/api/live?shape=compact', rosterUrl('r3'), '/api/live?shape=compact']);
    // A server that never has the roster it names: the page gives up until its next poll.
    serve(full(v1, 'r5'), rosterOf(v1, 'r6'), full(v1, 'r7'), rosterOf(v1, 'r8'), full(v1, 'r9'), rosterOf(v1, 'r10'));
    await expect(fetchLive(undefined, null, undefined, rosters)).rejects.toThrow(/no longer has/);
  });

  it('writes the since parameter as the ETag names the version', () => {
    expect(liveUrl(undefined)).toBe('/api/live?shape=compact');
    expect(liveUrl({ epoch: '0f3a', version: 12 }, null)).toBe('/api/live?shape=compact&since=0f3a-12');
  });

  it('keeps the trip and names it holds for a bus the delta says only moved', async () => {
    const moved = encodeCompactDelta(v2, 1, liveChanges(v1, v2), (busId) => busId === 2);
    expect(moved.m.id).toEqual([2]);
    expect(moved.v.id).toEqual([]);
    serve(moved);
    const next = await fetchLive(v1, null);
    expect(next).toEqual(v2);
    expect(next.vehicles[1]!.trip).toBe(v1.vehicles[1]!.trip);
  });

  it('refuses an answer in a form it does not read', async () => {
    serve({ ...full(v1), shape: 'other' } as unknown as CompactAnswer);
    await expect(fetchLive(undefined, null)).rejects.toThrow(/does not read/);
  });
});
