import { describe, expect, it } from 'vitest';
import { at } from '@/lib/testing/estimate-factories';
import { MIN, ROUTE, STOPS } from '@/lib/testing/regularity-factories';
import { DEFAULT_REGULARITY } from '@/lib/model';
import { pathForTrip } from '@/lib/estimate';
import { deriveRouteDay, progressFixes, routeDayPassings, tripGhostMinutes, type DayFix, type DayTrip } from './days';
import { NO_SUMS, addSums, figuresOfSums } from './passing';

const T0 = Date.UTC(2026, 2, 4, 13);
const hourOf = (ms: number) => new Date(ms).getUTCHours();

function pathOf() {
  const tp = pathForTrip(STOPS, 'outbound');
  if (!tp.ok) throw new Error('no path');
  return tp.path;
}

/** An outbound trip planned at T0 + plannedMin (10 minutes for the 2 km), run at 200 m a minute from T0 + departMin. */
function trip(tripId: number, plannedMin: number, departMin: number, busId: number | null = tripId): DayTrip {
  const dep = T0 + departMin * MIN;
  return {
    tripId,
    busId,
    direction: 'outbound',
    plannedDepartureAt: T0 + plannedMin * MIN,
    plannedArrivalAt: T0 + (plannedMin + 10) * MIN,
    actualDepartureAt: dep,
    actualArrivalAt: dep + 10 * MIN,
    delayMinutes: departMin - plannedMin,
    lastSeenAt: dep + 10 * MIN,
  };
}

/** A fix every minute between departure and arrival, on the street. */
function fixes(t: DayTrip): DayFix[] {
  return Array.from({ length: 9 }, (_, i) => {
    const [lon, lat] = at(0, (i + 1) * 200);
    return { at: t.actualDepartureAt! + (i + 1) * MIN, lat, lon, heading: 0, speedKmh: 12, accuracy: 10 };
  });
}

describe('a route’s service day from its recorded fixes', () => {
  it('gives the headways at every stop, and EWT as computed by hand', () => {
    // Planned every 10 minutes; run at 0, 12 and 20: headways of 12 and 8 minutes at each of the 9 stops.
    const trips = [trip(1, 0, 0), trip(2, 10, 12), trip(3, 20, 20)];
    const rows = deriveRouteDay({
      routeId: ROUTE,
      stops: STOPS,
      trips,
      fixesByTrip: new Map(trips.map((t) => [t.tripId, fixes(t)])),
      locations: true,
      hourOf,
      config: DEFAULT_REGULARITY,
    });
    expect(rows.every((r) => r.routeId === ROUTE && r.direction === 'outbound' && r.ghostMinutes === 0)).toBe(true);
    const sums = rows.reduce(addSums, NO_SUMS);
    expect([sums.samples, sums.scheduled, sums.bunched, sums.gapped]).toEqual([18, 18, 0, 0]);
    // AWT = 9 (720² + 480²) / (2 · 9 · 1,200) = 312 s; SWT = 600² · 2 / (2 · 1,200) = 300 s; EWT = 12 s.
    // mean 600, σ 120: cv_h 0.2.
    const f = figuresOfSums(sums);
    expect(f.awtS).toBeCloseTo(312, 0);
    expect(f.swtS).toBeCloseTo(300, 6);
    expect(f.ewtS).toBeCloseTo(12, 0);
    expect(f.cvH).toBeCloseTo(0.2, 2);
    // Each sample counts in the hour of its later passing: 13:12–13:22 and 13:20–13:30 are all in hour 13.
    expect(rows.map((r) => r.hour)).toEqual([13]);
  });

  it('leaves stops unknown where fixes are too far apart, and counts a trip with no bus as a ghost throughout', () => {
    const trips = [trip(1, 0, 0), trip(2, 10, 10), { ...trip(3, 50, 50, null), actualDepartureAt: null, actualArrivalAt: null }];
    // Trip 2's fixes stop after 2 minutes and it is not seen arriving: only the stops it passed before are known.
    const t2 = { ...trips[1]!, actualArrivalAt: null };
    const rows = deriveRouteDay({
      routeId: ROUTE,
      stops: STOPS,
      trips: [trips[0]!, t2, trips[2]!],
      fixesByTrip: new Map([
        [1, fixes(trips[0]!)],
        [2, fixes(t2).slice(0, 2)],
      ]),
      locations: true,
      hourOf,
      config: DEFAULT_REGULARITY,
    });
    const sums = rows.reduce(addSums, NO_SUMS);
    // Stops at 0 and 250 m: the departure and the fixes at 200 and 400 m bracket them; the rest are not told.
    expect(sums.samples).toBe(2);
    expect(figuresOfSums(sums).ewtS).toBeCloseTo(0, 0);
    // Trip 2 goes silent at 10:12 until its end at 10:20 (planned arrival, no delay): 8 − 5 = 3 ghost minutes.
    // Trip 3 has no bus: its 10 minutes are a ghost's, in the hour of its departure (13:50).
    expect(rows.filter((r) => r.ghostMinutes > 0).map((r) => [r.hour, Math.round(r.ghostMinutes * 10) / 10])).toEqual([[13, 13]]);
  });

  it('drops a fix the bus could not have made (snapped to another leg), instead of inventing passings across it', () => {
    const t = trip(1, 0, 0);
    const [lon, lat] = at(0, 1_900);
    // 150 s after departure, 1,900 m along: 12.7 m/s from the departure, but 30 m/s from the fix at 60 s (200 m).
    const bogus: DayFix = { at: T0 + 150_000, lat, lon, heading: 0, speedKmh: 12, accuracy: 10 };
    const path = (fx: DayFix[]) => progressFixes(pathOf(), t, fx).map((p) => [p.at - T0, Math.round(p.m)]);
    expect(path([...fixes(t), bogus])).toEqual(path(fixes(t)));
  });

  it('passes the stops of a trip whose bus sent no fix between its departure and arrival, by the day’s pace profile', () => {
    // Trips 1 and 3 take 7 minutes to the 1,000 m stop and 3 for the rest; trip 2's bus sends nothing.
    const slowThenFast = (t: DayTrip): DayFix[] =>
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((min) => {
        const [lon, lat] = at(0, min <= 7 ? (min * 1_000) / 7 : 1_000 + ((min - 7) * 1_000) / 3);
        return { at: t.actualDepartureAt! + min * MIN, lat, lon, heading: 0, speedKmh: 12, accuracy: 10 };
      });
    const trips = [trip(1, 0, 0), trip(2, 10, 10), trip(3, 20, 20)];
    const fixesByTrip = new Map([
      [1, slowThenFast(trips[0]!)],
      [3, slowThenFast(trips[2]!)],
    ]);
    const passings = routeDayPassings({ stops: STOPS, trips, fixesByTrip }).get('outbound')!.passings;
    const t2 = passings.find((p) => p.tripId === 2)!.actual.map((x) => (x === null ? null : Math.round((x - T0) / 1000)));
    // Every stop is passed, the 1,000 m stop 7 minutes after departure (not 5, as linear in distance would say).
    expect(t2[0]).toBe(600);
    expect(t2[4]).toBe(600 + 420);
    expect(t2[8]).toBe(1200);
    // All three trips make headways at every stop.
    const rows = deriveRouteDay({ routeId: ROUTE, stops: STOPS, trips, fixesByTrip, locations: true, hourOf, config: DEFAULT_REGULARITY });
    expect(rows.reduce(addSums, NO_SUMS).samples).toBe(18);
  });

  it('passes the stops of a trip with no fix by its recorded delay: a hold mid-trip lands where its delay rose', () => {
    // Trips 1 and 3 run at a steady pace; trip 2's bus sends nothing: on time to the 1,000 m stop (5 min), held there
    // 4 minutes (its delay rising a minute a minute), then on at the same pace (arrival 14 min after departure).
    const trips = [trip(1, 0, 0), { ...trip(2, 10, 10), actualArrivalAt: T0 + 24 * MIN, lastSeenAt: T0 + 24 * MIN }, trip(3, 20, 20)];
    const fixesByTrip = new Map([
      [1, fixes(trips[0]!)],
      [3, fixes(trips[2]!)],
    ]);
    // The rounded delay turns 1..4 as the true one crosses 0.5..3.5 minutes, each seen by the next walk.
    const delaysByTrip = new Map([[2, [{ at: T0 + 10 * MIN, delayMinutes: 0 }, ...[1, 2, 3, 4].map((d) => ({ at: T0 + (15 + d - 0.5) * MIN + 10_000, delayMinutes: d }))]]]);
    const t2 = (delays: typeof delaysByTrip | undefined) =>
      routeDayPassings({ stops: STOPS, trips, fixesByTrip, delaysByTrip: delays })
        .get('outbound')!
        .passings.find((p) => p.tripId === 2)!
        .actual.map((x) => (x === null ? null : Math.round((x - T0) / 1000)));
    const held = t2(delaysByTrip);
    const truth = [600, 675, 750, 825, 900, 1215, 1290, 1365, 1440];
    // Each stop within the half minute the delay is rounded to.
    held.forEach((x, k) => expect(Math.abs(x! - truth[k]!)).toBeLessThanOrEqual(30));
    // Without the delays, the hold is spread over the whole trip (the 1,000 m stop 7 minutes after departure).
    expect(t2(undefined)[4]).toBe(600 + 420);
  });

  it('ends a short-turned trip at the stop its planned time reaches, and passes none of the stops after it', () => {
    const trips = [trip(1, 0, 0), trip(3, 20, 20)];
    // Trip 2 is planned for 5 of the route's 10 minutes: it turns at the 1,000 m stop (fixes up to 800 m).
    const short: DayTrip = { ...trip(2, 10, 10), plannedArrivalAt: T0 + 15 * MIN, actualArrivalAt: T0 + 15 * MIN, tripType: 'short_turn' };
    const fixesByTrip = new Map([...trips.map((t) => [t.tripId, fixes(t)] as const), [2, fixes(trip(2, 10, 10)).slice(0, 4)]]);
    const passings = routeDayPassings({ stops: STOPS, trips: [trips[0]!, short, trips[1]!], fixesByTrip }).get('outbound')!.passings;
    const t2 = passings.find((p) => p.tripId === 2)!.actual.map((x) => (x === null ? null : Math.round((x - T0) / 1000)));
    expect(t2).toEqual([600, 675, 750, 825, 900, null, null, null, null]);
  });

  it('drops fixes that drift back more than a fix’s noise behind the furthest the bus had been (a street run out and back)', () => {
    const t = trip(1, 0, 0);
    const fix = (min: number, north: number): DayFix => {
      const [lon, lat] = at(0, north);
      return { at: T0 + min * MIN, lat, lon, heading: 0, speedKmh: 12, accuracy: 10 };
    };
    // Up to 800 m at 4 minutes; the way back snapped onto the way out, 120 then 220 m further back each minute; on.
    const fx = [fix(1, 200), fix(2, 400), fix(3, 600), fix(4, 800), fix(5, 680), fix(6, 460), fix(7, 240), fix(8, 1_600), fix(9, 1_800)];
    const placed = progressFixes(pathOf(), t, fx).map((p) => Math.round(p.m));
    // 680 m is within 300 m of the furthest (800 m); 460 and 240 m are not, though each is within 300 m of the one before.
    expect(placed).toEqual([0, 200, 400, 600, 800, 680, 1_600, 1_800, 2_000]);
  });

  it('counts only trips with no bus as ghosts when no fix was recorded all day (a key without locations)', () => {
    expect(tripGhostMinutes(trip(1, 0, 0), [], false, 300)).toBe(0);
    expect(tripGhostMinutes(trip(1, 0, 0, null), [], false, 300)).toBe(10);
    // A day not over counts a running trip until now only.
    expect(tripGhostMinutes(trip(1, 0, 0, null), [], true, 300, T0 + 4 * MIN)).toBe(4);
  });
});
