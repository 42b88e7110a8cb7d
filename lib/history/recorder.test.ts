import { asc } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet';
import { Recorder } from './recorder';
import { budgetMinutes, busFixes, healthTransitions, recorderGaps, recorderState, tripDelayChanges, trips, tripStatusChanges } from './schema';
import type { Store } from './store';
import { trip } from '@/lib/testing/history-factories';
import { describeEachStore, type TestStore } from '@/lib/testing/store';

const fix = (busId: number, gpsAt: number, fetchedAt: number) => ({ busId, gpsAt, fetchedAt, lat: 40.7, lon: -73.9, heading: 10, speedKmh: 20, accuracy: 4, tripId: 11 });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A store whose writes fail while `broken` says so, as a full disk or a stopped server would make them. */
function breakable(store: Store, broken: () => string | null): Store {
  const db = new Proxy(store.db, {
    get(target, prop, receiver) {
      const reason = broken();
      if (reason && (prop === 'transaction' || prop === 'insert')) return () => Promise.reject(new Error(reason));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { ...store, db };
}

describeEachStore('the recorder', (target) => {
  async function setup(over: Partial<ConstructorParameters<typeof Recorder>[0]> = {}) {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const events = new TypedEmitter<FeedEvents>();
    const logs: Record<string, unknown>[] = [];
    let now = Date.UTC(2026, 2, 4, 13, 0);
    const recorder = new Recorder({ store: async () => store, now: () => now, flushIntervalMs: 3_600_000, log: (l) => logs.push(l), timeRule: () => ({ kind: 'zone', zone: 'America/New_York' }), ...over });
    recorder.attach(events);
    cleanups.push(() => recorder.close());
    return { store, events, recorder, logs, setNow: (t: number) => (now = t) };
  }

  it('stores each fix once per bus and GPS time', async () => {
    const { store, events, recorder } = await setup();
    events.emit('fix', fix(7, 1_000, 1_500));
    events.emit('fix', fix(7, 1_000, 2_500));
    events.emit('fix', fix(8, 1_000, 1_600));
    await recorder.flush();
    events.emit('fix', fix(7, 1_000, 3_500));
    events.emit('fix', fix(7, 2_000, 3_600));
    await recorder.flush();
    const got = await store.db.select({ busId: busFixes.busId, gpsAt: busFixes.gpsAt }).from(busFixes).orderBy(asc(busFixes.busId), asc(busFixes.fixAt));
    expect(got).toEqual([
      { busId: 7, gpsAt: 1_000 },
      { busId: 7, gpsAt: 2_000 },
      { busId: 8, gpsAt: 1_000 },
    ]);
  });

  it('records a trip, its status changes and its delay only when it changes, and how it ended', async () => {
    const { store, events, recorder } = await setup();
    events.emit('trips', { fetchedAt: 10_000, trips: [trip({ id: 2_500_000_001, delayMinutes: 1 })] });
    events.emit('trips', { fetchedAt: 25_000, trips: [trip({ id: 2_500_000_001, delayMinutes: 1 })] });
    await recorder.flush();
    events.emit('trips', { fetchedAt: 40_000, trips: [trip({ id: 2_500_000_001, delayMinutes: 6, status: 'delayed' })] });
    events.emit('trips', { fetchedAt: 55_000, trips: [trip({ id: 2_500_000_001, delayMinutes: 6, status: 'delayed' })] });
    await recorder.flush();
    events.emit('trips', { fetchedAt: 70_000, trips: [] });
    events.emit('trip-final', { fetchedAt: 80_000, tripId: 2_500_000_001, trip: trip({ id: 2_500_000_001, delayMinutes: 4, status: 'completed', actualArrivalAt: 4_200_000 }) });
    await recorder.flush();

    const [row] = await store.db.select().from(trips);
    expect(row).toMatchObject({ tripId: 2_500_000_001, routeCode: 'M15', serviceDate: '2026-03-04', firstSeenAt: 10_000, lastSeenAt: 55_000, status: 'completed', delayMinutes: 4, actualArrivalAt: 4_200_000, finalAt: 80_000, finalFound: true });
    const statuses = await store.db.select({ at: tripStatusChanges.at, status: tripStatusChanges.status }).from(tripStatusChanges).orderBy(asc(tripStatusChanges.at));
    expect(statuses).toEqual([
      { at: 10_000, status: 'started' },
      { at: 40_000, status: 'delayed' },
      { at: 80_000, status: 'completed' },
    ]);
    const delays = await store.db.select({ at: tripDelayChanges.at, d: tripDelayChanges.delayMinutes }).from(tripDelayChanges).orderBy(asc(tripDelayChanges.at));
    expect(delays).toEqual([
      { at: 10_000, d: 1 },
      { at: 40_000, d: 6 },
      { at: 80_000, d: 4 },
    ]);
    expect(await store.db.select().from(recorderState)).toEqual([{ key: 'trips_walk_at', value: 70_000 }]);
  });

  it('forgets a final answer when the trip is listed again (the lookup came while it still ran)', async () => {
    const { store, events, recorder } = await setup();
    events.emit('trips', { fetchedAt: 10_000, trips: [trip({ id: 5, delayMinutes: 2 })] });
    events.emit('trip-final', { fetchedAt: 20_000, tripId: 5, trip: trip({ id: 5, delayMinutes: 2 }) });
    await recorder.flush();
    expect((await store.db.select().from(trips))[0]).toMatchObject({ finalAt: 20_000, finalFound: true });
    events.emit('trips', { fetchedAt: 30_000, trips: [trip({ id: 5, delayMinutes: 3 })] });
    await recorder.flush();
    expect((await store.db.select().from(trips))[0]).toMatchObject({ delayMinutes: 3, lastSeenAt: 30_000, finalAt: null, finalFound: null });
  });

  it('marks a trip the final lookup did not find, keeping what it last showed', async () => {
    const { store, events, recorder } = await setup();
    events.emit('trips', { fetchedAt: 10_000, trips: [trip({ id: 5, delayMinutes: 2 })] });
    events.emit('trip-final', { fetchedAt: 20_000, tripId: 5, trip: null });
    await recorder.flush();
    const [row] = await store.db.select().from(trips);
    expect(row).toMatchObject({ tripId: 5, delayMinutes: 2, status: 'started', finalAt: 20_000, finalFound: false });
  });

  it('counts requests per minute by kind and lane, and keeps health transitions', async () => {
    const { store, events, recorder } = await setup();
    const m = Date.UTC(2026, 2, 4, 13, 0);
    events.emit('request', { at: m + 1_000, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    events.emit('request', { at: m + 2_000, kind: 'busLocation', lane: 'poll', status: 500, ok: false });
    events.emit('request', { at: m + 3_000, kind: 'trip', lane: 'demand', status: 200, ok: true });
    await recorder.flush();
    events.emit('request', { at: m + 59_000, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    events.emit('request', { at: m + 61_000, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    events.emit('health', { at: m + 5_000, from: 'starting', to: 'ok', message: 'Live data is flowing.' });
    await recorder.flush();
    const budget = await store.db.select().from(budgetMinutes).orderBy(asc(budgetMinutes.minute), asc(budgetMinutes.kind));
    expect(budget).toEqual([
      { minute: m, kind: 'busLocation', lane: 'poll', requests: 3, failures: 1 },
      { minute: m, kind: 'trip', lane: 'demand', requests: 1, failures: 0 },
      { minute: m + 60_000, kind: 'busLocation', lane: 'poll', requests: 1, failures: 0 },
    ]);
    expect(await store.db.select({ at: healthTransitions.at, to: healthTransitions.toState }).from(healthTransitions)).toEqual([{ at: m + 5_000, to: 'ok' }]);
  });

  it('keeps rows while the store fails, says so in the health, drops beyond the bound, and resumes with the gap recorded', async () => {
    let broken: string | null = null;
    const { store, events, recorder, logs, setNow } = await setup({ maxBufferRows: 5 });
    const flaky = breakable(store, () => broken);
    // The recorder writes through the breakable view of the same store.
    (recorder as unknown as { store: Store }).store = flaky;
    events.emit('fix', fix(1, 1_000, 1_100));
    await recorder.flush();
    broken = 'disk full';
    setNow(Date.UTC(2026, 2, 4, 13, 7));
    events.emit('fix', fix(1, 2_000, 2_100));
    events.emit('fix', fix(2, 2_000, 2_100));
    await recorder.flush();
    expect(recorder.healthNote()).toBe('history: not recording since 08:07 (disk full)');
    for (let i = 0; i < 6; i++) events.emit('fix', fix(3, 3_000 + i, 3_100 + i));
    expect(recorder.stats.droppedRows).toBe(3);
    expect(recorder.stats.pendingRows).toBe(5);
    expect(logs.map((l) => l.msg)).toEqual(['history not recording', 'history buffer full: rows dropped']);
    broken = null;
    setNow(Date.UTC(2026, 2, 4, 13, 9));
    await recorder.flush();
    expect(recorder.healthNote()).toBeNull();
    const stored = await store.db.select({ busId: busFixes.busId, gpsAt: busFixes.gpsAt }).from(busFixes).orderBy(asc(busFixes.busId), asc(busFixes.fixAt));
    expect(stored).toEqual([
      { busId: 1, gpsAt: 1_000 },
      { busId: 1, gpsAt: 2_000 },
      { busId: 2, gpsAt: 2_000 },
      { busId: 3, gpsAt: 3_000 },
      { busId: 3, gpsAt: 3_001 },
      { busId: 3, gpsAt: 3_002 },
    ]);
    expect(await store.db.select({ fromAt: recorderGaps.fromAt, toAt: recorderGaps.toAt, dropped: recorderGaps.droppedRows, reason: recorderGaps.reason }).from(recorderGaps)).toEqual([
      { fromAt: Date.UTC(2026, 2, 4, 13, 7), toAt: Date.UTC(2026, 2, 4, 13, 9), dropped: 3, reason: 'disk full' },
    ]);
  });

  it('writes what is pending on close', async () => {
    const { store, events, recorder } = await setup();
    events.emit('fix', fix(9, 1_000, 1_100));
    await recorder.close();
    expect(await store.db.select({ busId: busFixes.busId }).from(busFixes)).toEqual([{ busId: 9 }]);
  });
});
