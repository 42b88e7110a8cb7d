// Pace profiles seeded from the recorder: at server start the learner (pace-profile.ts) is given the trips recorded
// on earlier days (lib/history/pace-history.ts), so that a restarted server predicts with the recorded pace of each
// route, direction and hour at once instead of the flat plan. A recorded trip is learnt as the server learns a trip
// it watches run: its fixes placed one after the other by lib/estimate (passOf, with the fixes the server would have
// held at each), then the passes handed to the learner (learnRun; the predictions benchmark learns its earlier day
// with the same function). The reading runs in the background after start, a page at a time with a pause between
// pages, and is bounded (SEED_DAYS, SEED_MAX_TRIPS); a route whose stops the feed has not loaded yet waits for them.
import { pathForTrip, RECENT_FIXES_NEEDED, type EstimateTrip, type RecentFix, type RoutePath } from '@/lib/estimate';
import type { EpochMs, RouteStop } from '@/lib/model';
import { passOf, type PaceLearner } from './pace-profile';

/** What the learner needs of a recorded trip. */
export interface RunTrip extends EstimateTrip {
  routeId: number;
  plannedDepartureAt: EpochMs;
  plannedArrivalAt: EpochMs;
}

/**
 * Learns one trip that ran from its fixes (any order; repeats ignored): each placed on the path with the fixes
 * before it, as the server places a fix when it arrives. Returns whether the learner took it (two passes at least).
 */
export function learnRun(learner: PaceLearner, trip: RunTrip, path: RoutePath, fixes: readonly RecentFix[]): boolean {
  const ordered = fixes.filter((f, i, a) => f.gpsAt !== null && a.findIndex((g) => g.gpsAt === f.gpsAt) === i).sort((a, b) => a.gpsAt! - b.gpsAt!);
  // Placed as while the trip ran: a record read after its end says it arrived, which places no fix on the path.
  const running = trip.actualArrivalAt === null ? trip : { ...trip, actualArrivalAt: null };
  const points: { m: number; t: EpochMs }[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const pass = passOf(path, running, ordered.slice(Math.max(0, i + 1 - RECENT_FIXES_NEEDED), i + 1));
    if (pass && (points.length === 0 || pass.t > points[points.length - 1]!.t)) points.push(pass);
  }
  if (points.length < 2) return false;
  learner.add({ routeId: trip.routeId, direction: trip.direction, plannedDepartureAt: trip.plannedDepartureAt, plannedArrivalAt: trip.plannedArrivalAt, path, points });
  return true;
}

/** Days of recorded trips read at start. */
export const SEED_DAYS = 7;
/** At most this many recorded trips are read, the newest first. */
export const SEED_MAX_TRIPS = 50_000;
const PAGE = 500;
/** Between pages: the server's own work comes first. */
const PAUSE_MS = 50;
/** How long trips of routes whose stops are not loaded yet wait for them. */
const WAIT_FOR_STOPS_MS = 15 * 60_000;
const RETRY_MS = 15_000;

/** A recorded trip as the seed reads it (lib/history/pace-history.ts's RecordedRun). */
export interface SeedRun extends RunTrip {
  tripId: number;
  firstSeenAt: EpochMs;
  fixes: RecentFix[];
}

export interface SeedSource {
  /** A page of recorded trips first seen in [from, to), newest first, before the cursor. */
  read(q: { from: EpochMs; to: EpochMs; before: { firstSeenAt: EpochMs; tripId: number } | null; limit: number }): Promise<SeedRun[]>;
  /** The route stops the feed has loaded now, by route. */
  routeStops(): ReadonlyMap<number, readonly RouteStop[]>;
}

export interface SeedReport {
  /** Recorded trips read. */
  read: number;
  /** Trips the learner took (placed with two passes at least). */
  learnt: number;
  /** Trips not learnt: still running at start, too few fixes placed, no path on their route's stops, or their route's stops never loaded. */
  notLearnt: number;
  /** (route, direction, hour) profiles the learner holds after the seed. */
  profiles: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/**
 * Seeds `learner` with the trips recorded in the SEED_DAYS before `now` that had ended by then. `stopped()` ends it
 * early (the server closes); trips of routes whose stops are not loaded wait for them `waitForStopsMs`.
 */
export async function seedPaceProfiles(learner: PaceLearner, source: SeedSource, now: EpochMs, stopped: () => boolean = () => false, opts: { waitForStopsMs?: number } = {}): Promise<SeedReport> {
  const report: SeedReport = { read: 0, learnt: 0, notLearnt: 0, profiles: 0 };
  const waiting: SeedRun[] = [];
  const place = (run: SeedRun): 'learnt' | 'skipped' | 'wait' => {
    const stops = source.routeStops().get(run.routeId);
    if (!stops) return 'wait';
    const path = pathForTrip(stops, run.direction);
    if (!path.ok) return 'skipped';
    return learnRun(learner, run, path.path, run.fixes) ? 'learnt' : 'skipped';
  };
  const take = (run: SeedRun) => {
    const r = place(run);
    if (r === 'learnt') report.learnt++;
    else if (r === 'wait') waiting.push(run);
  };
  let before: { firstSeenAt: EpochMs; tripId: number } | null = null;
  while (report.read < SEED_MAX_TRIPS && !stopped()) {
    const page = await source.read({ from: now - SEED_DAYS * 86_400_000, to: now, before, limit: Math.min(PAGE, SEED_MAX_TRIPS - report.read) });
    if (page.length === 0) break;
    report.read += page.length;
    const last = page[page.length - 1]!;
    before = { firstSeenAt: last.firstSeenAt, tripId: last.tripId };
    // Only trips that ran their course before now: one still running is learnt live when it ends.
    for (const run of page) if (run.actualArrivalAt !== null || run.plannedArrivalAt < now) take(run);
    if (page.length < PAGE) break;
    await pause(PAUSE_MS);
  }
  const giveUpAt = Date.now() + (opts.waitForStopsMs ?? WAIT_FOR_STOPS_MS);
  while (waiting.length > 0 && !stopped() && Date.now() < giveUpAt) {
    await pause(RETRY_MS);
    const again = waiting.splice(0);
    for (const run of again) take(run);
  }
  report.notLearnt = report.read - report.learnt;
  report.profiles = learner.size;
  return report;
}
