import { describe, expect, it } from 'vitest';
import type { FixEvent, RequestEvent, TripFinalEvent, TripsEvent } from './events';
import type { FollowSource } from './feed';
import { MemorySnapshotStore } from './snapshot-store';
import { FakeUpstream, fakeTrip } from '@/lib/testing/fake-upstream';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

describe('Feed events', () => {
  it('emits a fix per new GPS time and a trips event per complete walk', async () => {
    const fixes: FixEvent[] = [];
    const walks: TripsEvent[] = [];
    const { clock, upstream, feed } = startTestFeed(
      { buses: 10, onTrip: 6, limit: 600 },
      {
        beforeStart: (f) => {
          f.events.on('fix', (e) => fixes.push(e));
          f.events.on('trips', (e) => walks.push(e));
        },
      },
    );
    upstream.stuckGps.add(3);
    await clock.advance(20_000);
    await stopAll(clock, feed);
    expect(walks.length).toBeGreaterThanOrEqual(1);
    for (const w of walks) expect(w.trips.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(fixes.map((f) => f.busId)).size).toBe(10);
    // Bus 3's GPS has not reported since before the start: one fix, however often it is asked.
    const askedStuck = upstream.calls.filter((c) => c.op === 'busLocation' && c.id === 3 && c.status === 200).length;
    expect(askedStuck).toBeGreaterThan(1);
    expect(fixes.filter((f) => f.busId === 3)).toHaveLength(1);
    const answered = upstream.calls.filter((c) => c.op === 'busLocation' && c.status === 200).length;
    expect(fixes).toHaveLength(answered - (askedStuck - 1));
    for (const f of fixes) {
      expect(f.tripId).toBe(f.busId <= 6 ? f.busId : null);
      expect(f.gpsAt).toBe((f.busId === 3 ? FakeUpstream.STUCK_GPS_AT : f.fetchedAt) - 3_000);
    }
  });

  it('announces every upstream request once it is answered, in its lane', async () => {
    const requests: RequestEvent[] = [];
    const { clock, upstream, feed } = startTestFeed({ buses: 10, onTrip: 6, limit: 600 }, { beforeStart: (f) => void f.events.on('request', (e) => requests.push(e)) });
    await clock.advance(10_000);
    const trip = feed.trip(9, 'viewer');
    await clock.advance(1_000);
    expect((await trip).ok).toBe(true);
    upstream.revoked = true;
    await clock.advance(2_000);
    await stopAll(clock, feed);
    expect(requests).toHaveLength(upstream.calls.length);
    expect(requests.filter((r) => r.kind === 'trip')).toEqual([expect.objectContaining({ lane: 'demand', status: 200, ok: true })]);
    expect(requests.filter((r) => r.kind !== 'trip').every((r) => r.lane === 'poll')).toBe(true);
    expect(requests.filter((r) => r.status === 401).every((r) => !r.ok)).toBe(true);
    expect(requests.some((r) => r.status === 401)).toBe(true);
  });

  it('looks up each trip that left /trips/active once, at most one slot in ten, and says how it ended', async () => {
    const finals: TripFinalEvent[] = [];
    const { clock, upstream, feed } = startTestFeed({ buses: 60, onTrip: 60, limit: 120 }, { beforeStart: (f) => void f.events.on('trip-final', (e) => finals.push(e)) });
    await clock.advance(MINUTE);
    const ended = Array.from({ length: 40 }, (_, i) => i + 1);
    for (const id of ended) upstream.finishedTrips.add(id);
    const from = clock.now();
    await clock.advance(MINUTE);
    const firstMinute = upstream.calls.filter((c) => c.op === 'trip' && c.at >= from);
    // 96 poll slots a minute at share 0.8 of 120: at most one in ten is a final-trip lookup.
    expect(firstMinute.length).toBeGreaterThan(0);
    expect(firstMinute.length).toBeLessThanOrEqual(10);
    // A lookup sent in the last moments of the minute may not have reached the upstream yet.
    const h = feed.health().finalTrips!;
    expect(h.requestsLastHour - firstMinute.length).toBeGreaterThanOrEqual(0);
    expect(h.requestsLastHour - firstMinute.length).toBeLessThanOrEqual(1);
    expect(h.pending).toBe(40 - h.requestsLastHour);
    await clock.advance(5 * MINUTE);
    await stopAll(clock, feed);
    const asked = upstream.calls.filter((c) => c.op === 'trip').map((c) => c.id);
    expect(asked.sort((a, b) => a! - b!)).toEqual(ended);
    expect(finals.map((f) => f.tripId).sort((a, b) => a - b)).toEqual(ended);
    for (const f of finals) expect(f.trip).toMatchObject({ id: f.tripId, status: 'completed' });
    expect(feed.health().finalTrips).toEqual({ requestsLastHour: 40, pending: 0 });
  });
  it('spends no slot on trips that ended while nothing listens for how they ended', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 20, onTrip: 20, limit: 120 });
    await clock.advance(MINUTE);
    for (let id = 1; id <= 10; id++) upstream.finishedTrips.add(id);
    await clock.advance(2 * MINUTE);
    await stopAll(clock, feed);
    expect(upstream.count('trip')).toBe(0);
    expect(feed.health().finalTrips).toEqual({ requestsLastHour: 0, pending: 0 });
  });
});

describe('Feed.restore', () => {
  it('serves restored buses and trips at their true ages, asks the oldest first, and lets the next walk replace the trips', async () => {
    const finals: TripFinalEvent[] = [];
    let restoredAt = 0;
    // Bus i's restored fix is this many minutes old: neither in id order nor its reverse.
    const ageMin = (id: number) => ((id * 7) % 20) + 1;
    const { clock, upstream, feed } = startTestFeed(
      { buses: 20, onTrip: 20, limit: 600 },
      {
        beforeStart: (f, c) => {
          const now = (restoredAt = c.now());
          f.events.on('trip-final', (e) => finals.push(e));
          f.restore({
            fixes: Array.from({ length: 20 }, (_, i) => {
              const busId = i + 1;
              const fetchedAt = now - ageMin(busId) * MINUTE;
              return { busId, gpsAt: fetchedAt - 5_000, fetchedAt, lat: 40.7, lon: -74, heading: 90, speedKmh: 20, accuracy: 5, tripId: busId + 1000 };
            }),
            // Trips that ran when the server stopped, on buses 1 and 2; they have ended since (the upstream has no trip 1001 or 1002 any more).
            trips: [fakeTrip(1001, { busId: 1, start: now - 30 * MINUTE }), fakeTrip(1002, { busId: 2, start: now - 40 * MINUTE })],
            tripsFetchedAt: now - 2 * MINUTE,
          });
        },
      },
    );
    // Before any answer: every bus at its restored age, the restored trips on their buses.
    const first = feed.liveSnapshot().snapshot;
    expect(first.vehicles).toHaveLength(20);
    for (const v of first.vehicles) expect([v.fetchedAt, v.gpsAt, v.lat]).toEqual([restoredAt - ageMin(v.busId) * MINUTE, restoredAt - ageMin(v.busId) * MINUTE - 5_000, 40.7]);
    expect(first.vehicles.filter((v) => v.trip).map((v) => v.trip!.tripId)).toEqual([1001, 1002]);

    await clock.advance(MINUTE);
    await stopAll(clock, feed);
    const located = upstream.calls.filter((c) => c.op === 'busLocation').map((c) => c.id!);
    const byAge = Array.from({ length: 20 }, (_, i) => i + 1).sort((a, b) => ageMin(b) - ageMin(a));
    expect(located.slice(0, 20)).toEqual(byAge);
    // The first complete walk replaced the restored trips, which had left /trips/active: each asked once.
    const s = feed.liveSnapshot().snapshot;
    expect(s.vehicles.filter((v) => v.trip).map((v) => v.trip!.tripId)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(finals.map((f) => [f.tripId, f.trip])).toEqual([
      [1001, null],
      [1002, null],
    ]);
  });

  it('is refused after start', () => {
    const { feed } = startTestFeed({ buses: 1, onTrip: 1, limit: 60 });
    expect(() => feed.restore({ fixes: [], trips: [], tripsFetchedAt: null })).toThrow(/before start/);
    void feed.stop();
  });
});

describe('the live snapshot ETag', () => {
  it('holds while the data stands still, though the ages in its health keep growing', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 20, onTrip: 10, limit: 600, latencyMs: 0 });
    await clock.advance(MINUTE);
    // A 429 with a minute's Retry-After: nothing is asked, nothing new arrives.
    upstream.stormUntil = clock.now() + 500;
    upstream.stormRetryAfterS = 60;
    await clock.advance(2_000);
    const held = feed.liveSnapshot();
    expect(held.snapshot.health.state).toBe('rate-limited');
    // The ETag is the version tag (lib/http/live-answer): epoch and version.
    const tag = (x: ReturnType<typeof feed.liveSnapshot>) => `${x.snapshot.epoch}-${x.snapshot.version}`;
    const etags = new Set<string>();
    for (let s = 0; s < 30; s++) {
      await clock.advance(1_000);
      etags.add(tag(feed.liveSnapshot()));
    }
    expect(etags).toEqual(new Set([tag(held)]));
    // The figures it carries are those of its generatedAt; the health as of now has moved on.
    expect(feed.health().freshness.meanAgeS!).toBeGreaterThan(held.health.freshness.meanAgeS! + 25);
    await clock.advance(MINUTE);
    expect(tag(feed.liveSnapshot())).not.toBe(tag(held));
    await stopAll(clock, feed);
  });
});

describe('a following feed (another instance leads)', () => {
  const source = (calls: string[]): FollowSource => ({
    trip: async (id) => (calls.push(`trip ${id}`), { ok: false, failure: { status: 503, message: 'leader away', correlationId: null } }),
    routeStops: async (id) => (calls.push(`stops ${id}`), { ok: false, failure: { status: 503, message: 'leader away', correlationId: null } }),
    watch: (busId) => (calls.push(`watch ${busId}`), true),
    routesList: () => null,
    busesList: () => ({ ok: true, value: { buses: [], fetchedAt: 123 } }),
    networkGeoJson: () => null,
  });

  it('sends nothing upstream and builds nothing while it follows, serves its store, and polls from the moment it leads', async () => {
    const calls: string[] = [];
    const store = new MemorySnapshotStore();
    const { clock, upstream, feed } = startTestFeed({ buses: 10, onTrip: 6, limit: 600 }, { store, beforeStart: (f) => f.follow(source(calls)) });
    await clock.advance(30_000);
    expect(upstream.calls).toHaveLength(0);
    expect(feed.leading).toBe(false);
    // Nothing of its own in the store: a version 0 until the leader's arrive.
    expect(feed.liveSnapshot().snapshot.version).toBe(0);
    expect(store.read()).toBeNull();
    // Lookups, watches and lists go to the source; a list it does not know yet is the feed's own.
    expect(await feed.trip(7, 'c')).toMatchObject({ ok: false });
    expect(feed.watch(3, 'c')).toBe(true);
    expect(feed.busesList()).toEqual({ ok: true, value: { buses: [], fetchedAt: 123 } });
    expect(feed.routesList().ok).toBe(true);
    expect(calls).toEqual(['trip 7', 'watch 3']);
    // It may take what the last leader left before it leads.
    feed.restore({ fixes: [{ busId: 4, gpsAt: clock.now() - 5_000, fetchedAt: clock.now() - 4_000, lat: 1, lon: 2, heading: null, speedKmh: null, accuracy: null, tripId: null }], trips: [], tripsFetchedAt: null });
    feed.follow(null);
    await clock.advance(20_000);
    expect(upstream.calls.length).toBeGreaterThan(0);
    const led = feed.liveSnapshot();
    expect(led.snapshot.version).toBeGreaterThanOrEqual(1);
    expect(store.read()).toBe(led);
    // Following again: no new request from the next slot on.
    feed.follow(source(calls));
    await clock.advance(2_000);
    const sent = upstream.calls.length;
    await clock.advance(30_000);
    expect(upstream.calls.length).toBe(sent);
    await stopAll(clock, feed);
  });
});
