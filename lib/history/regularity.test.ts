import { afterEach, expect, it } from 'vitest';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet';
import { DEFAULT_REGULARITY, type Trip } from '@/lib/model';
import { trip } from '@/lib/testing/history-factories';
import { at } from '@/lib/testing/estimate-factories';
import { ROUTE, STOPS } from '@/lib/testing/regularity-factories';
import { describeEachStore, type TestStore } from '@/lib/testing/store';
import { routesOverPeriod } from './queries';
import { Recorder } from './recorder';
import { asc, sql } from 'drizzle-orm';
import { CONTEXT_MS, deriveRegularityDays, SETTLE_MS, type OpenDays } from './regularity';
import { regularityHours } from './schema';
import { closeServiceDays } from './rollups';

const NY = { kind: 'zone', zone: 'America/New_York' } as const;
const T = { lateMin: 5, earlyMin: 1 };
const MIN = 60_000;
const STOPS_BY_ROUTE = new Map([[ROUTE, STOPS]]);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describeEachStore('headways over days', (target) => {
  /**
   * Route 10's outbound trips on `date`, planned every 10 minutes from t0 (10 minutes for the 2 km), run from t0 + the
   * given minutes at 200 m a minute, each bus sending a fix a minute; recorded through the recorder.
   */
  async function record(store: TestStore, date: string, t0: number, departMin: readonly number[]) {
    const events = new TypedEmitter<FeedEvents>();
    const recorder = new Recorder({ store: async () => store, flushIntervalMs: 3_600_000, log: () => {} });
    recorder.attach(events);
    const trips = departMin.map((d, i): Trip => {
      const dep = t0 + d * MIN;
      return trip({ id: Date.parse(`${date}T00:00:00Z`) / 1000 + i, routeId: ROUTE, routeCode: 'M10', busId: 20 + i, tripDate: date, plannedDepartureAt: t0 + i * 10 * MIN, plannedArrivalAt: t0 + (i * 10 + 10) * MIN, actualDepartureAt: dep, delayMinutes: d - i * 10 });
    });
    const end = t0 + (Math.max(...departMin) + 11) * MIN;
    for (let t = t0; t <= end; t += MIN) {
      const running = trips.filter((x) => x.actualDepartureAt! <= t && t < x.actualDepartureAt! + 10 * MIN);
      events.emit('trips', { fetchedAt: t, trips: running });
      for (const x of running) {
        const [lon, lat] = at(0, ((t - x.actualDepartureAt!) / MIN) * 200);
        events.emit('fix', { busId: x.busId!, gpsAt: t, fetchedAt: t + 1_000, lat, lon, heading: 0, speedKmh: 12, accuracy: 5, tripId: x.id });
      }
      for (const x of trips.filter((y) => y.actualDepartureAt! + 10 * MIN === t)) {
        events.emit('trip-final', { fetchedAt: t, tripId: x.id, trip: { ...x, actualArrivalAt: t, status: 'completed' } });
      }
    }
    await recorder.flush();
    await recorder.close();
  }

  it('derives a closed day once, reads its figures back, and says "not derived" for a day recorded before', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    // 20 February: recorded and closed before the derivation existed.
    await record(store, '2026-02-20', Date.UTC(2026, 1, 20, 13), [0, 10, 20]);
    await closeServiceDays(store.db, { now: Date.UTC(2026, 1, 22, 12), rule: NY, thresholds: T });
    // 4 March, 08:00 New York: the buses run at 0, 12 and 20 minutes, 12 and 8 minutes apart at every stop.
    await record(store, '2026-03-04', Date.UTC(2026, 2, 4, 13), [0, 12, 20]);
    const opts = { rule: NY, config: DEFAULT_REGULARITY, stopsByRoute: STOPS_BY_ROUTE };

    // While the day runs: derived so far (today), on the caller's cadence.
    expect(await deriveRegularityDays(store.db, { ...opts, now: Date.UTC(2026, 2, 4, 20), open: true })).toEqual({ closed: [], open: ['2026-03-04'] });
    const q = { from: '2026-03-04', to: '2026-03-04', routeIds: null, thresholds: T, rule: NY };
    const soFar = await routesOverPeriod(store.db, { ...q, now: Date.UTC(2026, 2, 4, 20) });

    // Closed: derived once after it ends, then not again.
    expect(await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, thresholds: T })).toEqual(['2026-03-04']);
    expect(await deriveRegularityDays(store.db, { ...opts, now: Date.UTC(2026, 2, 6, 12), open: false })).toEqual({ closed: ['2026-03-04'], open: [] });
    expect(await deriveRegularityDays(store.db, { ...opts, now: Date.UTC(2026, 2, 6, 12, 5), open: false })).toEqual({ closed: [], open: [] });

    const day = await routesOverPeriod(store.db, { ...q, now: Date.UTC(2026, 2, 6, 12) });
    const [route] = day.routes;
    // AWT = (720² + 480²) / (2 · 1,200) = 312 s, SWT = 300 s: EWT 12 s; 2 samples at each of the 9 stops.
    expect(route!.regularity).toMatchObject({ derivation: 'derived', daysNotDerived: 0, samples: 18, bunchedShare: 0, gappedShare: 0, ghostTripMinutes: 0 });
    expect(route!.regularity.ewtS).toBeCloseTo(12, 0);
    expect(route!.regularity.awtS).toBeCloseTo(312, 0);
    expect(route!.regularity.cvH).toBeCloseTo(0.2, 2);
    expect(route!.directions.map((d) => [d.direction, d.regularity.samples])).toEqual([['outbound', 18]]);
    expect(day.days.map((d) => [d.date, d.regularity.derivation, Math.round(d.regularity.ewtS!)])).toEqual([['2026-03-04', 'derived', 12]]);
    // The waits end 08:12–08:30 local: hour 8.
    expect(day.regularityHours.map((h) => [h.hour, h.samples, Math.round(h.ewtS!)])).toEqual([[8, 18, 12]]);
    // For one route, from its own rows: the same.
    const one = await routesOverPeriod(store.db, { ...q, routeIds: [ROUTE], now: Date.UTC(2026, 2, 6, 12) });
    expect([one.routes[0]!.regularity, one.days[0]!.regularity, one.regularityHours]).toEqual([route!.regularity, day.days[0]!.regularity, day.regularityHours]);
    expect((await routesOverPeriod(store.db, { ...q, routeIds: [99], now: Date.UTC(2026, 2, 6, 12) })).regularityHours).toEqual([]);
    // The day so far gave the same (every trip had ended).
    expect(soFar.routes[0]!.regularity).toEqual(route!.regularity);

    // The old day: not derived, never zero; a period over both says so.
    const old = await routesOverPeriod(store.db, { ...q, from: '2026-02-20', to: '2026-02-20', now: Date.UTC(2026, 2, 6, 12) });
    expect(old.routes[0]!.activeTrips).toBe(3);
    expect(old.routes[0]!.regularity).toEqual({ derivation: 'not-derived', daysNotDerived: 1, samples: null, cvH: null, awtS: null, swtS: null, ewtS: null, bunchedShare: null, gappedShare: null, ghostTripMinutes: null });
    expect(old.days[0]!.regularity.derivation).toBe('not-derived');
    expect(old.regularityHours).toEqual([]);
    const both = await routesOverPeriod(store.db, { ...q, from: '2026-02-20', now: Date.UTC(2026, 2, 6, 12) });
    expect(both.routes[0]!.regularity).toMatchObject({ derivation: 'partial', daysNotDerived: 1, samples: 18 });
    expect(both.days.map((d) => d.regularity.derivation)).toEqual(['not-derived', 'derived']);
  });

  it('passes a bus that sent no fix by the delay changes the recorder kept: a hold mid-trip lands where its delay rose', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const date = '2026-03-04';
    const t0 = Date.UTC(2026, 2, 4, 13);
    const events = new TypedEmitter<FeedEvents>();
    const recorder = new Recorder({ store: async () => store, flushIntervalMs: 3_600_000, log: () => {} });
    recorder.attach(events);
    // Planned every 10 minutes, all leave on time. The second bus sends no fix: it reaches the 1,000 m stop on time
    // (5 minutes in), is held there 4 minutes and runs on (arriving 14 minutes after leaving, 4 late).
    const trips = [0, 1, 2].map((i): Trip => trip({ id: t0 / 1000 + i, routeId: ROUTE, routeCode: 'M10', busId: 20 + i, tripDate: date, plannedDepartureAt: t0 + i * 10 * MIN, plannedArrivalAt: t0 + (i * 10 + 10) * MIN, actualDepartureAt: t0 + i * 10 * MIN, delayMinutes: 0 }));
    const runMin = (i: number) => (i === 1 ? 14 : 10);
    /** The held trip's delay as the feed rounds it, `e` minutes after it left: 0, then rising a minute a minute. */
    const delayOf = (i: number, e: number) => (i === 1 ? Math.round(Math.min(4, Math.max(0, e - 5))) : 0);
    for (let t = t0; t <= t0 + 35 * MIN; t += MIN / 4) {
      const running = trips.filter((x, i) => x.actualDepartureAt! <= t && t < x.actualDepartureAt! + runMin(i) * MIN);
      events.emit('trips', { fetchedAt: t, trips: running.map((x) => ({ ...x, delayMinutes: delayOf(trips.indexOf(x), (t - x.actualDepartureAt!) / MIN) })) });
      for (const x of running.filter((y) => y.busId !== 21 && (t - y.actualDepartureAt!) % MIN === 0)) {
        const [lon, lat] = at(0, ((t - x.actualDepartureAt!) / MIN) * 200);
        events.emit('fix', { busId: x.busId!, gpsAt: t, fetchedAt: t + 1_000, lat, lon, heading: 0, speedKmh: 12, accuracy: 5, tripId: x.id });
      }
      trips.forEach((x, i) => {
        const arrival = x.actualDepartureAt! + runMin(i) * MIN;
        if (arrival === t) events.emit('trip-final', { fetchedAt: t, tripId: x.id, trip: { ...x, actualArrivalAt: t, delayMinutes: runMin(i) - 10, status: 'completed' } });
      });
    }
    await recorder.flush();
    await recorder.close();
    await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, thresholds: T });
    await deriveRegularityDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, config: DEFAULT_REGULARITY, stopsByRoute: STOPS_BY_ROUTE, open: false });
    const day = await routesOverPeriod(store.db, { from: date, to: date, routeIds: null, thresholds: T, rule: NY, now: Date.UTC(2026, 2, 6, 12) });
    // True headways: 10 and 10 minutes at the first 5 stops, 14 and 6 at the last 4: AWT = (5 · 2 · 600² + 4 · (840² +
    // 360²)) / (2 · 9 · 1,200) = 321.3 s, EWT 21.3 s. The hold spread over the trip (its departure and arrival alone)
    // gives 17.0 s; the delay, rounded to the minute, places each stop within half a minute: closer than half-way.
    expect(day.routes[0]!.regularity.samples).toBe(18);
    expect(Math.abs(day.routes[0]!.regularity.ewtS! - 21.3)).toBeLessThan((21.3 - 17.0) / 2);
  });

  it('derives a running day from where it last settled, as the whole day gives, keeping what it settled', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    const date = '2026-03-04';
    const t0 = Date.UTC(2026, 2, 4, 13);
    const opts = { rule: NY, config: DEFAULT_REGULARITY, stopsByRoute: STOPS_BY_ROUTE };
    const events = new TypedEmitter<FeedEvents>();
    const recorder = new Recorder({ store: async () => store, flushIntervalMs: 3_600_000, log: () => {} });
    recorder.attach(events);
    // Three hours of route 10's outbound trips, planned every 10 minutes, each leaving up to 8 minutes late (so that
    // some bunch and some gap) and running 10 minutes; bus 27 never sends a fix (a ghost, passed by the profile).
    const trips = Array.from({ length: 18 }, (_, i): Trip => {
      const late = [0, 6, 1, 8, 0, 2, 7, 1, 0, 3, 8, 0, 4, 1, 6, 0, 2, 1][i]!;
      return trip({ id: t0 / 1000 + i, routeId: ROUTE, routeCode: 'M10', busId: 20 + i, tripDate: date, plannedDepartureAt: t0 + i * 10 * MIN, plannedArrivalAt: t0 + (i * 10 + 10) * MIN, actualDepartureAt: t0 + (i * 10 + late) * MIN, delayMinutes: late });
    });
    const openDays: OpenDays = new Map();
    const stored = () => store.db.select().from(regularityHours).where(sql`${regularityHours.serviceDate} = ${date}`).orderBy(asc(regularityHours.routeId), asc(regularityHours.direction), asc(regularityHours.hour));
    const end = t0 + 3 * 60 * MIN + 20 * MIN;
    // The day as it runs: a minute at a time, and a derivation every 5 minutes, as the history service does.
    for (let t = t0; t <= end; t += MIN) {
      const running = trips.filter((x) => x.actualDepartureAt! <= t && t < x.actualDepartureAt! + 10 * MIN);
      events.emit('trips', { fetchedAt: t, trips: running });
      for (const x of running.filter((y) => y.busId !== 27)) {
        const [lon, lat] = at(0, ((t - x.actualDepartureAt!) / MIN) * 200);
        events.emit('fix', { busId: x.busId!, gpsAt: t, fetchedAt: t + 1_000, lat, lon, heading: 0, speedKmh: 12, accuracy: 5, tripId: x.id });
      }
      for (const x of trips.filter((y) => y.actualDepartureAt! + 10 * MIN === t)) {
        events.emit('trip-final', { fetchedAt: t, tripId: x.id, trip: { ...x, actualArrivalAt: t, status: 'completed' } });
      }
      if ((t - t0) % (5 * MIN) === 0) {
        await recorder.flush();
        expect(await deriveRegularityDays(store.db, { ...opts, now: t, open: true, openDays })).toEqual({ closed: [], open: [date] });
      }
    }
    await recorder.flush();
    await recorder.close();
    expect(openDays.get(date)!.until).toBe(end - SETTLE_MS);
    const windowed = await stored();
    // The same instant, derived whole (no state): the same rows.
    await deriveRegularityDays(store.db, { ...opts, now: end, open: true, openDays: new Map() });
    const whole = await stored();
    const close = (rows: typeof whole) => rows.map((r) => ({ ...r, sumH: Math.round(r.sumH * 1e3), sumH2: Math.round(r.sumH2 / 1e3), sumSched: Math.round(r.sumSched), sumSched2: Math.round(r.sumSched2), ghostMinutes: Math.round(r.ghostMinutes * 1e3) }));
    expect(close(windowed)).toEqual(close(whole));
    const total = whole.find((r) => r.routeId === ROUTE && r.hour === -1)!;
    expect(total.samples).toBeGreaterThan(100);
    expect(total.bunched + total.gapped).toBeGreaterThan(0);
    expect(total.ghostMinutes).toBeGreaterThan(0);

    // What was settled stays counted, and only the trips active since CONTEXT_MS before where the last derivation
    // settled are derived again: with every earlier trip's fixes gone, the next derivation still gives the day's
    // rows, where the whole day derived again from the store would now differ (those trips become ghosts).
    const since = openDays.get(date)!.until - CONTEXT_MS;
    const gone = trips.filter((x) => x.actualDepartureAt! + 10 * MIN < since - MIN);
    expect(gone.length).toBeGreaterThan(3);
    await store.db.execute(sql`DELETE FROM history_bus_fixes WHERE trip_id IN (${sql.join(gone.map((x) => sql`${x.id}`), sql`, `)})`);
    await deriveRegularityDays(store.db, { ...opts, now: end, open: true, openDays });
    expect(close(await stored())).toEqual(close(whole));
    await deriveRegularityDays(store.db, { ...opts, now: end, open: true, openDays: new Map() });
    expect(close(await stored())).not.toEqual(close(whole));
  });

  it('derives nothing before the network is known', async () => {
    const store: TestStore = await target.open();
    cleanups.push(() => store.dispose());
    await record(store, '2026-03-04', Date.UTC(2026, 2, 4, 13), [0, 12, 20]);
    await closeServiceDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, thresholds: T });
    expect(await deriveRegularityDays(store.db, { now: Date.UTC(2026, 2, 6, 12), rule: NY, config: DEFAULT_REGULARITY, stopsByRoute: new Map(), open: true })).toEqual({ closed: [], open: [] });
  });
});
