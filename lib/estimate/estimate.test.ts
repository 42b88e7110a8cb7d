import { describe, expect, it } from 'vitest';
import { distanceM } from '@/lib/geo/sphere';
import { DEFAULT_TUNING, estimateAt, estimatePosition, progressAt, straightUntil, type Estimate } from './estimate';
import { pathForTrip, routePath, type RoutePath } from './path';
import { MIN, T0, at, fix, stopsAlong, straightNorth, trip } from '@/lib/testing/estimate-factories';

/** Metres between an estimate (or any lon/lat) and the point `east`/`north` metres from the origin. */
function offBy(p: { lon: number; lat: number }, east: number, north: number): number {
  const [lon, lat] = at(east, north);
  return distanceM(p.lon, p.lat, lon, lat);
}

function pathOf(stops: Parameters<typeof routePath>[0]): RoutePath {
  const path = routePath(stops);
  if (!path) throw new Error('test route has no path');
  return path;
}

// 9 stops 250 m apart: 2 km due north; a 10-minute trip runs at 3.33 m/s.
const line = pathOf(straightNorth(9, 250));

describe('estimate on a straight line', () => {
  it('snaps the last fix and advances it by the recent speed for the time since the fix', () => {
    const fixes = [fix(0, 500, T0 + 2 * MIN), fix(3, 700, T0 + 3 * MIN)];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 3 * MIN + 30_000 })!;
    expect(e.basis).toBe('gps-estimate');
    expect(e.reason).toBe('advanced');
    // 200 m in the last minute and the trip's pace agree on 3.33 m/s: 100 m in 30 s, on the line.
    expect(offBy(e, 0, 800)).toBeLessThan(1);
    expect(e.heading).toBeCloseTo(0, 0);
    expect(e.fix).toEqual({ lon: fixes[1]!.lon, lat: fixes[1]!.lat, gpsAt: T0 + 3 * MIN });
    expect(e.radiusM).toBeGreaterThan(5);
  });

  it('is a function of time: estimateAt places it later without estimating again', () => {
    const fixes = [fix(0, 500, T0 + 2 * MIN), fix(0, 700, T0 + 3 * MIN)];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 3 * MIN })!;
    expect(offBy(estimateAt(e, e.at), 0, 700)).toBeLessThan(1);
    const later = estimateAt(e, T0 + 4 * MIN);
    expect(offBy(later, 0, 900)).toBeLessThan(1);
    expect(later.radiusM).toBeGreaterThan(estimateAt(e, e.at).radiusM);
    // The same as estimating afresh at that instant.
    const again = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 4 * MIN })!;
    expect(distanceM(later.lon, later.lat, again.lon, again.lat)).toBeLessThan(0.01);
  });

  it('gives its route-snapped progress, now and at any later instant', () => {
    const fixes = [fix(3, 500, T0 + 2 * MIN), fix(-3, 700, T0 + 3 * MIN)];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 3 * MIN + 30_000 })!;
    expect(e.progressM).toBeCloseTo(800, 0);
    expect(progressAt(e, T0 + 4 * MIN)).toBeCloseTo(900, 0);
    // A bus standing still is on its path where its fix snaps; the schedule's estimate is where the schedule puts it.
    const held = [fix(4, 600, T0 + 2 * MIN, { speedKmh: 0 }), fix(-4, 605, T0 + 4 * MIN, { speedKmh: 0 })];
    const stopped = estimatePosition({ path: line, trip: trip(), fixes: held, now: T0 + 4 * MIN + 10_000 })!;
    expect([stopped.reason, Math.round(stopped.progressM!), progressAt(stopped, T0 + 9 * MIN)]).toEqual(['stopped', 605, stopped.progressM]);
    const scheduled = estimatePosition({ path: line, trip: trip(), fixes: [], now: T0 + 5 * MIN })!;
    expect([scheduled.basis, Math.round(scheduled.progressM!)]).toEqual(['schedule-estimate', 1000]);
    // Off its path, the bus has no progress.
    const off = estimatePosition({ path: line, trip: trip(), fixes: [fix(900, 500, T0 + 3 * MIN)], now: T0 + 3 * MIN })!;
    expect([off.reason, off.progressM, progressAt(off, T0 + 4 * MIN)]).toEqual(['off-route', null, null]);
  });

  it('never advances faster than the bus was seen to move', () => {
    // 60 m in a minute and 3.6 km/h on the speedometer: the trip's pace (3.33 m/s) would run far ahead of it.
    const fixes = [fix(0, 500, T0 + 2 * MIN, { speedKmh: 3.6 }), fix(0, 560, T0 + 3 * MIN, { speedKmh: 3.6 })];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 3 * MIN + 40_000 })!;
    expect(e.basis).toBe('gps-estimate');
    expect(e.motion!.speedMps).toBeCloseTo(1.25, 5);
    expect(offBy(e, 0, 610)).toBeLessThan(1);
  });

  it('stops the advance at the horizon', () => {
    const fixes = [fix(0, 300, T0 + 1 * MIN), fix(0, 500, T0 + 2 * MIN)];
    const now = T0 + 7 * MIN;
    const short = estimatePosition({ path: line, trip: trip({ minutes: 10 }), fixes, now }, { ...DEFAULT_TUNING, horizonS: 60 })!;
    expect(offBy(short, 0, 700)).toBeLessThan(1);
    const long = estimatePosition({ path: line, trip: trip({ minutes: 10 }), fixes, now })!;
    expect(offBy(long, 0, 1500)).toBeLessThan(1);
  });
});

describe('estimate on a loop', () => {
  // A 500 m square run anticlockwise from the south-west corner back to it: the terminal is both ends.
  const loop = pathOf(stopsAlong([[0, 0], [0, 250], [0, 500], [250, 500], [500, 500], [500, 250], [500, 0], [250, 0], [0, 0]]));
  const loopTrip = trip({ minutes: 20 });

  it('puts a bus that has just left at the start of the loop', () => {
    const e = estimatePosition({ path: loop, trip: loopTrip, fixes: [fix(4, 4, T0 + 30_000)], now: T0 + 60_000 })!;
    expect(e.basis).toBe('gps-estimate');
    expect(e.motion!.fromM).toBeLessThan(20);
    expect(e.heading).toBeCloseTo(0, 0);
  });

  it('puts a bus about to arrive at the end of the loop, and no further', () => {
    const e = estimatePosition({ path: loop, trip: loopTrip, fixes: [fix(4, 4, T0 + 19.5 * MIN)], now: T0 + 21 * MIN })!;
    expect(e.basis).toBe('gps-estimate');
    expect(e.motion!.fromM).toBeGreaterThan(loop.line.lengthM - 20);
    expect(offBy(e, 0, 0)).toBeLessThan(1);
  });
});

describe('estimate on a route whose directions share stops', () => {
  // One street both ways: the inbound run lists the same five stops in reverse.
  const points = [[0, 0], [0, 250], [0, 500], [0, 750], [0, 1000]] as const;
  const stops = [...stopsAlong(points), ...stopsAlong([...points].reverse(), { firstOrder: 6, firstId: 200 })];

  it('moves an inbound bus along the inbound run', () => {
    const p = pathForTrip(stops, 'inbound');
    expect(p.ok).toBe(true);
    const fixes = [fix(0, 800, T0 + 1 * MIN, { heading: 180 }), fix(0, 700, T0 + 2 * MIN, { heading: 180 })];
    const e = estimatePosition({ path: p.ok ? p.path : null, trip: trip({ direction: 'inbound' }), fixes, now: T0 + 3 * MIN })!;
    expect(e.basis).toBe('gps-estimate');
    expect(offBy(e, 0, 600)).toBeLessThan(1);
    expect(e.heading).toBeCloseTo(180, 0);
  });

  it('moves an outbound bus along the outbound run', () => {
    const p = pathForTrip(stops, 'outbound');
    const fixes = [fix(0, 200, T0 + 1 * MIN), fix(0, 300, T0 + 2 * MIN)];
    const e = estimatePosition({ path: p.ok ? p.path : null, trip: trip(), fixes, now: T0 + 3 * MIN })!;
    expect(offBy(e, 0, 400)).toBeLessThan(1);
  });

  it('keeps the fix when the trip names no direction the stops can be split by', () => {
    const p = pathForTrip(stops, 'northbound');
    expect(p).toEqual({ ok: false, reason: 'unknown-direction' });
    const e = estimatePosition({ path: null, trip: trip({ direction: 'northbound' }), fixes: [fix(0, 300, T0 + 2 * MIN)], now: T0 + 3 * MIN })!;
    expect(e.basis).toBe('fix');
    expect(e.reason).toBe('no-route');
    expect(offBy(e, 0, 300)).toBeLessThan(0.01);
    expect(e.motion).toBeNull();
  });
});

describe('estimate of a bus past its terminal', () => {
  it('never goes beyond the last stop, now or later', () => {
    const fixes = [fix(0, 1700, T0 + 8 * MIN), fix(0, 1900, T0 + 9 * MIN)];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 11 * MIN })!;
    expect(e.basis).toBe('gps-estimate');
    expect(offBy(e, 0, 2000)).toBeLessThan(1);
    expect(offBy(estimateAt(e, T0 + 30 * MIN), 0, 2000)).toBeLessThan(1);
    // A layer that moves the bus itself reads the bound from the motion.
    expect(e.motion!.toM).toBe(line.line.lengthM);
  });

  it('keeps the fix once the trip has arrived', () => {
    const e = estimatePosition({ path: line, trip: trip({ actualArrivalAt: T0 + 10 * MIN }), fixes: [fix(0, 1990, T0 + 10 * MIN)], now: T0 + 11 * MIN })!;
    expect(e.basis).toBe('fix');
    expect(e.reason).toBe('arrived');
  });
});

describe('estimate of a bus off its route', () => {
  it('keeps the fix of a bus far from the line (a detour, a depot)', () => {
    const fixes = [fix(480, 600, T0 + 2 * MIN), fix(500, 700, T0 + 3 * MIN)];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 4 * MIN })!;
    expect(e.basis).toBe('fix');
    expect(e.reason).toBe('off-route');
    expect(offBy(e, 500, 700)).toBeLessThan(0.01);
  });

  it('still snaps a bus that cuts a corner between two distant stops', () => {
    // Two stops 990 m apart across an L-shaped street: near the corner the bus is over 400 m from the straight line.
    const corner = pathOf(stopsAlong([[0, 0], [700, 700], [700, 1700]]));
    const fixes = [fix(0, 400, T0 + 2 * MIN), fix(0, 600, T0 + 3 * MIN)];
    const e = estimatePosition({ path: corner, trip: trip({ minutes: 12 }), fixes, now: T0 + 3 * MIN + 30_000 })!;
    expect(e.basis).toBe('gps-estimate');
  });
});

describe('estimate of a stopped bus', () => {
  it('keeps the fix of a bus that has not moved between its last fixes, its radius growing with time', () => {
    const fixes = [fix(0, 700, T0 + 2 * MIN, { speedKmh: 0 }), fix(3, 705, T0 + 3 * MIN, { speedKmh: 0 })];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 4 * MIN })!;
    expect(e.basis).toBe('fix');
    expect(e.reason).toBe('stopped');
    expect(offBy(e, 3, 705)).toBeLessThan(0.01);
    expect(estimateAt(e, T0 + 5 * MIN).radiusM).toBeGreaterThan(e.radiusM);
  });

  it('keeps the fix of a bus held at its terminal: the trip has not departed', () => {
    const held = trip({ actualDepartureAt: null, delayMinutes: 3 });
    const e = estimatePosition({ path: line, trip: held, fixes: [fix(2, 2, T0 + 2 * MIN, { speedKmh: 0 })], now: T0 + 3 * MIN })!;
    expect(e.basis).toBe('fix');
    expect(e.reason).toBe('not-departed');
  });

  it('does not read one dwell at a stop, caught by two fixes, as a stopped bus', () => {
    const fixes = [fix(0, 500, T0 + 2 * MIN, { speedKmh: 0 }), fix(0, 502, T0 + 2 * MIN + 20_000, { speedKmh: 0 })];
    const e = estimatePosition({ path: line, trip: trip(), fixes, now: T0 + 3 * MIN })!;
    expect(e.basis).toBe('gps-estimate');
    expect(offBy(e, 0, 502)).toBeGreaterThan(50);
  });

  it('does not read a stop at one fix as a bus that cannot move', () => {
    // A single fix at a stop (speed 0) says nothing of the next minute: the trip's pace moves it on.
    const e = estimatePosition({ path: line, trip: trip(), fixes: [fix(0, 500, T0 + 2 * MIN, { speedKmh: 0 })], now: T0 + 2 * MIN + 30_000 })!;
    expect(e.basis).toBe('gps-estimate');
    expect(offBy(e, 0, 600)).toBeLessThan(1);
  });
});

describe('estimate with no GPS', () => {
  // Left two minutes late; the upstream says it is still two minutes late.
  const late = trip({ actualDepartureAt: T0 + 2 * MIN, delayMinutes: 2 });

  it('places the bus by its departure plus delay and the trip\'s average pace', () => {
    const e = estimatePosition({ path: line, trip: late, fixes: [], now: T0 + 7 * MIN })!;
    expect(e.basis).toBe('schedule-estimate');
    expect(e.reason).toBe('no-fix');
    expect(e.fix).toBeNull();
    expect(offBy(e, 0, 1000)).toBeLessThan(1);
    expect(offBy(estimateAt(e, T0 + 9 * MIN), 0, 1400)).toBeLessThan(1);
    // Most uncertain mid-trip, pinned at the ends.
    expect(e.radiusM).toBeGreaterThan(estimateAt(e, T0 + 11.5 * MIN).radiusM);
  });

  it('keeps a bus that has not left at its first stop', () => {
    const held = trip({ actualDepartureAt: null, delayMinutes: 4 });
    const e = estimatePosition({ path: line, trip: held, fixes: [], now: T0 + 4 * MIN })!;
    expect(e.basis).toBe('schedule-estimate');
    expect(offBy(e, 0, 0)).toBeLessThan(1);
    expect(e.motion).toBeNull();
    // Unless the upstream never reports departures: two minutes past the planned departure plus delay, it moves.
    expect(e.validUntil).not.toBeNull();
    expect(estimatePosition({ path: line, trip: held, fixes: [], now: e.validUntil! })!.motion).not.toBeNull();
  });

  it('still estimates the trips of an upstream that never fills the actual departure', () => {
    const unreported = trip({ actualDepartureAt: null, delayMinutes: 1 });
    const placed = estimatePosition({ path: line, trip: unreported, fixes: [], now: T0 + 6 * MIN })!;
    expect(offBy(placed, 0, 1000)).toBeLessThan(1);
    const fixes = [fix(0, 500, T0 + 4 * MIN), fix(0, 700, T0 + 5 * MIN)];
    expect(estimatePosition({ path: line, trip: unreported, fixes, now: T0 + 6 * MIN })!.basis).toBe('gps-estimate');
  });

  it('turns to the schedule when the GPS has stopped reporting', () => {
    const fixes = [fix(0, 300, T0 + 1 * MIN)];
    const now = T0 + 1 * MIN + (DEFAULT_TUNING.staleFixS + 60) * 1000;
    const e = estimatePosition({ path: line, trip: trip({ minutes: 30 }), fixes, now })!;
    expect(e.basis).toBe('schedule-estimate');
    expect(e.reason).toBe('stale-fix');
    expect(e.fix?.gpsAt).toBe(T0 + 1 * MIN);
  });

  it('turns to the schedule when the last fix is from before the trip', () => {
    const e: Estimate = estimatePosition({ path: line, trip: trip(), fixes: [fix(300, -200, T0 - 3 * MIN)], now: T0 + 3 * MIN })!;
    expect(e.basis).toBe('schedule-estimate');
    expect(e.reason).toBe('fix-before-trip');
    expect(offBy(e, 0, 600)).toBeLessThan(1);
  });

  it('places nothing without a fix, a path or a schedule', () => {
    expect(estimatePosition({ path: line, trip: trip({ plannedArrivalAt: null }), fixes: [], now: T0 })).toBeNull();
    expect(estimatePosition({ path: null, trip: trip(), fixes: [], now: T0 })).toBeNull();
    expect(estimatePosition({ path: line, trip: null, fixes: [{ lat: null, lon: null, gpsAt: null, speedKmh: null, heading: null, accuracy: null }], now: T0 })).toBeNull();
  });
});

describe('straight stretches of an estimate (what the map interpolates on the GPU)', () => {
  // East 500 m, then north 500 m: one corner at 500 m; a 10-minute trip runs at 1.67 m/s.
  const corner = pathOf(stopsAlong([[0, 0], [500, 0], [500, 500]]));

  it('runs to the next stop, where the heading may turn, and interpolating inside it stays on the route', () => {
    const e = estimatePosition({ path: corner, trip: trip(), fixes: [], now: T0 + MIN })!;
    expect(e.basis).toBe('schedule-estimate');
    const until = straightUntil(e, T0 + MIN)!;
    // 100 m done after one minute; 400 m to the corner at 1.67 m/s is 240 s.
    expect((until - (T0 + MIN)) / 1000).toBeCloseTo(240, 0);
    const a = estimateAt(e, T0 + MIN);
    const b = estimateAt(e, until);
    const mid = estimateAt(e, (T0 + MIN + until) / 2);
    expect(distanceM((a.lon + b.lon) / 2, (a.lat + b.lat) / 2, mid.lon, mid.lat)).toBeLessThan(0.5);
    expect(offBy(b, 500, 0)).toBeLessThan(1);
    // From the corner on, the next stretch ends at the terminal.
    expect(((straightUntil(e, until)! - until) / 1000)).toBeCloseTo(300, 0);
  });

  it('is null for a bus that does not move: a fix, or an estimate at the end of its advance', () => {
    const held = estimatePosition({ path: null, trip: null, fixes: [fix(0, 0, T0)], now: T0 + MIN })!;
    expect(straightUntil(held, T0 + MIN)).toBeNull();
    const e = estimatePosition({ path: corner, trip: trip(), fixes: [], now: T0 + MIN })!;
    expect(straightUntil(e, T0 + 11 * MIN)).toBeNull();
  });
});
