import { describe, expect, it } from 'vitest';
import { stopsAlong } from '@/lib/testing/estimate-factories';
import { groupPlaces } from './places';

describe('groupPlaces', () => {
  it('makes one place of route stops with the same name within 30 m, and keeps others apart', () => {
    const a = stopsAlong([[0, 0], [0, 400]], { routeId: 1, firstId: 10 }).map((s, i) => ({ ...s, stopName: i === 0 ? '86 St' : 'Far' }));
    // Route 2's "86 St" is 20 m east of route 1's; its "Far" is 200 m from route 1's "Far".
    const b = stopsAlong([[20, 0], [200, 400]], { routeId: 2, firstId: 20 }).map((s, i) => ({ ...s, stopName: i === 0 ? ' 86  st ' : 'Far' }));
    // Route 3 has a stop 10 m from route 1's "86 St" with another name.
    const c = stopsAlong([[0, 10], [0, 800]], { routeId: 3, firstId: 30 }).map((s, i) => ({ ...s, stopName: i === 0 ? 'Lexington' : 'End' }));
    const places = groupPlaces(new Map([[1, a], [2, b], [3, c]]), (id) => ({ code: `R${id}`, name: `Route ${id}` }));
    const shared = places.of(10)!;
    expect(shared.stopIds).toEqual([10, 20]);
    expect(places.of(20)).toBe(shared);
    expect(shared.routes.map((r) => r.code)).toEqual(['R1', 'R2']);
    expect(places.of(11)!.stopIds).toEqual([11]);
    expect(places.of(30)!.stopIds).toEqual([30]);
    expect(places.of(99)).toBeUndefined();
  });
});
