import { describe, expect, it } from 'vitest';
import type { DirectionHeadways, HeadwayBus } from '@/lib/model';
import { ForwardOnly, HOLD_BACK_M, labelledStops, layoutDirection, progressAtTime, putIntoLanes, stopIndexAt, VIRTUALIZE_AFTER_MARKS, visibleBand } from './ladder';

const T0 = Date.UTC(2026, 2, 4, 13);
// Stops at uneven distances: the ladder spaces them evenly all the same.
const STOPS = [0, 100, 400, 500, 1500].map((m, i) => ({ stopId: i + 1, name: `Stop ${i + 1}`, stopOrder: i + 1, m }));

function bus(over: Partial<HeadwayBus>): HeadwayBus {
  return {
    busId: 1,
    tripId: 11,
    label: '#1',
    delayMinutes: 0,
    delayClass: 'on-time',
    basis: 'gps-estimate',
    stale: false,
    gpsAt: T0,
    progressM: 0,
    motion: null,
    scheduledM: null,
    layover: null,
    plannedDepartureAt: T0,
    ...over,
  };
}

function direction(over: Partial<DirectionHeadways>): DirectionHeadways {
  return { direction: 'outbound', toward: 'Stop 5', lengthM: 1500, stops: STOPS, buses: [], gaps: [], layover: [], offLine: [], ghosts: [], ...over };
}

describe('ladder geometry', () => {
  it('maps metres along the route to a place between the two stops around it', () => {
    expect([0, 50, 100, 250, 400, 1000, 1500, 2000, -5].map((m) => stopIndexAt(STOPS, m))).toEqual([0, 0.5, 1, 1.5, 2, 3.5, 4, 4, 0]);
  });

  it('names every few stops on a long route, always the first and the last, keeping all as places', () => {
    expect([...labelledStops(5, 24)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    const long = [...labelledStops(60, 24)].sort((a, b) => a - b);
    expect(long[0]).toBe(0);
    expect(long[long.length - 1]).toBe(59);
    expect(long.length).toBeLessThanOrEqual(25);
    expect(long.every((i, k) => k === 0 || i - long[k - 1]! >= 2)).toBe(true);
  });

  it('spreads buses at one place into lanes', () => {
    const lanes = putIntoLanes([{ y: 10 }, { y: 12 }, { y: 40 }, { y: 11 }, { y: 70 }], 18);
    expect(lanes.map((l) => [l.y, l.lane])).toEqual([
      [10, 0],
      [11, 1],
      [12, 2],
      [40, 0],
      [70, 0],
    ]);
  });

  it('moves a bus along its motion between answers, never draws it going back for an estimate’s wobble, and shows a correction', () => {
    const b = bus({ progressM: 100, motion: { fromM: 80, fromAt: T0 - 5_000, speedMps: 4, toM: 300 } });
    expect(progressAtTime(b, T0)).toBe(100);
    expect(progressAtTime(b, T0 + 10_000)).toBe(140);
    expect(progressAtTime(b, T0 + 600_000)).toBe(300);
    const hold = new ForwardOnly();
    expect(hold.hold(1, 11, 140)).toBe(140);
    expect(hold.hold(1, 11, 120)).toBe(140);
    expect(hold.hold(1, 11, 150)).toBe(150);
    // Further back than an estimate's error: a correction, shown (held, the bus would stand ahead of those it is behind).
    expect(hold.hold(1, 11, 1_000)).toBe(1_000);
    expect(hold.hold(1, 11, 1_000 - HOLD_BACK_M)).toBe(1_000);
    expect(hold.hold(1, 11, 1_000 - HOLD_BACK_M - 1)).toBe(1_000 - HOLD_BACK_M - 1);
    // A new trip starts again from its own place.
    expect(hold.hold(1, 12, 10)).toBe(10);
  });

  it('lays out a direction: stops evenly, buses in lanes, a late bus’s scheduled place, gaps midway, layovers at their ends', () => {
    const g = { stopGapPx: 20, padPx: 40, laneGapPx: 18, maxLabels: 24 };
    const d = direction({
      buses: [
        bus({ busId: 1, tripId: 11, progressM: 500 }),
        bus({ busId: 2, tripId: 12, progressM: 450, delayClass: 'late', delayMinutes: 7, scheduledM: 1500 }),
        bus({ busId: 3, tripId: 13, progressM: 100 }),
      ],
      gaps: [
        { leaderTripId: 11, followerTripId: 12, distanceM: 50, headwayS: 12, paceMps: 4, paceSource: 'recent', scheduledS: 300, ratio: 0.04, cls: 'bunched' },
        { leaderTripId: 12, followerTripId: 13, distanceM: 350, headwayS: 90, paceMps: 4, paceSource: 'recent', scheduledS: 300, ratio: 0.3, cls: 'bunched' },
      ],
      layover: [bus({ busId: 4, tripId: 14, layover: 'start' }), bus({ busId: 5, tripId: 15, layover: 'end' })],
      ghosts: [{ tripId: 16, busId: null, plateNumber: null, busName: null, routeId: 1, routeCode: 'M15', routeName: null, direction: 'outbound', status: 'started', delayMinutes: 0, delayClass: 'on-time', plannedDepartureAt: T0, plannedArrivalAt: T0, actualDepartureAt: null, actualArrivalAt: null, reason: 'no-bus', lastLocatedAt: null, scheduledM: 400 }],
    });
    const down = layoutDirection(d, T0, { down: true, geometry: g });
    expect(down.heightPx).toBe(4 * 20 + 80);
    expect(down.stops.map((s) => s.y)).toEqual([40, 60, 80, 100, 120]);
    expect(down.buses.map((b) => [b.bus.busId, b.y, b.lane, b.scheduledY])).toEqual([
      [3, 60, 0, null],
      [2, 90, 1, 120],
      [1, 100, 0, null],
    ]);
    expect(down.ghosts.map((x) => [x.ghost.tripId, x.y, x.lane])).toEqual([[16, 80, 0]]);
    expect(down.gaps.map((x) => x.y)).toEqual([95, 75]);
    expect([down.layoverStart.map((b) => b.busId), down.layoverEnd.map((b) => b.busId)]).toEqual([[4], [5]]);
    // The other direction runs up its column.
    const up = layoutDirection(d, T0, { down: false, geometry: g });
    expect([up.startY, up.endY, up.buses.find((b) => b.bus.busId === 3)!.y]).toEqual([120, 40, 100]);
  });
});

describe('a long column drawn near the screen only', () => {
  // 100 stops, a bus every 10 stops' length … and more buses than a column draws whole.
  const stops = Array.from({ length: 100 }, (_, i) => ({ stopId: i + 1, name: `Stop ${i + 1}`, stopOrder: i + 1, m: i * 100 }));
  const many = (n: number) =>
    direction({
      stops,
      lengthM: 9_900,
      buses: Array.from({ length: n }, (_, i) => bus({ busId: i + 1, tripId: 100 + i, progressM: (i * 9_900) / n, delayClass: i === 0 ? 'late' : 'on-time', scheduledM: i === 0 ? 5_500 : null })),
    });

  it('draws every mark of a column with few buses, whatever the band', () => {
    const layout = layoutDirection(many(VIRTUALIZE_AFTER_MARKS), T0, { down: true });
    expect(visibleBand(layout, { top: 0, bottom: 100 })).toBe(layout);
  });

  it('keeps the stops, buses and gaps within the band, and a late bus whose scheduled place is in it', () => {
    const d = many(VIRTUALIZE_AFTER_MARKS + 20);
    d.gaps = d.buses.slice(1).map((b, i) => ({ leaderTripId: d.buses[i]!.tripId, followerTripId: b.tripId, distanceM: 1, headwayS: 60, paceMps: 5, paceSource: 'recent', scheduledS: 60, ratio: 1, cls: 'regular' }));
    const layout = layoutDirection(d, T0, { down: true });
    const band = { top: 1_000, bottom: 1_500 };
    const shown = visibleBand(layout, band);
    expect(shown.heightPx).toBe(layout.heightPx);
    expect(shown.stops.length).toBeGreaterThan(0);
    expect(shown.stops.length).toBeLessThan(layout.stops.length);
    expect(shown.stops.every((s) => s.y >= 1_000 && s.y <= 1_500)).toBe(true);
    expect(shown.stops).toEqual(layout.stops.filter((s) => s.y >= 1_000 && s.y <= 1_500));
    const late = layout.buses.find((b) => b.scheduledY !== null)!;
    expect(late.y).toBeLessThan(1_000);
    expect(late.scheduledY!).toBeGreaterThanOrEqual(1_000);
    expect(late.scheduledY!).toBeLessThanOrEqual(1_500);
    expect(shown.buses.map((b) => b.bus.busId)).toEqual(layout.buses.filter((b) => (b.y >= 1_000 && b.y <= 1_500) || b === late).map((b) => b.bus.busId));
    expect(shown.gaps.length).toBeGreaterThan(0);
    expect(shown.gaps.every((g) => g.y >= 1_000 && g.y <= 1_500)).toBe(true);
  });
});
