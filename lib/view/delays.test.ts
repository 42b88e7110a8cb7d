import { describe, expect, it } from 'vitest';
import {
  delayHistogram,
  filterBoardTrips,
  mostDelayedTrips,
  routeDelayRows,
  sortRouteRows,
  tripDirections,
} from './delays';
import { trip } from '@/lib/testing/view-factories';

const T = { lateMin: 5, earlyMin: 1 };

describe('routeDelayRows', () => {
  it('groups by route id, falls back to the code, and orders routes naturally', () => {
    const trips = [
      trip({ routeId: 101, routeCode: 'M101', routeName: null, delayMinutes: 7 }),
      trip({ routeId: 15, routeCode: 'M15', routeName: 'First Av', delayMinutes: 1 }),
      trip({ routeId: 101, routeCode: 'M101', routeName: 'Third Av', delayMinutes: 2 }),
      trip({ routeId: null, routeCode: 'X1', routeName: null, delayMinutes: null }),
      trip({ routeId: null, routeCode: null, routeName: null, delayMinutes: 3 }),
    ];
    const rows = routeDelayRows(trips, T);
    expect(rows.map((r) => r.label)).toEqual(['M15', 'M101', 'No route', 'X1']);
    const m101 = rows.find((r) => r.key === 'id:101')!;
    expect(m101).toMatchObject({ activeTrips: 2, late: 1, onTime: 1, routeName: 'Third Av', worstMin: 7 });
    expect(rows.find((r) => r.key === 'code:X1')).toMatchObject({ unknownDelay: 1, onTimeShare: null });
  });
});

describe('sortRouteRows', () => {
  const rows = routeDelayRows(
    [
      trip({ routeId: 1, routeCode: 'A', delayMinutes: 9 }),
      trip({ routeId: 2, routeCode: 'B', delayMinutes: 2 }),
      trip({ routeId: 3, routeCode: 'C', delayMinutes: null }),
      trip({ routeId: 4, routeCode: 'D', delayMinutes: 9 }),
    ],
    T,
  );
  it('sorts both ways with ties broken by route and empty figures last', () => {
    expect(sortRouteRows(rows, 'worstMin', 'desc').map((r) => r.label)).toEqual(['A', 'D', 'B', 'C']);
    expect(sortRouteRows(rows, 'worstMin', 'asc').map((r) => r.label)).toEqual(['B', 'A', 'D', 'C']);
    expect(sortRouteRows(rows, 'route', 'desc').map((r) => r.label)).toEqual(['D', 'C', 'B', 'A']);
    expect(sortRouteRows(rows, 'unknownDelay', 'desc')[0]!.label).toBe('C');
  });
});

describe('filterBoardTrips', () => {
  it('filters by route keys and direction together', () => {
    const trips = [
      trip({ routeId: 1, direction: 'outbound' }),
      trip({ routeId: 1, direction: 'inbound' }),
      trip({ routeId: 2, direction: 'outbound' }),
    ];
    expect(filterBoardTrips(trips, { routeKeys: ['id:1'], direction: null })).toHaveLength(2);
    expect(filterBoardTrips(trips, { routeKeys: [], direction: 'outbound' })).toHaveLength(2);
    expect(filterBoardTrips(trips, { routeKeys: ['id:1'], direction: 'inbound' })).toEqual([trips[1]]);
    expect(tripDirections(trips)).toEqual(['inbound', 'outbound']);
  });
});

describe('delayHistogram', () => {
  it('makes contiguous one-minute bins split by class, clamping outliers into labelled edge bins', () => {
    const trips = [-20, -1, 0, 0, 3, 6, 60, null].map((d) => trip({ delayMinutes: d }));
    const bins = delayHistogram(trips, T, { minMinute: -2, maxMinute: 7 });
    expect(bins.map((b) => b.minute)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7]);
    expect(bins[0]).toMatchObject({ label: '≤ -2', early: 1 });
    expect(bins[1]).toMatchObject({ early: 1, onTime: 0 });
    expect(bins[2]).toMatchObject({ onTime: 2 });
    expect(bins[8]).toMatchObject({ late: 1 });
    expect(bins[9]).toMatchObject({ label: '≥ 7', late: 1 });
    const total = bins.reduce((s, b) => s + b.early + b.onTime + b.late, 0);
    expect(total).toBe(7);
  });
  it('is empty without known delays', () => {
    expect(delayHistogram([trip({ delayMinutes: null })], T)).toEqual([]);
  });
});

describe('mostDelayedTrips', () => {
  it('returns the latest trips first, skipping unknown delays', () => {
    const trips = [3, null, 12, -4, 12].map((d) => trip({ delayMinutes: d }));
    const top = mostDelayedTrips(trips, 3);
    expect(top.map((t) => t.delayMinutes)).toEqual([12, 12, 3]);
    expect(top[0]!.tripId).toBeLessThan(top[1]!.tripId);
  });
});
