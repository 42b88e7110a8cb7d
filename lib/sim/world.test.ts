import { describe, expect, it } from 'vitest';
import { ZoneTime } from './clock';
import { fixtureNetwork } from './data/fixture-network';
import { defaultNetwork } from './default-network';
import { buildFleet } from './fleet';
import { pointAlong } from '../geo/polyline';
import { distanceM } from '../geo/sphere';
import { prepareNetwork, type SimNetwork } from './network';
import { planFleet } from './schedule';
import { World } from './world';

// Behaviour of the simulated fleet, read straight from the model (no HTTP).

const WEDNESDAY_0AM = Date.parse('2026-03-04T05:00:00Z');
const at = (hours: number) => WEDNESDAY_0AM + hours * 3_600_000;

function world(net: SimNetwork, seed = 42, buses?: number) {
  const plan = planFleet(net, seed, buses);
  return new World({ net, seed, plan, fleet: buildFleet(net, seed, plan), zone: new ZoneTime('America/New_York'), startAt: WEDNESDAY_0AM });
}

describe('fleet plan', () => {
  it('sizes the default fleet from the weekday peak plus about 10% spares', () => {
    const plan = planFleet(defaultNetwork(), 42);
    expect(plan.totalBuses).toBe(plan.workBuses + plan.spareBuses);
    expect(plan.workBuses).toBeGreaterThan(200);
    expect(plan.workBuses).toBeLessThan(2000);
    expect(plan.spareBuses / plan.workBuses).toBeCloseTo(0.1, 1);
  });

  it('scales the timetable to a requested fleet so that most buses work', () => {
    for (const n of [1, 40, 500, 3000]) {
      const plan = planFleet(defaultNetwork(), 42, n);
      expect(plan.totalBuses).toBe(n);
      expect(plan.workBuses).toBeLessThanOrEqual(n);
      if (n >= 40) expect(plan.workBuses).toBeGreaterThan(n * 0.8);
    }
  });

  it('rejects a network that breaks the file format, naming the field', () => {
    expect(() => prepareNetwork({ source: 'x', bbox: [0, 0, 1, 1], routes: [{ routeId: 'A' }] })).toThrow(/routes\.0\./);
  });
});

describe('blocks and trips', () => {
  const w = world(prepareNetwork(fixtureNetwork));
  const s = w.schedule(w.serviceDayOf(at(12)));

  it('gives every bus a block of trips that never overlap, with time to turn at the terminal', () => {
    expect(s.count).toBeGreaterThan(100);
    for (const bus of w.fleet.buses) {
      const trips = Array.from(s.blockTrips.subarray(s.blockStart[bus.id]!, s.blockStart[bus.id + 1]!));
      if (bus.routeIndex < 0) expect(trips).toEqual([]);
      for (let i = 1; i < trips.length; i++) {
        const a = trips[i - 1]!;
        const b = trips[i]!;
        expect(s.route[b]).toBe(bus.routeIndex);
        expect(s.depS[b]! + s.d0[b]!).toBeGreaterThanOrEqual(s.arrS[a]! + s.dEnd[a]!);
      }
    }
  });

  it('alternates directions on two-way routes', () => {
    let same = 0;
    let pairs = 0;
    for (const bus of w.fleet.buses.filter((b) => b.routeIndex === 0)) {
      const trips = Array.from(s.blockTrips.subarray(s.blockStart[bus.id]!, s.blockStart[bus.id + 1]!));
      for (let i = 1; i < trips.length; i++, pairs++) if (s.dir[trips[i]!] === s.dir[trips[i - 1]!]) same++;
    }
    expect(pairs).toBeGreaterThan(20);
    expect(same / pairs).toBeLessThan(0.1);
  });

  it('ends every trip, delays included, within its service day', () => {
    for (let k = 0; k < s.count; k++) expect(s.arrS[k]! + s.dEnd[k]!).toBeLessThan(s.dayEndS);
  });

  it('moves a trip through its states in order', () => {
    const k = Math.floor(s.count / 2);
    const dep = s.baseMs + s.depS[k]! * 1000;
    const seen: string[] = [];
    for (let t = dep - 600_000; t < dep + (s.arrS[k]! - s.depS[k]! + 3600) * 1000; t += 30_000) {
      const st = w.tripStatus({ s, k }, t).status;
      if (seen.at(-1) !== st) seen.push(st);
    }
    expect(seen[0]).toBe('scheduled');
    expect(seen.at(-1)).toBe('completed');
    expect(seen.every((x) => ['scheduled', 'started', 'delayed', 'completed'].includes(x))).toBe(true);
  });
});

describe('the Manhattan fleet through a weekday', () => {
  const w = world(defaultNetwork());
  const delays = (t: number) => w.activeTrips(t).map((ref) => w.tripStatus(ref, t).delayMinutes!);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  it('runs many more trips in the rush than at night', () => {
    expect(w.activeTrips(at(8)).length).toBeGreaterThan(3 * w.activeTrips(at(3.5)).length);
  });

  it('runs later in the rush hours than at midday, with some buses early', () => {
    const rush = delays(at(9));
    const midday = delays(at(13));
    expect(mean(rush)).toBeGreaterThan(mean(midday) + 1);
    expect(rush.filter((d) => d >= 5).length / rush.length).toBeGreaterThan(0.15);
    expect(midday.some((d) => d <= -1)).toBe(true);
  });

  it('puts buses on their route with believable speeds and GPS fixes a few metres off', () => {
    const t = at(10);
    const onTrip = w.fleet.buses.filter((b) => w.busState(b, t).onTrip);
    expect(onTrip.length).toBeGreaterThan(200);
    const speeds = onTrip.map((b) => w.busState(b, t).speedKmh);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(90);
    expect(speeds.filter((v) => v === 0).length).toBeGreaterThan(0);
    expect(mean(speeds)).toBeGreaterThan(4);
    expect(mean(speeds)).toBeLessThan(30);
    for (const b of onTrip) {
      const fix = w.fix(b, t);
      if (!fix) continue;
      const truth = w.busState(b, fix.atMs);
      expect(distanceM(fix.lon, fix.lat, truth.lon, truth.lat)).toBeLessThan(15);
      expect(fix.accuracyM).toBeGreaterThanOrEqual(3);
      expect(fix.accuracyM).toBeLessThanOrEqual(15);
      expect(t - fix.atMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('tells each bus on a trip how far along its line it is: where it stands, and never backwards within the trip', () => {
    const t = at(10);
    const onTrip = w.fleet.buses.filter((b) => w.busState(b, t).onTrip).slice(0, 80);
    expect(onTrip.length).toBe(80);
    for (const b of onTrip) {
      const trip = w.tripOfBus(b.id, t)!;
      const line = w.net.routes[trip.s.route[trip.k]!]!.directions[trip.s.dir[trip.k]!]!.line;
      const s = w.busState(b, t);
      expect(s.alongM).toBeGreaterThanOrEqual(0);
      expect(s.alongM).toBeLessThanOrEqual(line.lengthM);
      const p = pointAlong(line, s.alongM!);
      expect(distanceM(p.lon, p.lat, s.lon, s.lat)).toBeLessThan(1);
      // A minute on: further along the same trip (or done with it).
      const later = w.busState(b, t + 60_000);
      if (later.onTrip && w.tripOfBus(b.id, t + 60_000)?.k === trip.k) expect(later.alongM!).toBeGreaterThanOrEqual(s.alongM!);
    }
    const parked = w.fleet.buses.find((b) => !w.busState(b, t).onTrip)!;
    expect(w.busState(parked, t).alongM).toBeUndefined();
  });

  it('has a few buses that never report and some that lose GPS for minutes', () => {
    const none = w.fleet.buses.filter((b) => w.fix(b, at(10)) === null);
    expect(none.length).toBeGreaterThan(0);
    expect(none.length).toBeLessThan(w.busCount * 0.05);
    let lostRoute = 0;
    for (let m = 0; m < 120; m += 5) lostRoute += w.fleet.buses.filter((b) => b.routeIndex >= 0 && w.gpsState(b, at(10) + m * 60_000) === 'lost').length;
    expect(lostRoute).toBeGreaterThan(0);
  });

  it('parks buses between trips (speed 0) and keeps parked buses still', () => {
    const t = at(11);
    const idle = w.fleet.buses.filter((b) => b.routeIndex >= 0 && !w.busState(b, t).onTrip);
    const parked = idle.filter((b) => {
      const a = w.busState(b, t);
      const c = w.busState(b, t + 20_000);
      return a.speedKmh === 0 && c.speedKmh === 0 && !c.onTrip;
    });
    expect(parked.length).toBeGreaterThan(10);
    for (const b of parked) {
      const a = w.busState(b, t);
      const c = w.busState(b, t + 20_000);
      expect(distanceM(a.lon, a.lat, c.lon, c.lat)).toBeLessThan(1);
    }
  });

  it('moves each bus continuously: no jumps between fixes 15 seconds apart', () => {
    const buses = w.fleet.buses.filter((b) => b.routeIndex >= 0).slice(0, 60);
    for (const b of buses) {
      for (let t = at(6); t < at(24); t += 15_000) {
        const a = w.busState(b, t);
        const c = w.busState(b, t + 15_000);
        // 15 s at up to ~90 km/h is under 400 m.
        expect(distanceM(a.lon, a.lat, c.lon, c.lat), `bus ${b.id} at ${new Date(t).toISOString()}`).toBeLessThan(400);
      }
    }
  }, 600_000); // 60 buses × a service day of 15 s steps: seconds on an idle machine, 121 s at load 40 (the deadline only stops a hung run)
});
