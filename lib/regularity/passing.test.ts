import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULARITY } from '@/lib/model';
import { figuresOfSums, ghostMinutes, headwaySamples, paceProfile, passingTimes, plannedPassings, shortTurnStop, sumsOf, type TripPassings } from './passing';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 4, 13);
const STOPS = [0, 500, 1000, 1500, 2000];

describe('passing times', () => {
  it('interpolates each stop between the fixes around it, and leaves it unknown where fixes are too far apart', () => {
    const fixes = [
      { at: T0, m: 0 },
      { at: T0 + MIN, m: 600 },
      // Six minutes without a fix: stops 1,000 and 1,500 are not told.
      { at: T0 + 7 * MIN, m: 1_800 },
      { at: T0 + 8 * MIN, m: 2_000 },
    ];
    expect(passingTimes(STOPS, fixes)).toEqual([T0, T0 + 50_000, null, null, T0 + 8 * MIN]);
    // Order of the fixes does not matter; standing still passes nothing.
    expect(passingTimes(STOPS, [{ at: T0 + MIN, m: 500 }, { at: T0, m: 500 }])).toEqual([null, null, null, null, null]);
  });

  it('starts a stretch from the furthest the bus had been, not from a fix placed further back (a street off the stop-to-stop line)', () => {
    // At 1,000 m after a minute; the next fix, on a street that strays from the line, projects back to 800 m.
    const stray = [
      { at: T0, m: 0 },
      { at: T0 + MIN, m: 1_000 },
      { at: T0 + 2 * MIN, m: 800 },
      { at: T0 + 3 * MIN, m: 2_000 },
    ];
    // The 1,500 m stop halfway between 1,000 m at 1 min and 2,000 m at 3 min (not 7/12 of the way from 800 m at 2 min).
    expect(passingTimes(STOPS, stray)[3]).toBe(T0 + 2 * MIN);
    // A standing bus's noise (5 m back) is where it left from: the later fix.
    const standing = [
      { at: T0 + MIN, m: 1_000 },
      { at: T0 + 2 * MIN, m: 995 },
      { at: T0 + 3 * MIN, m: 2_005 },
    ];
    expect(passingTimes(STOPS, standing)[3]).toBe(T0 + 2 * MIN + Math.round((505 / 1_010) * MIN));
  });

  it('learns the pace profile from the passings: each segment its median time, one nobody passed at the others’ pace', () => {
    const s = (xs: (number | null)[]) => xs.map((x) => (x === null ? null : T0 + x * 1000));
    // Segment times: 60/80/70 s (median 70) and 120/100/110 s (median 110); the third segment is never passed.
    const profile = paceProfile([0, 500, 1000, 1500], [s([0, 60, 180, null]), s([0, 80, 180, null]), s([0, 70, 180, null])]);
    // 180 s for the 1,000 m known: the last 500 m take 90 s.
    expect(Array.from(profile)).toEqual([0, 70, 180, 270]);
  });

  it('fills a gap longer than the interpolation limit in the profile’s time, not in distance', () => {
    // The buses take 60 s to the second stop, 240 s more to the third (a slow stretch), then 60 s a stop.
    const profile = Float64Array.from([0, 60, 300, 360, 420]);
    const fixes = [
      { at: T0, m: 0 },
      { at: T0 + 7 * MIN, m: 2_000 },
    ];
    expect(passingTimes(STOPS, fixes)).toEqual([null, null, null, null, null]);
    expect(passingTimes(STOPS, fixes, profile)).toEqual([T0, T0 + 60_000, T0 + 300_000, T0 + 360_000, T0 + 7 * MIN]);
    // Fixes close enough stay linear in distance.
    expect(passingTimes(STOPS, [{ at: T0, m: 0 }, { at: T0 + 4 * MIN, m: 2_000 }], profile)).toEqual([T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN, T0 + 4 * MIN]);
  });

  it('ends a short-turned trip at the stop its share of the planned time reaches on the profile', () => {
    const profile = Float64Array.from([0, 60, 300, 360, 420]);
    // 70 % of 420 s is 294 s: the third stop (300 s); not before where its fixes already had it (1,200 m).
    expect(shortTurnStop(STOPS, profile, 0.7, 0)).toBe(2);
    expect(shortTurnStop(STOPS, profile, 0.7, 1_200)).toBe(3);
    expect(shortTurnStop(STOPS, new Float64Array(5), 0.7, 0)).toBeNull();
  });

  it('plans each stop linearly in distance between departure and arrival', () => {
    expect(plannedPassings(STOPS, T0, T0 + 20 * MIN)).toEqual([T0, T0 + 5 * MIN, T0 + 10 * MIN, T0 + 15 * MIN, T0 + 20 * MIN]);
    expect(plannedPassings(STOPS, null, T0)).toEqual([null, null, null, null, null]);
  });
});

describe('headway figures', () => {
  const trip = (tripId: number, plannedMin: number, actualMin: (number | null)[]): TripPassings => ({
    tripId,
    planned: STOPS.map(() => T0 + plannedMin * MIN),
    actual: actualMin.map((m) => (m === null ? null : T0 + m * MIN)),
  });

  it('takes consecutive passings at each stop, with the scheduled headway of the same pair and its class', () => {
    // Planned every 10 minutes; at stop 0 the buses come at 0, 2 and 20: bunched (2 of 10), then gapped (18 of 10).
    const trips = [trip(1, 0, [0, null, null, null, null]), trip(2, 10, [2, null, null, null, null]), trip(3, 20, [20, null, null, null, null])];
    expect(headwaySamples(trips, 5, DEFAULT_REGULARITY).map((s) => [s.stop, s.headwayS, s.scheduledS, s.cls])).toEqual([
      [0, 120, 600, 'bunched'],
      [0, 1080, 600, 'gapped'],
    ]);
    // A trip whose passing is unknown breaks the chain: no sample spans it.
    const broken = [trip(1, 0, [0]), trip(2, 10, [null]), trip(3, 20, [20])];
    expect(headwaySamples(broken, 1, DEFAULT_REGULARITY)).toEqual([]);
  });

  it('pairs each stop’s passings in planned order (actual where none is planned), ties in the trips’ order, whatever order the trips come in', () => {
    // The order by a plain stable sort at each stop, as the definition reads; eachHeadway keeps one order from stop to
    // stop and mends it. Trips overtake in plan between stops (different planned run times), some have no plan,
    // some no passing at all, some tie.
    const reference = (trips: readonly TripPassings[], stops: number) => {
      const out: [number, number, number, number | null][] = [];
      for (let k = 0; k < stops; k++) {
        const at = trips.map((t) => ({ actual: t.actual[k] ?? null, planned: t.planned[k] ?? null })).filter((p) => p.planned !== null || p.actual !== null);
        at.sort((a, b) => (a.planned ?? a.actual!) - (b.planned ?? b.actual!));
        for (let i = 1; i < at.length; i++) {
          const [prev, cur] = [at[i - 1]!, at[i]!];
          if (prev.actual === null || cur.actual === null || cur.actual < prev.actual) continue;
          const sched = prev.planned !== null && cur.planned !== null ? (cur.planned - prev.planned) / 1000 : null;
          out.push([k, cur.actual, (cur.actual - prev.actual) / 1000, sched !== null && sched > 0 ? sched : null]);
        }
      }
      return out;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    for (let round = 0; round < 40; round++) {
      const stops = 1 + Math.floor(random() * 8);
      const trips: TripPassings[] = Array.from({ length: Math.floor(random() * 30) }, (_, tripId) => {
        const planned = random() < 0.15 ? null : Math.floor(random() * 12) * 5;
        const pace = 1 + Math.floor(random() * 4);
        const late = Math.floor(random() * 10);
        return {
          tripId,
          planned: Array.from({ length: stops }, (_, k) => (planned === null ? null : T0 + (planned + k * pace) * MIN)),
          actual: Array.from({ length: stops }, (_, k) => (random() < 0.2 ? null : T0 + ((planned ?? 0) + k * pace + late) * MIN)),
        };
      });
      const got = headwaySamples(trips, stops, DEFAULT_REGULARITY).map((s) => [s.stop, s.at, s.headwayS, s.scheduledS]);
      expect(got).toEqual(reference(trips, stops));
    }
  });

  it('computes cv_h, AWT, SWT and EWT as TCQSM defines them', () => {
    const samples = [
      { stop: 0, at: T0, headwayS: 120, scheduledS: 600, cls: 'bunched' as const },
      { stop: 0, at: T0, headwayS: 1080, scheduledS: 600, cls: 'gapped' as const },
    ];
    const f = figuresOfSums(sumsOf(samples));
    // mean 600, σ 480: cv 0.8; AWT = (120² + 1080²) / (2 · 1200) = 492; SWT = 300; EWT = 192.
    expect(f.cvH).toBeCloseTo(0.8, 10);
    expect(f.awtS).toBeCloseTo(492, 10);
    expect(f.swtS).toBeCloseTo(300, 10);
    expect(f.ewtS).toBeCloseTo(192, 10);
    expect([f.bunchedShare, f.gappedShare, f.samples]).toEqual([0.5, 0.5, 2]);
    // Nothing measured is not zero: it is unknown.
    expect(figuresOfSums(sumsOf([]))).toEqual({ samples: 0, cvH: null, awtS: null, swtS: null, ewtS: null, bunchedShare: null, gappedShare: null });
  });

  it('counts ghost minutes beyond GHOST_AFTER_S without a fix, between departure and end', () => {
    // Fixes every minute but a 12-minute silence: 7 minutes beyond the 5.
    const fixes = [1, 2, 3, 15, 16].map((m) => T0 + m * MIN);
    expect(ghostMinutes(fixes, T0, T0 + 17 * MIN, 300)).toBe(7);
    // No fix at all over a 20-minute trip: 15 minutes a ghost.
    expect(ghostMinutes([], T0, T0 + 20 * MIN, 300)).toBe(15);
  });
});
