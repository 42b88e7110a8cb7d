import { describe, expect, it } from 'vitest';
import { directionRuns, stopsForDirection } from './direction';
import { pathForTrip } from './path';
import { stopsAlong } from '@/lib/testing/estimate-factories';

const outbound = stopsAlong([[0, 0], [0, 250], [0, 500]]);
const inbound = stopsAlong([[10, 500], [10, 250], [10, 0]], { firstOrder: 4, firstId: 200 });
const ids = (xs: { id: number }[]) => xs.map((s) => s.id);

describe('direction rule', () => {
  it('cuts the stops into runs at is_start and after is_end, in stop_order whatever the list order', () => {
    const runs = directionRuns([...inbound, ...outbound].reverse());
    expect(runs.map(ids)).toEqual([ids(outbound), ids(inbound)]);
  });

  it('gives outbound (or 0) the first run and inbound (or 1) the second', () => {
    const stops = [...outbound, ...inbound];
    for (const d of ['outbound', 'Outbound ', '0']) expect(stopsForDirection(stops, d)).toEqual({ ok: true, stops: outbound });
    for (const d of ['inbound', 'INBOUND', '1']) expect(stopsForDirection(stops, d)).toEqual({ ok: true, stops: inbound });
  });

  it('takes a route with no stop flagged as one run', () => {
    const unflagged = stopsAlong([[0, 0], [0, 250], [0, 500]], { flags: false });
    expect(directionRuns(unflagged)).toHaveLength(1);
    expect(stopsForDirection(unflagged, 'outbound')).toEqual({ ok: true, stops: unflagged });
    expect(stopsForDirection(unflagged, null)).toEqual({ ok: true, stops: unflagged });
  });

  it('cannot split what the rule does not say', () => {
    const stops = [...outbound, ...inbound];
    expect(stopsForDirection(stops, 'northbound')).toEqual({ ok: false, reason: 'unknown-direction' });
    // Two runs and no direction: either could be the trip's.
    expect(stopsForDirection(stops, null)).toEqual({ ok: false, reason: 'unknown-direction' });
    // One run: the inbound stops are not given (its reverse is a guess).
    expect(stopsForDirection(outbound, 'inbound')).toEqual({ ok: false, reason: 'no-run-for-direction' });
    const third = stopsAlong([[20, 0], [20, 250]], { firstOrder: 7, firstId: 300 });
    expect(stopsForDirection([...stops, ...third], 'outbound')).toEqual({ ok: false, reason: 'too-many-runs' });
    expect(stopsForDirection([], 'outbound')).toEqual({ ok: false, reason: 'no-stops' });
  });

  it('builds one path per route version and direction, and none from fewer than two placed stops', () => {
    const stops = [...outbound, ...inbound];
    const a = pathForTrip(stops, 'inbound');
    expect(a.ok && a.path.line.lengthM).toBeCloseTo(500, 0);
    expect(pathForTrip(stops, 'inbound')).toBe(a);
    const unplaced = outbound.map((s, i) => (i > 0 ? { ...s, latitude: null } : s));
    expect(pathForTrip(unplaced, 'outbound')).toEqual({ ok: false, reason: 'too-few-placed-stops' });
  });
});
