import { describe, expect, it } from 'vitest';
import { LocationScheduler, newTrack, recordFix, type BusTrack } from './location-scheduler';
import { distanceM } from '@/lib/geo/sphere';

const NOW = 1_000_000;
const timing = { parkedFloorMs: 300_000, watchRefreshMs: 5_000, slotMs: 1_000 };

function track(busId: number, over: Partial<BusTrack> = {}): BusTrack {
  return { ...newTrack(busId), fetchedAt: NOW - 10_000, lat: 40.7, lon: -74, travelSpeedKmh: 20, onTrip: true, ...over };
}

describe('LocationScheduler', () => {
  it('prefers the larger expected error: a fast bus beats a slow one of the same age, age beats speed', () => {
    const s = new LocationScheduler();
    const slow = track(1, { travelSpeedKmh: 4 });
    const fast = track(2, { travelSpeedKmh: 36 });
    expect(s.pick([slow, fast], NOW, timing)).toBe(fast);
    // Weights v + 10: 46/14 ≈ 3.3 = (age ratio)², so the slow bus wins once it is more than 1.8 times older.
    expect(s.pick([track(1, { travelSpeedKmh: 4, fetchedAt: NOW - 17_000 }), fast], NOW, timing)).toBe(fast);
    const olderSlow = track(1, { travelSpeedKmh: 4, fetchedAt: NOW - 19_000 });
    expect(s.pick([olderSlow, fast], NOW, timing)).toBe(olderSlow);
  });

  it('weighs a bus whose GPS is silent (no position, or a fix long stale) as a stopped one', () => {
    const s = new LocationScheduler();
    const moving = track(1, { travelSpeedKmh: 20, lat: 40.7, lon: -74, gpsAt: NOW - 15_000 });
    // Weights: 20 + 10 for the moving bus at 10 s, 3 + 10 (the floor) for the silent ones at 14 s.
    const noPosition = track(2, { travelSpeedKmh: 20, fetchedAt: NOW - 14_000, lat: null, lon: null });
    const staleFix = track(3, { travelSpeedKmh: 20, fetchedAt: NOW - 14_000, lat: 40.7, lon: -74, gpsAt: NOW - 14_000 - 120_000 });
    expect(s.pick([moving, noPosition], NOW, timing)).toBe(moving);
    expect(s.pick([moving, staleFix], NOW, timing)).toBe(moving);
    // The same bus with a live GPS would have won on age.
    expect(s.pick([moving, { ...staleFix, gpsAt: NOW - 19_000 }], NOW, timing)).not.toBe(moving);
  });

  it('locates unseen buses on trips first, then parked buses at their floor, and skips buses in flight', () => {
    const s = new LocationScheduler();
    const seen = track(1, { fetchedAt: NOW - 60_000 });
    const unseen = track(2, { fetchedAt: null });
    const parkedDue = track(3, { onTrip: false, fetchedAt: NOW - 290_000 });
    const parkedFresh = track(4, { onTrip: false, fetchedAt: NOW - 100_000 });
    expect(s.pick([seen, unseen, parkedDue, parkedFresh], NOW, timing)).toBe(unseen);
    expect(s.pick([seen, { ...unseen, inFlight: true }, parkedDue, parkedFresh], NOW, timing)).toBe(parkedDue);
    expect(s.pick([seen, parkedFresh], NOW, timing)).toBe(seen);
  });

  it('uses parked buses only when nobody is on a trip', () => {
    const s = new LocationScheduler();
    const a = track(1, { onTrip: false, fetchedAt: NOW - 100_000 });
    const b = track(2, { onTrip: false, fetchedAt: NOW - 50_000 });
    expect(s.pick([a, b], NOW, timing)).toBe(a);
    expect(s.pick([], NOW, timing)).toBeNull();
  });

  it('serves a watched bus first but leaves every other slot to the fleet', () => {
    const s = new LocationScheduler();
    const watched = track(7, { fetchedAt: NOW - 6_000, watchedSince: NOW - 20_000, watchedUntil: NOW + 10_000 });
    const other = track(8, { fetchedAt: NOW - 60_000 });
    expect(s.pick([watched, other], NOW, timing)).toBe(watched);
    expect(s.pick([watched, other], NOW, timing)).toBe(other);
    expect(s.pick([watched, other], NOW, timing)).toBe(watched);
    // A lapsed watch is an ordinary bus again.
    const lapsed = { ...watched, watchedUntil: NOW - 1 };
    expect(s.pick([lapsed, other], NOW, timing)).toBe(other);
  });
});

describe('LocationScheduler with a large parked fleet', () => {
  it('gives parked buses at most every other slot while buses on trips wait', () => {
    const s = new LocationScheduler();
    const onTrip = [track(1, { fetchedAt: NOW - 30_000 }), track(2, { fetchedAt: NOW - 20_000 })];
    const parked = [track(3, { onTrip: false, fetchedAt: null }), track(4, { onTrip: false, fetchedAt: null })];
    const picks = [0, 1, 2, 3].map(() => {
      const t = s.pick([...onTrip, ...parked], NOW, timing)!;
      t.fetchedAt = NOW;
      return t.busId;
    });
    expect(picks).toEqual([3, 1, 4, 2]);
  });
});

// A fleet with known motion on a simulated clock: every bus runs north along its own meridian, the upstream
// answers with the last GPS fix (one every 5 s) and the GPS speed of that instant. One location slot a second;
// the position error of every bus is sampled every second after a warm-up.
const SLOT_MS = 1_000;
const GPS_PERIOD_MS = 5_000;
const KM_PER_DEG_LAT = 111.195;

interface SimBus {
  /** km travelled by time t (ms), and the speed at t (km/h). */
  km(t: number): number;
  speedKmh(t: number): number;
}

const steady = (kmh: number): SimBus => ({ km: (t) => (kmh * t) / 3_600_000, speedKmh: () => kmh });

/** Drives at `kmh` for `runS`, then stands for `stopS` (a stop, a light), over and over; `phaseS` shifts the cycle. */
function stopAndGo(kmh: number, runS: number, stopS: number, phaseS: number): SimBus {
  const cycle = (runS + stopS) * 1000;
  const run = runS * 1000;
  const at = (t: number) => {
    const u = t + phaseS * 1000;
    const inCycle = ((u % cycle) + cycle) % cycle;
    return { cycles: Math.floor(u / cycle), inCycle };
  };
  const kmAtPhase = (u: number) => {
    const { cycles, inCycle } = at(u - phaseS * 1000);
    return (kmh * (cycles * run + Math.min(inCycle, run))) / 3_600_000;
  };
  return { km: (t) => kmAtPhase(t) - kmAtPhase(0), speedKmh: (t) => (at(t).inCycle < run ? kmh : 0) };
}

type Policy = (tracks: BusTrack[], now: number) => BusTrack | null;

const schedulerPolicy = (): Policy => {
  const s = new LocationScheduler();
  return (tracks, now) => s.pick(tracks, now, { parkedFloorMs: 1_800_000, watchRefreshMs: 5_000, slotMs: SLOT_MS });
};

/** Round robin: the bus fetched longest ago (never fetched first), whatever it does. */
const roundRobin: Policy = (tracks) => tracks.reduce<BusTrack | null>((best, t) => (!best || (t.fetchedAt ?? -Infinity) < (best.fetchedAt ?? -Infinity) ? t : best), null);

function simulate(fleet: SimBus[], policy: Policy, minutes: number): { meanErrorM: number; meanAgeS: number } {
  const tracks = fleet.map((_, i) => ({ ...newTrack(i + 1), onTrip: true }));
  const truth = (i: number, t: number) => ({ lat: 40.6 + fleet[i]!.km(t) / KM_PER_DEG_LAT, lon: -74 + i / 100 });
  const warmupMs = 5 * 60_000;
  let errorSum = 0;
  let ageSum = 0;
  let samples = 0;
  for (let now = 0; now < warmupMs + minutes * 60_000; now += SLOT_MS) {
    const t = policy(tracks, now);
    if (t) {
      const i = t.busId - 1;
      const gpsAt = Math.floor(now / GPS_PERIOD_MS) * GPS_PERIOD_MS;
      recordFix(t, { ...truth(i, gpsAt), gpsAt, speedKmh: fleet[i]!.speedKmh(gpsAt), heading: 0, accuracy: 5 }, now);
    }
    if (now < warmupMs) continue;
    for (const [i, held] of tracks.entries()) {
      const real = truth(i, now);
      errorSum += distanceM(held.lon!, held.lat!, real.lon, real.lat);
      ageSum += (now - held.fetchedAt!) / 1000;
      samples++;
    }
  }
  return { meanErrorM: errorSum / samples, meanAgeS: ageSum / samples };
}

describe('LocationScheduler on a fixed budget', () => {
  it('beats round robin on mean position error when speeds differ, stop-and-go buses included', () => {
    const fleet: SimBus[] = [];
    for (let k = 0; k < 15; k++) {
      fleet.push(steady(40), steady(8), stopAndGo(30, 60, 30, k * 7), stopAndGo(25, 20, 40, k * 5));
    }
    const smart = simulate(fleet, schedulerPolicy(), 30);
    const rr = simulate(fleet, roundRobin, 30);
    // Round robin over 60 buses at one fix a second keeps each about 30 s old.
    expect(rr.meanAgeS).toBeGreaterThan(28);
    expect(rr.meanAgeS).toBeLessThan(32);
    // √-rate theory for these speeds (40, 8, 20 and 8.3 km/h on average) and weights v + 10: about 9 % less error.
    expect(smart.meanErrorM).toBeLessThan(rr.meanErrorM * 0.92);
  });

  it('is round robin when every bus moves at the same average speed, even stopping and going', () => {
    const fleet = Array.from({ length: 60 }, (_, k) => stopAndGo(30, 60, 30, k * 3));
    const smart = simulate(fleet, schedulerPolicy(), 30);
    const rr = simulate(fleet, roundRobin, 30);
    expect(smart.meanAgeS / rr.meanAgeS).toBeLessThan(1.03);
    expect(smart.meanErrorM / rr.meanErrorM).toBeLessThan(1.03);
  });

  it('is exactly round robin when every bus moves at the same steady speed', () => {
    const fleet = Array.from({ length: 60 }, () => steady(25));
    const smart = simulate(fleet, schedulerPolicy(), 10);
    const rr = simulate(fleet, roundRobin, 10);
    expect(smart.meanAgeS).toBeCloseTo(rr.meanAgeS, 6);
  });
});
