// Pace profiles seeded from the recorder (pace-seed.ts) on a PGlite store: the trips of an earlier day with their
// fixes, read back by lib/history/pace-history.ts, give the profile of their route, direction and hour, and the
// predictor then spreads a new trip's time as they ran, not by distance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@/lib/history';
import { busFixes, trips } from '@/lib/history/schema';
import { recordedRuns } from '@/lib/history/pace-history';
import { fix, MIN, straightNorth, T0 } from '@/lib/testing/estimate-factories';
import { PaceLearner } from './pace-profile';
import { seedPaceProfiles } from './pace-seed';
import { predictTrip } from './predict';

const DAY = 86_400_000;
// Route 1: 11 stops 400 m apart northwards (4 km), planned 20 minutes.
const stops = straightNorth(11, 400);
/** The recorded runs: the first 2 km took 14 minutes, the last 2 km 6 (a slow avenue, then a fast one). */
const metresAt = (s: number) => (s <= 14 * 60 ? (2_000 * s) / (14 * 60) : 2_000 + (2_000 * (s - 14 * 60)) / (6 * 60));

let store: Store;

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: null });
  // Yesterday, three trips of route 1 outbound in the same hour as today's (17:00 UTC), each with a fix every 30 s;
  // and one of today, 10 minutes into its run (it has not ended).
  for (let k = 0; k < 4; k++) {
    const tripId = 900 + k;
    const busId = 40 + k;
    const today = k === 3;
    const dep = today ? T0 - 10 * MIN : T0 - DAY + k * 5 * MIN;
    await store.db.insert(trips).values({
      tripId,
      routeId: 1,
      direction: 'outbound',
      busId,
      plannedDepartureAt: dep,
      plannedArrivalAt: dep + 20 * MIN,
      actualDepartureAt: dep,
      actualArrivalAt: today ? null : dep + 20 * MIN,
      delayMinutes: 0,
      firstSeenAt: dep - 2 * MIN,
      lastSeenAt: today ? T0 : dep + 21 * MIN,
    });
    const fixes = Array.from({ length: today ? 19 : 40 }, (_, i) => {
      const s = 15 + i * 30;
      const f = fix(0, metresAt(s), dep + s * 1000);
      return { busId, fixAt: f.gpsAt!, gpsAt: f.gpsAt, fetchedAt: f.gpsAt! + 1_000, lat: f.lat!, lon: f.lon!, heading: 0, speedKmh: 20, accuracy: 5, tripId };
    });
    await store.db.insert(busFixes).values(fixes);
  }
});

afterAll(async () => {
  await store?.close();
});

describe('pace profiles seeded from the recorder', () => {
  it("learns yesterday's recorded pace of the route, direction and hour, and the predictor uses it", async () => {
    const learner = new PaceLearner((t) => new Date(t).getUTCHours());
    const report = await seedPaceProfiles(learner, { read: (q) => recordedRuns(store.db, q), routeStops: () => new Map([[1, stops]]) }, T0);
    // Today's trip is still running: it is learnt live when it ends, not from the store.
    expect(report).toMatchObject({ read: 4, learnt: 3, notLearnt: 1 });
    const profile = learner.profileFor(1, 'outbound', T0, stops.length);
    expect(profile).not.toBeNull();
    // Half the distance (stop 6) in about 70 % of the time (the flat plan: half).
    expect(profile![5]).toBeGreaterThan(0.6);

    // Today's 17:00 trip, its bus waiting at the first stop: stop 6 is predicted where the profile puts it.
    const waiting = { direction: 'outbound', plannedDepartureAt: T0, plannedArrivalAt: T0 + 20 * MIN, actualDepartureAt: null, actualArrivalAt: null, delayMinutes: null };
    const now = T0 - 2 * MIN;
    const input = { trip: waiting, routeStops: stops, fixes: [fix(0, 0, now - 5_000)], now, pace: { priorDrift: 0, ownWeight: 0 } };
    const seeded = predictTrip({ ...input, profile });
    const flat = predictTrip(input);
    if (!seeded.ok || !flat.ok) throw new Error('no prediction');
    const at2km = (p: typeof seeded) => p.stops.find((s) => s.stop.stopOrder === 6)!.arrivalAt;
    expect(at2km(seeded)).toBe(Math.round(T0 + profile![5]! * 20 * MIN));
    expect(at2km(seeded) - at2km(flat)).toBeGreaterThan(2 * MIN);
    expect(Math.abs(at2km(flat) - (T0 + 10 * MIN))).toBeLessThan(MIN);
  });

  it('waits for the stops of a route not loaded yet, and gives up when told', async () => {
    const learner = new PaceLearner((t) => new Date(t).getUTCHours());
    const unknown = await seedPaceProfiles(learner, { read: (q) => recordedRuns(store.db, q), routeStops: () => new Map() }, T0, () => false, { waitForStopsMs: 0 });
    expect(unknown).toMatchObject({ read: 4, learnt: 0, notLearnt: 4 });
    expect(learner.size).toBe(0);
  });
});
