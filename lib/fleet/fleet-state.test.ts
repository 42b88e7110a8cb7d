import { describe, expect, it } from 'vitest';
import { fakeBus, fakeTrip } from '@/lib/testing/fake-upstream';
import { FleetState } from './fleet-state';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';
import { FeedTimezone } from './timezone';

const NOW = Date.UTC(2026, 0, 15, 12);

describe('FleetState', () => {
  it('takes a trips walk as one trip per id, sorted, each bus running the trip it started last', () => {
    const state = new FleetState(new FeedTimezone('UTC'));
    const early = fakeTrip(7, { busId: 1, start: NOW - 50 * MINUTE });
    const late = fakeTrip(3, { busId: 1, start: NOW - 5 * MINUTE });
    state.applyTrips([early, late, fakeTrip(5, { busId: 2, start: NOW - MINUTE }), { ...early, delayMinutes: 4 }], NOW);
    expect(state.trips.map((t) => t.id)).toEqual([3, 5, 7]);
    // A page that shifted during the walk repeated trip 7: the later copy stands.
    expect(state.trips.find((t) => t.id === 7)!.delayMinutes).toBe(4);
    expect(state.tripByBus.get(1)!.id).toBe(3);
    expect([...state.tracks.values()].map((t) => [t.busId, t.onTrip, t.plateNumber])).toEqual([
      [1, true, 'P-3'],
      [2, true, 'P-5'],
    ]);
    state.applyTrips([fakeTrip(5, { busId: 2, start: NOW - MINUTE })], NOW + 15_000);
    expect(state.tracks.get(1)!.onTrip).toBe(false);
    expect(state.tripsFetchedAt).toBe(NOW + 15_000);
  });

  it('drops a bus that neither the bus list nor a trip names, once the bus list is known', () => {
    const state = new FleetState(new FeedTimezone('UTC'));
    state.applyTrips([fakeTrip(9, { busId: 9, start: NOW })], NOW);
    state.track(4);
    // Before the first bus list nothing is known to be gone.
    expect([...state.tracks.keys()]).toEqual([9, 4]);
    state.applyBuses([fakeBus(1), fakeBus(2)], NOW);
    expect([...state.tracks.keys()].sort()).toEqual([1, 2, 9]);
    expect(state.tracks.get(1)).toMatchObject({ plateNumber: 'P-1', busName: 'Bus 1', internalCode: 'B1' });
  });

  it('keeps restored times as they are when the inferred offset moves, until answers replace them', () => {
    const state = new FleetState(new FeedTimezone(null));
    const fix = { busId: 1, gpsAt: NOW - 65_000, fetchedAt: NOW - 60_000, lat: 40.7, lon: -74, heading: 0, speedKmh: 12, accuracy: 5, tripId: 7 };
    const trip = fakeTrip(7, { busId: 1, start: NOW - 20 * MINUTE });
    state.restore({ fixes: [fix], trips: [trip], tripsFetchedAt: NOW - 30_000 });
    // The upstream writes its times two hours ahead of UTC: read as UTC they are two hours in the future.
    state.applyBuses([fakeBus(1, { lastGpsAt: NOW + 2 * 60 * MINUTE - 20_000 })], NOW);
    expect(state.tz.health(NOW).offsetMinutes).toBe(120);
    expect(state.buses.get(1)!.lastGpsAt).toBe(NOW - 20_000);
    expect(state.tracks.get(1)).toMatchObject({ gpsAt: fix.gpsAt, fetchedAt: fix.fetchedAt, onTrip: true });
    expect(state.trips).toEqual([trip]);
    expect(state.tripsFetchedAt).toBe(NOW - 30_000);
  });

  it('tells its listeners how far the times it already gave out moved when the offset is found late', () => {
    const state = new FleetState(new FeedTimezone(null));
    const shifts: number[] = [];
    state.onTimeShift((ms) => shifts.push(ms));
    const AHEAD = 2 * 60 * MINUTE;
    const location = (busId: number, gpsAt: number) => ({ busId, plateNumber: null, internalCode: null, busName: null, latitude: 40.7, longitude: -74, lastGpsAt: gpsAt, speedKmh: 0, heading: 0, accuracy: 5 });
    // The first buses asked are parked with GPS silent for days: no offset can be read from them...
    for (const id of [1, 2]) state.applyLocation(state.track(id), location(id, NOW - 3 * 24 * 60 * MINUTE), state.tz.generation, NOW);
    // ...so a running bus's fix, its wall clock two hours ahead, goes out read as UTC.
    const early = state.applyLocation(state.track(3), location(3, NOW + AHEAD - 5_000), state.tz.generation, NOW)!;
    expect(early.gpsAt).toBe(NOW + AHEAD - 5_000);
    expect(shifts).toEqual([]);
    // Two more running buses outvote the parked ones: the offset is found, and what went out moves with it.
    for (const id of [4, 5]) state.applyLocation(state.track(id), location(id, NOW + AHEAD - 4_000), state.tz.generation, NOW + 1_000);
    expect(state.tz.health(NOW).offsetMinutes).toBe(120);
    expect(shifts).toEqual([-AHEAD]);
    expect(early.gpsAt! + shifts[0]!).toBe(NOW - 5_000);
    expect(state.tracks.get(3)!.gpsAt).toBe(NOW - 5_000);
  });

  it('infers the upstream offset from GPS times and shifts what it already stored', async () => {
    const { clock, feed } = startTestFeed({ buses: 20, onTrip: 10, limit: 600, wallOffsetMin: 120 });
    await clock.advance(MINUTE);
    // How the zone was decided is in the full health (administrators'); the served one carries the zone alone.
    const { snapshot, health } = feed.liveSnapshot();
    await stopAll(clock, feed);
    expect(health.timezone).toEqual({ zone: 'UTC+02:00', source: 'inferred', offsetMinutes: 120 });
    expect(snapshot.health.timezone).toEqual({ zone: 'UTC+02:00', offsetMinutes: 120 });
    const now = clock.now();
    for (const v of snapshot.vehicles) {
      // The fake's fixes are 3 s old when fetched; read under the wrong offset they would be 2 h off.
      expect(v.fetchedAt! - v.gpsAt!).toBeGreaterThanOrEqual(3_000);
      expect(v.fetchedAt! - v.gpsAt!).toBeLessThan(4_000);
      if (v.trip) expect(Math.abs(now - 10 * MINUTE - v.trip.plannedDepartureAt!)).toBeLessThan(2 * MINUTE);
    }
  });

  it('uses PARTNER_TIMEZONE as given', async () => {
    const { clock, feed } = startTestFeed({ buses: 5, onTrip: 5, limit: 600 }, { timezone: 'Europe/Paris' });
    await clock.advance(10_000);
    expect(feed.health().timezone).toEqual({ zone: 'Europe/Paris', source: 'config', offsetMinutes: 60 });
    await stopAll(clock, feed);
  });
});
