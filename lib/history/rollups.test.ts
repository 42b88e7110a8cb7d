import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { delayFigures } from '@/lib/stats/delay-figures';
import { Batch } from './batch';
import { tripRow } from './recorder';
import { writeBatch } from './writes';
import { pruneHistory, DAY_MS } from './retention';
import { addDays } from '@/lib/time/calendar';
import { closeServiceDays, figuresOf, localDate, routeDaysOf, storedRouteDays } from './rollups';
import { buses, busFixes, recorderState, routeDays, tripDelayChanges, trips } from './schema';
import { trip } from '@/lib/testing/history-factories';
import { describeEachStore, type TestStore } from '@/lib/testing/store';

const NY = { kind: 'zone', zone: 'America/New_York' } as const;
const T = { lateMin: 5, earlyMin: 1 };

describe('service days', () => {
  it('cuts local dates on the agency clock', () => {
    // 03:30 UTC on 5 March is 22:30 on 4 March in New York.
    expect(localDate(Date.UTC(2026, 2, 5, 3, 30), NY)).toBe('2026-03-04');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('keeps a histogram whose figures equal those of the trips themselves, over several days too', () => {
    const day1 = [3, -2, 0, 7, null, 12].map((d, i) => ({ routeId: 1, routeCode: 'M1', routeName: 'One', serviceDate: '2026-03-04', plannedDepartureAt: Date.UTC(2026, 2, 4, 13 + (i % 2)), delayMinutes: d }));
    const day2 = [1, 1, 9].map((d) => ({ ...day1[0]!, serviceDate: '2026-03-05', delayMinutes: d }));
    const [r1] = routeDaysOf(day1, NY);
    const [r2] = routeDaysOf(day2, NY);
    expect(r1!.histogram).toEqual({ '3': 1, '-2': 1, '0': 1, '7': 1, '12': 1 });
    expect(r1!.unknown).toBe(1);
    // Planned at 13:00 and 14:00 UTC: 08 and 09 local (EST); the trip without a delay is in no hour.
    expect(r1!.hours).toEqual({ '8': [3 + 0, 2], '9': [-2 + 7 + 12, 3] });
    expect(figuresOf([r1!, r2!], T)).toEqual(delayFigures([...day1, ...day2], T));
  });

  it('reads the same figures off a merged histogram as off the trips, for many days of varied delays', () => {
    // A fixed pseudo-random sequence: integer and fractional delays, repeats, unknowns, even and odd counts.
    let x = 7;
    const next = () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
    const days = Array.from({ length: 30 }, (_, d) =>
      Array.from({ length: 50 + d }, (_, i) => ({
        routeId: 1,
        routeCode: 'M1',
        routeName: 'One',
        serviceDate: addDays('2026-02-01', d),
        plannedDepartureAt: Date.UTC(2026, 1, 1 + d, 12 + (i % 10)),
        delayMinutes: next() < 0.05 ? null : i % 7 === 0 ? Math.round(next() * 400) / 20 - 4 : Math.round(next() * 30) - 8,
      })),
    );
    const routeDays = days.map((facts) => routeDaysOf(facts, NY)[0]!);
    expect(figuresOf(routeDays, T)).toEqual(delayFigures(days.flat(), T));
    expect(figuresOf(routeDays.slice(3, 4), { lateMin: 3, earlyMin: 2 })).toEqual(delayFigures(days[3]!, { lateMin: 3, earlyMin: 2 }));
    expect(figuresOf([], T)).toEqual(delayFigures([], T));
  });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describeEachStore('closing service days and retention', (target) => {
  it('closes a day once it is over and no trip of it is open, and recomputes it when a late answer changes it', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const seen = Date.UTC(2026, 2, 4, 20);
    await store.db.insert(trips).values([
      tripRow(trip({ id: 1, routeId: 1, delayMinutes: 2 }), seen),
      tripRow(trip({ id: 2, routeId: 1, delayMinutes: 8 }), seen),
      tripRow(trip({ id: 3, routeId: 2, routeCode: 'M2', delayMinutes: -3 }), seen),
    ]);
    await store.db.insert(recorderState).values({ key: 'trips_walk_at', value: seen });
    // Late evening of the same day: not over.
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 5, 2), rule: NY, thresholds: T })).toEqual([]);
    // The next morning, but trip 1 was in the last walk and has no final answer: still open.
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 5, 14), rule: NY, thresholds: T })).toEqual([]);
    await store.db.update(trips).set({ finalAt: seen + 60_000, finalFound: true });
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 5, 14), rule: NY, thresholds: T })).toEqual(['2026-03-04']);
    const rows = await store.db.select().from(routeDays).orderBy(asc(routeDays.routeId));
    expect(rows.map((r) => [r.routeId, r.trips, r.onTime, r.late, r.early, r.meanMin, r.onTimeShare])).toEqual([
      [1, 2, 1, 1, 0, 5, 0.5],
      [2, 1, 0, 0, 1, -3, 0],
    ]);
    // Nothing changed: not written again.
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 5, 15), rule: NY, thresholds: T })).toEqual([]);
    // A final answer arrives late and changes trip 2's delay: the day is computed again.
    await store.db.update(trips).set({ delayMinutes: 4, finalAt: Date.UTC(2026, 2, 5, 15) }).where(eq(trips.tripId, 2));
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 5, 16), rule: NY, thresholds: T })).toEqual(['2026-03-04']);
    const [route1] = await storedRouteDays(store.db, '2026-03-04', '2026-03-04', [1]);
    expect(route1!.histogram).toEqual({ '2': 1, '4': 1 });
  });

  it('prunes positions and trips past their retention in batches, keeping the figures of their days', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const now = Date.UTC(2026, 2, 20, 12);
    const UNMEASURED = { heading: null, speedKmh: null, accuracy: null, tripId: null };
    const fixes = Array.from({ length: 4_500 }, (_, i) => ({ busId: 1 + (i % 9), fixAt: now - 20 * DAY_MS + i, gpsAt: now - 20 * DAY_MS + i, fetchedAt: now - 20 * DAY_MS + i, lat: 1, lon: 2, ...UNMEASURED }));
    fixes.push({ busId: 1, fixAt: now - DAY_MS, gpsAt: now - DAY_MS, fetchedAt: now - DAY_MS, lat: 1, lon: 2, ...UNMEASURED });
    // Written as the recorder writes them (the bus list, history_buses, comes with them).
    const batch = new Batch();
    for (const f of fixes) batch.addFix(f);
    await writeBatch(store.db, batch);
    await store.db.insert(trips).values([tripRow(trip({ id: 1, tripDate: '2026-03-04' }), now - 16 * DAY_MS), tripRow(trip({ id: 2, tripDate: '2026-03-19' }), now - DAY_MS)]);
    await store.db.insert(tripDelayChanges).values([
      { tripId: 1, at: now - 16 * DAY_MS, delayMinutes: 1 },
      { tripId: 2, at: now - DAY_MS, delayMinutes: 1 },
    ]);
    // Trip 1 is past a 10-day trip retention, but its day has no figures yet: it stays until the day is closed.
    expect(await pruneHistory(store.db, { now, positionsDays: 14, tripsDays: 10, pauseMs: 0 })).toEqual({ fixes: 4_500, trips: 0, other: 0 });
    await closeServiceDays(store.db, { now, rule: NY, thresholds: T, backfill: true });
    expect(await pruneHistory(store.db, { now, positionsDays: 14, tripsDays: 10, pauseMs: 0 })).toEqual({ fixes: 0, trips: 1, other: 0 });
    expect(await store.db.select({ id: trips.tripId }).from(trips)).toEqual([{ id: 2 }]);
    expect(await store.db.select({ id: tripDelayChanges.tripId }).from(tripDelayChanges)).toEqual([{ id: 2 }]);
    expect(await store.db.select({ d: routeDays.serviceDate }).from(routeDays).orderBy(asc(routeDays.serviceDate))).toEqual([{ d: '2026-03-04' }, { d: '2026-03-19' }]);
    expect(await store.db.select({ busId: busFixes.busId }).from(busFixes)).toEqual([{ busId: 1 }]);
    // The bus list follows the fixes: the buses with none kept leave it, and what is kept starts at the cut.
    expect(await store.db.select().from(buses)).toEqual([{ busId: 1, firstFetchedAt: now - 14 * DAY_MS, lastFetchedAt: now - DAY_MS }]);
  });
});
