import { describe, expect, it } from 'vitest';
import type { HeadwayBus, HeadwayClass, HeadwayGap, RouteHeadways } from '@/lib/model';
import { liveHeadways } from './index';

function bus(tripId: number, stale: boolean): HeadwayBus {
  return {
    busId: tripId + 100,
    tripId,
    label: `B${tripId}`,
    delayMinutes: 0,
    delayClass: 'on-time',
    basis: stale ? 'gps-estimate' : 'fix',
    stale,
    gpsAt: 0,
    progressM: 1_000,
    motion: null,
    scheduledM: null,
    layover: null,
    plannedDepartureAt: null,
  };
}

function gap(leaderTripId: number, followerTripId: number, ratio: number | null, cls: HeadwayClass): HeadwayGap {
  return { leaderTripId, followerTripId, distanceM: 500, headwayS: 60, paceMps: 5, paceSource: 'recent', scheduledS: 300, ratio, cls };
}

/** One route, one direction: buses 1..n in order, each consecutive pair with the given gap. */
function route(buses: HeadwayBus[], gaps: HeadwayGap[]): RouteHeadways {
  return {
    routeId: 7,
    routeCode: 'M7',
    routeName: 'Seventh',
    directions: [{ direction: 'outbound', toward: 'Uptown', lengthM: 9_000, stops: [], buses, gaps, layover: [], offLine: [], ghosts: [] }],
  };
}

describe('liveHeadways: what the bunched and gapped rules read', () => {
  it('gives the bunched and gapped gaps between fresh buses, by their follower', () => {
    const r = route([bus(1, false), bus(2, false), bus(3, false), bus(4, false)], [gap(1, 2, 0.3, 'bunched'), gap(2, 3, 1, 'regular'), gap(3, 4, 2, 'gapped')]);
    expect(liveHeadways([r])).toEqual([
      { tripId: 2, busId: 102, routeId: 7, routeCode: 'M7', ratio: 0.3, class: 'bunched' },
      { tripId: 4, busId: 104, routeId: 7, routeCode: 'M7', ratio: 2, class: 'gapped' },
    ]);
  });

  it('leaves out a gap with a stale bus at either end: its class stands on a position carried forward', () => {
    const r = route(
      [bus(1, false), bus(2, true), bus(3, false), bus(4, false), bus(5, false)],
      // 1→2: the follower is stale; 2→3: the leader is stale; 3→4 and 4→5: both fresh.
      [gap(1, 2, 0.2, 'bunched'), gap(2, 3, 0.2, 'bunched'), gap(3, 4, 0.2, 'bunched'), gap(4, 5, 1.8, 'gapped')],
    );
    expect(liveHeadways([r]).map((h) => [h.tripId, h.class])).toEqual([
      [4, 'bunched'],
      [5, 'gapped'],
    ]);
  });

  it('leaves out a gap whose buses are not among the direction\'s buses, or whose ratio is unknown', () => {
    const r = route([bus(1, false), bus(2, false)], [gap(1, 2, null, 'unknown'), gap(9, 2, 0.2, 'bunched')]);
    expect(liveHeadways([r])).toEqual([]);
  });
});
