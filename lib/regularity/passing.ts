// Headways over days, from what was recorded: when each bus passed each stop, and the regularity figures of the
// headways those passings make. Pure: the recorder's derivation, the benchmark and the tests share it.
//
// Passing times: a trip's fixes, each placed at its progress along the direction's path (lib/estimate's
// routeProgress: the one placement), are joined in time order; a stop between two fixes is passed at the time
// interpolated linearly in distance between them, the stretch starting from the last fix at the furthest the bus had
// been (a fix further back than a standing bus's noise was placed off where the bus was). Fixes more than
// MAX_INTERPOLATION_MS apart (a GPS loss, or a bus that sent none between its recorded departure and arrival) are
// interpolated in the time of a clock instead: the trip's own, from its recorded delay (delay-clock.ts, days.ts),
// or the direction's pace profile (each stop-to-stop segment's median time over the day's trips that passed both
// its stops), so that the stretch that took longer takes the longer share of the gap. Without a bracket (no fix or
// arrival beyond the stop) the passing is left unknown, never guessed. A bus that stands still between two fixes
// (no progress) passes nothing.
//
// Figures over a set of headways h (seconds between consecutive passings at one stop, TCQSM):
//   cv_h = σ_h / mean(h);  AWT = Σh² / (2 Σh);  SWT = the same over the scheduled headways;  EWT = AWT − SWT.
import type { EpochMs, HeadwayClass, RegularityConfig, RegularityFigures } from '@/lib/model';

export type { RegularityFigures };
import { headwayClass } from './headways';

/** Two fixes further apart than this say too little of when the bus passed the stops between them. */
export const MAX_INTERPOLATION_MS = 5 * 60_000;
/**
 * A fix less than this behind the one before is a bus standing there (GPS noise: lib/estimate's STOPPED_M); one
 * further behind was placed off where the bus was (a street path that strays from the stop-to-stop line).
 */
const BACK_NOISE_M = 15;

export interface ProgressFix {
  at: EpochMs;
  /** Metres along the direction's path. */
  m: number;
}

/**
 * A time scale along the path (metres along → milliseconds, never decreasing) in which a long gap between fixes is
 * filled linearly: the pace profile's, or the trip's own clock (days.ts: its planned times and recorded delay).
 */
export type GapClock = (m: number) => number;

/**
 * When the trip passed each stop (metres along the path, in order), or null where the fixes cannot tell. Between
 * fixes at most `maxGapMs` apart, linear in distance; with the direction's pace profile (or a clock of the trip's
 * own), also across longer gaps, linear in its time (the stretch that takes longer takes the longer share of the gap).
 */
export function passingTimes(stopsM: readonly number[], fixes: readonly ProgressFix[], gapClock: PaceProfile | GapClock | null = null, maxGapMs = MAX_INTERPOLATION_MS): Array<EpochMs | null> {
  const clock: GapClock | null = gapClock === null ? null : typeof gapClock === 'function' ? gapClock : (m) => profileAt(stopsM, gapClock, m);
  const out: Array<EpochMs | null> = stopsM.map(() => null);
  const sorted = [...fixes].sort((a, b) => a.at - b.at);
  // The fix the next stretch starts from: the last one at the furthest the bus had been (give or take a standing
  // bus's noise). A fix further behind says nothing of the stops ahead (a detour off the stop-to-stop line projects
  // back onto it): the stretch runs from where the bus had been to the next fix beyond.
  let from = sorted[0];
  for (let i = 1; i < sorted.length; i++) {
    const prev = from!;
    const b = sorted[i]!;
    if (!(b.m > prev.m)) {
      if (b.m >= prev.m - BACK_NOISE_M) from = b;
      continue;
    }
    from = b;
    const long = b.at - prev.at > maxGapMs;
    if (long && !clock) continue;
    // The scale the time is linear in between the two fixes: metres, or the clock's time over a long gap.
    const scale = long && clock ? clock : (m: number) => m;
    const sa = scale(prev.m);
    const sb = scale(b.m);
    for (let k = 0; k < stopsM.length; k++) {
      const m = stopsM[k]!;
      // A stop is passed once: at the first pair of fixes that brackets it.
      if (out[k] !== null || m < prev.m || m > b.m) continue;
      const share = sb > sa ? (scale(m) - sa) / (sb - sa) : (m - prev.m) / (b.m - prev.m);
      out[k] = Math.round(prev.at + share * (b.at - prev.at));
    }
  }
  return out;
}

/** Typical seconds from the direction's first stop to each of its stops, from the day's own passings. */
export type PaceProfile = Float64Array;

/** The profile's seconds at `m` metres along: linear between the stops. */
export function profileAt(stopsM: readonly number[], profile: PaceProfile, m: number): number {
  const n = stopsM.length;
  if (n === 0) return m;
  if (m <= stopsM[0]!) return profile[0]!;
  let lo = 0;
  let hi = n - 1;
  if (m >= stopsM[hi]!) return profile[hi]!;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (stopsM[mid]! <= m) lo = mid;
    else hi = mid;
  }
  const span = stopsM[hi]! - stopsM[lo]!;
  return span > 0 ? profile[lo]! + ((m - stopsM[lo]!) / span) * (profile[hi]! - profile[lo]!) : profile[lo]!;
}

/**
 * The direction's pace profile: each stop-to-stop segment takes the typical (median) time of the trips that passed
 * both its stops; a segment none did takes the others' pace over its length.
 */
export function paceProfile(stopsM: readonly number[], passings: ReadonlyArray<ReadonlyArray<EpochMs | null>>): PaceProfile {
  const n = stopsM.length;
  const seg: Array<number | null> = [];
  let knownS = 0;
  let knownM = 0;
  for (let k = 0; k + 1 < n; k++) {
    const xs: number[] = [];
    for (const p of passings) {
      const a = p[k] ?? null;
      const b = p[k + 1] ?? null;
      if (a !== null && b !== null && b >= a) xs.push((b - a) / 1000);
    }
    if (xs.length === 0) {
      seg.push(null);
      continue;
    }
    xs.sort((x, y) => x - y);
    const s = xs[xs.length >> 1]!;
    seg.push(s);
    knownS += s;
    knownM += stopsM[k + 1]! - stopsM[k]!;
  }
  const pace = knownM > 0 && knownS > 0 ? knownS / knownM : 1;
  const out = new Float64Array(n);
  for (let k = 1; k < n; k++) out[k] = out[k - 1]! + (seg[k - 1] ?? pace * (stopsM[k]! - stopsM[k - 1]!));
  return out;
}
/**
 * Where a short-turned trip ended: the stop at `share` of the profile's time to the last stop (the trip's planned
 * time over a whole trip's), not before `fromM` (where its fixes already had it); null without a profile.
 */
export function shortTurnStop(stopsM: readonly number[], profile: PaceProfile, share: number, fromM: number): number | null {
  const n = stopsM.length;
  const total = profile[n - 1] ?? 0;
  if (!(total > 0)) return null;
  const target = share * total;
  let best: number | null = null;
  for (let k = 0; k < n; k++) {
    if (stopsM[k]! < fromM) continue;
    if (best === null || Math.abs(profile[k]! - target) < Math.abs(profile[best]! - target)) best = k;
  }
  return best;
}

/** Where the timetable has the trip at each stop: its planned departure and arrival, linear in distance between. */
export function plannedPassings(stopsM: readonly number[], plannedDepartureAt: EpochMs | null, plannedArrivalAt: EpochMs | null): Array<EpochMs | null> {
  const lengthM = stopsM[stopsM.length - 1] ?? 0;
  if (plannedDepartureAt === null || plannedArrivalAt === null || !(plannedArrivalAt > plannedDepartureAt) || !(lengthM > 0)) return stopsM.map(() => null);
  return stopsM.map((m) => Math.round(plannedDepartureAt + (m / lengthM) * (plannedArrivalAt - plannedDepartureAt)));
}

export interface TripPassings {
  tripId: number;
  /** Actual passing at each stop of the direction (passingTimes). */
  actual: ReadonlyArray<EpochMs | null>;
  /** Planned passing at each stop (plannedPassings). */
  planned: ReadonlyArray<EpochMs | null>;
}

export interface HeadwaySample {
  /** Stop index along the direction. */
  stop: number;
  /** The later passing, the one whose wait this headway is. */
  at: EpochMs;
  headwayS: number;
  /** Between the same two trips' planned passings at that stop; null when unknown or not positive. */
  scheduledS: number | null;
  cls: HeadwayClass;
}

/** Visits one headway sample (see eachHeadway); the arguments are HeadwaySample's fields. */
export type HeadwayVisit = (stop: number, at: EpochMs, headwayS: number, scheduledS: number | null, cls: HeadwayClass) => void;

/**
 * The headways at every stop of a direction: consecutive actual passings of the day's trips at each stop, in planned
 * order (a trip with no planned passing there by its actual one; a trip with neither takes no part). A trip whose
 * passing there is unknown leaves a gap: the two trips around it make no sample, as the wait between them is not
 * known either.
 *
 * Visited, not returned: a 10,000-bus day has hundreds of thousands of samples, and the recorder sums them as they
 * come (days.ts). The trips' order is kept from one stop to the next and mended by insertion (it barely changes
 * along a direction), ties broken by the trips' own order, so every stop's order is the one a stable sort gives.
 */
export function eachHeadway(trips: readonly TripPassings[], stops: number, config: Pick<RegularityConfig, 'bunchedRatio' | 'gappedRatio'>, visit: HeadwayVisit): void {
  const n = trips.length;
  const key = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Planned (else actual) time, then the trips' own order; NaN (neither time known) last.
  const compare = (a: number, b: number) => {
    const [ka, kb] = [key[a]!, key[b]!];
    if (Number.isNaN(ka)) return Number.isNaN(kb) ? a - b : 1;
    return Number.isNaN(kb) ? -1 : ka - kb || a - b;
  };
  for (let k = 0; k < stops; k++) {
    for (let i = 0; i < n; i++) {
      const t = trips[i]!;
      key[i] = t.planned[k] ?? t.actual[k] ?? Number.NaN;
    }
    // The first stop in one sort (the trips come in any order); each next one mended from the one before.
    if (k === 0) order.sort(compare);
    for (let i = 1; i < n; i++) {
      const x = order[i]!;
      if (Number.isNaN(key[x]!)) continue;
      let j = i - 1;
      while (j >= 0 && compare(x, order[j]!) < 0) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = x;
    }
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const cur = order[i]!;
      if (Number.isNaN(key[cur]!)) break;
      if (prev >= 0) {
        const a = trips[prev]!;
        const b = trips[cur]!;
        const prevActual = a.actual[k] ?? null;
        const curActual = b.actual[k] ?? null;
        if (prevActual !== null && curActual !== null) {
          const headwayS = (curActual - prevActual) / 1000;
          if (headwayS >= 0) {
            const pp = a.planned[k] ?? null;
            const cp = b.planned[k] ?? null;
            const sched = pp !== null && cp !== null ? (cp - pp) / 1000 : null;
            const scheduledS = sched !== null && sched > 0 ? sched : null;
            visit(k, curActual, headwayS, scheduledS, headwayClass(scheduledS === null ? null : headwayS / scheduledS, config));
          }
        }
      }
      prev = cur;
    }
  }
}

/** eachHeadway's samples as a list (tests, the benchmark's truth). */
export function headwaySamples(trips: readonly TripPassings[], stops: number, config: Pick<RegularityConfig, 'bunchedRatio' | 'gappedRatio'>): HeadwaySample[] {
  const out: HeadwaySample[] = [];
  eachHeadway(trips, stops, config, (stop, at, headwayS, scheduledS, cls) => out.push({ stop, at, headwayS, scheduledS, cls }));
  return out;
}

/** Sums a period's figures are made of: they add across stops, hours and days. */
export interface HeadwaySums {
  samples: number;
  sumH: number;
  sumH2: number;
  /** Samples with a scheduled headway, and its sums (SWT). */
  scheduled: number;
  sumSched: number;
  sumSched2: number;
  bunched: number;
  gapped: number;
}

export const NO_SUMS: HeadwaySums = { samples: 0, sumH: 0, sumH2: 0, scheduled: 0, sumSched: 0, sumSched2: 0, bunched: 0, gapped: 0 };

export function sumsOf(samples: readonly HeadwaySample[]): HeadwaySums {
  const s = { ...NO_SUMS };
  for (const x of samples) addSample(s, x.headwayS, x.scheduledS, x.cls);
  return s;
}

/** Adds one sample to sums in place (the recorder's derivation sums samples as eachHeadway visits them). */
export function addSample(s: HeadwaySums, headwayS: number, scheduledS: number | null, cls: HeadwayClass): void {
  s.samples++;
  s.sumH += headwayS;
  s.sumH2 += headwayS * headwayS;
  if (scheduledS !== null) {
    s.scheduled++;
    s.sumSched += scheduledS;
    s.sumSched2 += scheduledS * scheduledS;
  }
  if (cls === 'bunched') s.bunched++;
  if (cls === 'gapped') s.gapped++;
}

export function addSums(a: HeadwaySums, b: HeadwaySums): HeadwaySums {
  return {
    samples: a.samples + b.samples,
    sumH: a.sumH + b.sumH,
    sumH2: a.sumH2 + b.sumH2,
    scheduled: a.scheduled + b.scheduled,
    sumSched: a.sumSched + b.sumSched,
    sumSched2: a.sumSched2 + b.sumSched2,
    bunched: a.bunched + b.bunched,
    gapped: a.gapped + b.gapped,
  };
}

export function figuresOfSums(s: HeadwaySums): RegularityFigures {
  const mean = s.samples > 0 ? s.sumH / s.samples : null;
  const variance = mean !== null ? Math.max(0, s.sumH2 / s.samples - mean * mean) : null;
  const awtS = s.sumH > 0 ? s.sumH2 / (2 * s.sumH) : null;
  const swtS = s.sumSched > 0 ? s.sumSched2 / (2 * s.sumSched) : null;
  return {
    samples: s.samples,
    cvH: mean !== null && mean > 0 && variance !== null ? Math.sqrt(variance) / mean : null,
    awtS,
    swtS,
    ewtS: awtS !== null && swtS !== null ? awtS - swtS : null,
    bunchedShare: s.scheduled > 0 ? s.bunched / s.scheduled : null,
    gappedShare: s.scheduled > 0 ? s.gapped / s.scheduled : null,
  };
}

/**
 * Minutes a trip ran as a ghost by the recorded fixes (ghosts.ts's rule over time): between its departure and its
 * end, every stretch longer than GHOST_AFTER_S without a fix counts from GHOST_AFTER_S on.
 */
export function ghostMinutes(fixTimes: readonly EpochMs[], departedAt: EpochMs, endedAt: EpochMs, ghostAfterS: number): number {
  const limit = ghostAfterS * 1000;
  const times = [...fixTimes].filter((t) => t > departedAt && t < endedAt).sort((a, b) => a - b);
  let ms = 0;
  let from = departedAt;
  for (const t of [...times, endedAt]) {
    if (t - from > limit) ms += t - from - limit;
    from = t;
  }
  return ms / 60_000;
}
