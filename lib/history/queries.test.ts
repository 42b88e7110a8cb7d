import { afterEach, expect, it } from 'vitest';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet';
import { budgetPerMinute, busTrack, fleetAt, lastOnTrip, recordedTrip, routesOverPeriod } from './queries';
import { Recorder } from './recorder';
import { closeServiceDays } from './rollups';
import { trip } from '@/lib/testing/history-factories';
import { describeEachStore, type TestStore } from '@/lib/testing/store';

const NY = { kind: 'zone', zone: 'America/New_York' } as const;
const T = { lateMin: 5, earlyMin: 1 };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describeEachStore('the history reads', (target) => {
  /** Two buses on 4 March: bus 7 runs trip 1 (M15) from 08:00 to 09:00 local, bus 8 trip 2 (M101); recorded through the recorder. */
  async function recorded() {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const events = new TypedEmitter<FeedEvents>();
    const recorder = new Recorder({ store: async () => store, flushIntervalMs: 3_600_000, log: () => {} });
    recorder.attach(events);
    cleanups.push(() => recorder.close());
    const t0 = Date.UTC(2026, 2, 4, 13); // 08:00 in New York
    for (let m = 0; m <= 60; m += 15) {
      const at = t0 + m * 60_000;
      const delay1 = m < 30 ? 2 : 7;
      events.emit('trips', {
        fetchedAt: at,
        trips: m < 60 ? [trip({ id: 1, busId: 7, delayMinutes: delay1, plannedDepartureAt: t0 }), trip({ id: 2, busId: 8, routeId: 101, routeCode: 'M101', delayMinutes: -2, plannedDepartureAt: t0 })] : [],
      });
      events.emit('fix', { busId: 7, gpsAt: at - 5_000, fetchedAt: at, lat: 40.7 + m / 1000, lon: -73.9, heading: 0, speedKmh: 20, accuracy: 5, tripId: m < 60 ? 1 : null });
      events.emit('fix', { busId: 8, gpsAt: at - 9_000, fetchedAt: at + 1_000, lat: 40.8, lon: -73.95 + m / 1000, heading: 90, speedKmh: 15, accuracy: 5, tripId: m < 60 ? 2 : null });
      events.emit('request', { at, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    }
    events.emit('trip-final', { fetchedAt: t0 + 61 * 60_000, tripId: 1, trip: trip({ id: 1, busId: 7, delayMinutes: 6, status: 'completed', plannedDepartureAt: t0 }) });
    await recorder.flush();
    return { store, t0 };
  }

  it('answers a trip with its changes and trail, a bus track, and the fleet at a moment with the delay it had then', async () => {
    const { store, t0 } = await recorded();
    const t = await recordedTrip(store.db, 1);
    expect(t!.delayChanges).toEqual([
      { at: t0, delayMinutes: 2 },
      { at: t0 + 30 * 60_000, delayMinutes: 7 },
      { at: t0 + 61 * 60_000, delayMinutes: 6 },
    ]);
    expect(t!.statusChanges.map((s) => s.status)).toEqual(['started', 'completed']);
    expect(t!.trail.map((f) => f.fetchedAt)).toEqual([0, 15, 30, 45].map((m) => t0 + m * 60_000));
    expect(await recordedTrip(store.db, 99)).toBeNull();

    const track = await busTrack(store.db, 8, t0 + 10 * 60_000, t0 + 40 * 60_000);
    expect(track.fixes.map((f) => f.fetchedAt)).toEqual([t0 + 15 * 60_000 + 1_000, t0 + 30 * 60_000 + 1_000]);

    const moment = await fleetAt(store.db, t0 + 20 * 60_000);
    expect(moment.vehicles.map((v) => [v.busId, v.fetchedAt, v.trip?.tripId, v.trip?.delayMinutes])).toEqual([
      [7, t0 + 15 * 60_000, 1, 2],
      [8, t0 + 15 * 60_000 + 1_000, 2, -2],
    ]);
    expect((await fleetAt(store.db, t0 + 20 * 60_000, [101])).vehicles.map((v) => v.busId)).toEqual([8]);
    expect(moment.recorded).toEqual({ from: t0, to: t0 + 60 * 60_000 + 1_000 });
    // Before the first fix: no bus, and when the recording begins (what the replay offers instead).
    expect(await fleetAt(store.db, t0 - 1)).toEqual({ at: t0 - 1, vehicles: [], recorded: { from: t0, to: t0 + 60 * 60_000 + 1_000 } });

    expect(await lastOnTrip(store.db, [7, 8, 9])).toEqual(
      new Map([
        [7, { tripId: 1, routeCode: 'M15', lastSeenAt: t0 + 45 * 60_000 }],
        [8, { tripId: 2, routeCode: 'M101', lastSeenAt: t0 + 45 * 60_000 }],
      ]),
    );
    expect((await budgetPerMinute(store.db, t0, t0 + 31 * 60_000)).map((b) => [b.minute, b.requests])).toEqual([
      [t0, 1],
      [t0 + 15 * 60_000, 1],
      [t0 + 30 * 60_000, 1],
    ]);
  });

  it('gives the same period figures before and after the day closes', async () => {
    const { store } = await recorded();
    const q = { from: '2026-03-04', to: '2026-03-04', routeIds: null, thresholds: T, rule: NY };
    const open = await routesOverPeriod(store.db, { ...q, now: Date.UTC(2026, 2, 4, 20) });
    expect(open.routes.map((r) => [r.routeCode, r.activeTrips, r.late, r.early, r.worstMin])).toEqual([
      ['M15', 1, 1, 0, 6],
      ['M101', 1, 0, 1, -2],
    ]);
    expect(open.hours).toEqual([{ hour: 8, meanMin: 2, trips: 2 }]);
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, thresholds: T })).toEqual(['2026-03-04']);
    const closed = await routesOverPeriod(store.db, { ...q, now: Date.UTC(2026, 2, 6, 12) });
    expect({ ...closed, today: open.today }).toEqual(open);
    // Other thresholds apply to closed days too: the histogram keeps every delay.
    const strict = await routesOverPeriod(store.db, { ...q, thresholds: { lateMin: 7, earlyMin: 3 }, now: Date.UTC(2026, 2, 6, 12) });
    expect(strict.routes.map((r) => [r.routeCode, r.late, r.onTime, r.early])).toEqual([
      ['M15', 0, 1, 0],
      ['M101', 0, 1, 0],
    ]);
  });
});
