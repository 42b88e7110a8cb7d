import { describe, expect, it } from 'vitest';
import { makeTrip, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { HeadwayGap, RouteHeadways } from '@/lib/model';
import { directionOptions, filterTrips, matchesQuery, NO_FILTERS, resolveSelection, routeOptions, selectionAnnouncement, sortTrips, spacingByTrip } from './trip-list';
import { activeTrips, type ActiveTrip } from './trips';

const ctx = { now: T0, staleAfterS: 120 };

const snapshot = {
  vehicles: [
    makeVehicle({ busId: 1, plateNumber: 'AB-100', busName: 'Bus 1', trip: makeTrip({ tripId: 11, routeId: 15, routeCode: 'M15', routeName: 'First Av', delayMinutes: 8 }) }),
    makeVehicle({ busId: 2, plateNumber: 'CD-200', busName: 'Bus 2', gpsAt: T0 - 300_000, trip: makeTrip({ tripId: 12, routeId: 2, routeCode: 'M2', routeName: 'Fifth Av', direction: 'inbound', delayMinutes: -3 }) }),
    makeVehicle({ busId: 3, plateNumber: 'EF-300', busName: 'Depot', trip: null }),
    makeVehicle({ busId: 4, plateNumber: 'GH-400', lat: null, lon: null, trip: makeTrip({ tripId: 14, routeId: 101, routeCode: 'M101', routeName: 'Third Av', delayMinutes: null }) }),
  ],
  unpositionedTrips: [makeUnpositionedTrip({ tripId: 15, routeId: 15, routeCode: 'M15', routeName: 'First Av', delayMinutes: 0 })],
};

describe('the list\'s trips (activeTrips)', () => {
  it('lists vehicles on trips and unpositioned trips, not idle buses', () => {
    const rows = activeTrips(snapshot);
    expect(rows.map((r) => r.tripId)).toEqual([11, 12, 14, 15]);
    expect(rows.map((r) => r.positioned)).toEqual([true, true, false, false]);
  });

  it('does not list a trip twice when it appears in both places', () => {
    const rows = activeTrips({ vehicles: snapshot.vehicles, unpositionedTrips: [makeUnpositionedTrip({ tripId: 11 })] });
    expect(rows.filter((r) => r.tripId === 11)).toHaveLength(1);
  });
});

describe('search', () => {
  const row = activeTrips(snapshot)[0]!;
  it.each(['ab-1', 'bus 1', 'm15', 'first', '11', '#1'])('finds the trip by %s', (q) => expect(matchesQuery(row, q)).toBe(true));
  it.each(['zz', '2', 'M2 '])('does not match %s', (q) => expect(matchesQuery(row, q)).toBe(false));
});

describe('filterTrips', () => {
  const rows = activeTrips(snapshot);
  const ids = (r: ActiveTrip[]) => r.map((x) => x.tripId);

  it('filters by route and direction', () => {
    expect(ids(filterTrips(rows, { ...NO_FILTERS, routeId: 15 }, ctx).rows)).toEqual([11, 15]);
    expect(ids(filterTrips(rows, { ...NO_FILTERS, direction: 'inbound' }, ctx).rows)).toEqual([12]);
  });

  it('filters by delay class and counts every class among the other filters', () => {
    const r = filterTrips(rows, { ...NO_FILTERS, delayClasses: ['late'] }, ctx);
    expect(ids(r.rows)).toEqual([11]);
    expect(r.counts).toEqual({ late: 1, early: 1, 'on-time': 1, unknown: 1 });
  });

  it('keeps stale and position-less trips with "stale only"', () => {
    expect(ids(filterTrips(rows, { ...NO_FILTERS, staleOnly: true }, ctx).rows)).toEqual([12, 14, 15]);
  });

  it('combines search with filters', () => {
    expect(ids(filterTrips(rows, { ...NO_FILTERS, query: 'first', delayClasses: ['on-time'] }, ctx).rows)).toEqual([15]);
  });
});

describe('sortTrips', () => {
  const rows = activeTrips(snapshot);
  const ids = (r: ActiveTrip[]) => r.map((x) => x.tripId);

  it('sorts by delay, latest first, unknown last', () => {
    expect(ids(sortTrips(rows, 'delay', T0))).toEqual([11, 15, 12, 14]);
  });
  it('sorts by route code in natural order', () => {
    expect(ids(sortTrips(rows, 'route', T0))).toEqual([12, 11, 15, 14]);
  });
  it('sorts by age, unknown positions first then oldest fix', () => {
    expect(ids(sortTrips(rows, 'age', T0))).toEqual([15, 14, 12, 11]);
  });
});

describe('options', () => {
  const rows = activeTrips(snapshot);
  it('offers each route once, in natural order', () => {
    expect(routeOptions(rows).map((o) => o.label)).toEqual(['M2 · Fifth Av', 'M15 · First Av', 'M101 · Third Av']);
  });
  it('offers the directions seen', () => {
    expect(directionOptions(rows)).toEqual(['inbound', 'outbound']);
  });
});

describe('resolveSelection', () => {
  const rows = activeTrips(snapshot);
  it('follows a trip link to its bus', () => {
    expect(resolveSelection({ tripId: 12, busId: null }, rows)).toMatchObject({ tripId: 12, busId: 2 });
  });
  it('shows the current trip of a linked bus, or none for an idle bus', () => {
    expect(resolveSelection({ tripId: null, busId: 1 }, rows)).toMatchObject({ tripId: 11, busId: 1 });
    expect(resolveSelection({ tripId: null, busId: 3 }, rows)).toMatchObject({ tripId: null, busId: 3, row: null });
  });
  it('keeps a finished trip and its bus', () => {
    expect(resolveSelection({ tripId: 999, busId: 2 }, rows)).toEqual({ tripId: 999, busId: 2, row: null });
  });
});

describe('selectionAnnouncement', () => {
  const rows = activeTrips(snapshot);
  it('names the trip, its route, its bus and its delay', () => {
    expect(selectionAnnouncement(resolveSelection({ tripId: 11, busId: null }, rows), null)).toBe('Selected trip 11, route M15, bus AB-100, +8 min.');
    expect(selectionAnnouncement(resolveSelection({ tripId: 14, busId: null }, rows), null)).toBe('Selected trip 14, route M101, bus GH-400, delay unknown.');
  });
  it('names a finished trip or an idle bus by what is known, and says when nothing is selected', () => {
    expect(selectionAnnouncement(resolveSelection({ tripId: 999, busId: 2 }, rows), 'CD-200')).toBe('Selected trip 999.');
    expect(selectionAnnouncement(resolveSelection({ tripId: null, busId: 3 }, rows), 'EF-300')).toBe('Selected bus EF-300.');
    expect(selectionAnnouncement(resolveSelection({ tripId: null, busId: 3 }, rows), null)).toBe('Selected bus 3.');
    expect(selectionAnnouncement(resolveSelection({ tripId: null, busId: null }, rows), null)).toBe('No selection.');
  });
});

describe('the spacing filter', () => {
  const gap = (leaderTripId: number, followerTripId: number, cls: HeadwayGap['cls']): HeadwayGap => ({ leaderTripId, followerTripId, distanceM: 0, headwayS: 0, paceMps: 1, paceSource: 'recent', scheduledS: 1, ratio: 0, cls });
  const routes = [{ routeId: 15, routeCode: 'M15', routeName: null, directions: [{ direction: 'outbound', toward: null, lengthM: 1, stops: [], buses: [], layover: [], offLine: [], ghosts: [], gaps: [gap(11, 15, 'bunched'), gap(15, 12, 'gapped'), gap(12, 14, 'regular')] }] }] as RouteHeadways[];

  it('calls both buses of a bunched pair bunched, and a follower by its gap', () => {
    expect([...spacingByTrip(routes)].sort((a, b) => a[0] - b[0])).toEqual([
      [11, 'bunched'],
      [12, 'gapped'],
      [14, 'regular'],
      [15, 'bunched'],
    ]);
  });

  it('keeps only the trips of the class asked for', () => {
    const rows = activeTrips(snapshot);
    const spacing = spacingByTrip(routes);
    expect(filterTrips(rows, { ...NO_FILTERS, spacing: 'bunched' }, { ...ctx, spacing }).rows.map((r) => r.tripId)).toEqual([11, 15]);
    expect(filterTrips(rows, { ...NO_FILTERS, spacing: 'gapped' }, { ...ctx, spacing }).rows.map((r) => r.tripId)).toEqual([12]);
    // Before the headways arrive, nothing is claimed to be bunched.
    expect(filterTrips(rows, { ...NO_FILTERS, spacing: 'bunched' }, ctx).rows).toEqual([]);
  });
});
