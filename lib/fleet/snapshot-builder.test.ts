import { describe, expect, it } from 'vitest';
import { applyLiveDelta, liveChanges, mergeLiveChanges, type LiveSnapshot } from '@/lib/model';
import { MemorySnapshotStore, type StoredSnapshot } from './snapshot-store';
import { FleetState } from './fleet-state';
import { SnapshotBuilder } from './snapshot-builder';
import { FeedTimezone } from './timezone';
import { adminView, MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

/** A store whose epoch a test sets, as a shared store's would change with a new leader. */
class EpochStore extends MemorySnapshotStore {
  epochNow = 'aaa';
  override epoch(): string {
    return this.epochNow;
  }
}

describe('SnapshotBuilder', () => {
  it('with a standard key reports no location capability, sends no location request and lists every trip as unpositioned', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 30, onTrip: 20, limit: 120, level: 'standard', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] });
    await clock.advance(2 * MINUTE);
    const snapshot = adminView(feed.liveSnapshot());
    await stopAll(clock, feed);
    expect(upstream.count('busLocation')).toBe(0);
    expect(snapshot.health.capabilities).toEqual({ buses: true, routes: true, stops: true, trips: true, locations: false });
    expect(snapshot.health.state).toBe('ok');
    expect(snapshot.health.message).toMatch(/gps:read/);
    expect(snapshot.unpositionedTrips).toHaveLength(20);
    expect(snapshot.vehicles).toHaveLength(30);
    expect(snapshot.vehicles.filter((v) => v.trip !== null)).toHaveLength(20);
  });

  it('serves what the store holds when the store refuses a version (a leader whose lease ran out): never a version and then the one before it', async () => {
    /** A leader's store whose lease a test lets lapse: it keeps no version while lapsed (as ClusterSnapshotStore). */
    class LapsingStore extends EpochStore {
      lapsed = false;
      override write(s: StoredSnapshot): void {
        if (!this.lapsed) super.write(s);
      }
    }
    const store = new LapsingStore();
    const { clock, feed } = startTestFeed({ buses: 30, onTrip: 20, limit: 600 }, { store });
    await clock.advance(MINUTE);
    const held = feed.liveSnapshot();
    expect(store.read()).toBe(held);
    store.lapsed = true;
    const served: number[] = [];
    for (let i = 0; i < 6; i++) {
      await clock.advance(1_500);
      served.push(feed.liveSnapshot().snapshot.version, feed.liveSnapshot().snapshot.version);
    }
    expect(served.every((v) => v === held.snapshot.version)).toBe(true);
    // Written again: the next version follows the one held, with its step change from it.
    store.lapsed = false;
    await clock.advance(1_500);
    const next = feed.liveSnapshot();
    expect(next.snapshot.version).toBe(held.snapshot.version + 1);
    expect(feed.liveChangesSince('aaa', held.snapshot.version)).toHaveLength(1);
    const delta = { kind: 'delta' as const, epoch: 'aaa', since: held.snapshot.version, version: next.snapshot.version, generatedAt: next.snapshot.generatedAt, ...mergeLiveChanges(feed.liveChangesSince('aaa', held.snapshot.version)!), health: next.snapshot.health, thresholds: next.snapshot.thresholds };
    expect(applyLiveDelta(held.snapshot, delta)).toEqual(next.snapshot);
    await stopAll(clock, feed);
  });

  it("counts versions in the store's epoch, keeps one while nothing changed, and stores each step change", async () => {
    const store = new EpochStore();
    const { clock, feed } = startTestFeed({ buses: 30, onTrip: 20, limit: 600 }, { store });
    await clock.advance(MINUTE);
    const first = feed.liveSnapshot();
    expect(first.snapshot.epoch).toBe('aaa');
    // Within the second a snapshot is kept, the same version (and so the same ETag) however often it is read.
    expect(feed.liveSnapshot()).toBe(first);
    expect(store.read()).toBe(first);
    const held = first.snapshot;
    await clock.advance(5_000);
    const later = feed.liveSnapshot();
    expect(later.snapshot.version).toBe(held.version + 1);
    expect(later.changes).not.toBeNull();
    expect(JSON.parse(later.body)).toEqual({ kind: 'full', ...later.snapshot });
    const steps = feed.liveChangesSince('aaa', held.version)!;
    expect(steps).toHaveLength(1);
    const delta = { kind: 'delta' as const, epoch: 'aaa', since: held.version, version: later.snapshot.version, generatedAt: later.snapshot.generatedAt, ...mergeLiveChanges(steps), health: later.snapshot.health, thresholds: later.snapshot.thresholds };
    expect(applyLiveDelta(held, delta)).toEqual(later.snapshot);

    // A new epoch (a new leader of several instances): versions start again, and the old epoch's are not answered.
    store.epochNow = 'bbb';
    await clock.advance(2_000);
    const next = feed.liveSnapshot();
    expect(next.snapshot).toMatchObject({ epoch: 'bbb', version: 1 });
    expect(next.changes).toBeNull();
    expect(feed.liveChangesSince('aaa', later.snapshot.version)).toBeNull();
    expect(feed.liveChangesSince('bbb', 1)).toEqual([]);
    await stopAll(clock, feed);
  });
  it('serialises each item once, and a bus again only when it changed: every version\'s body is the snapshot\'s JSON and its step change the two versions\' difference', async () => {
    const { clock, feed } = startTestFeed({ buses: 40, onTrip: 25, limit: 600 });
    await clock.advance(MINUTE);
    let prev: LiveSnapshot | null = null;
    let unread: StoredSnapshot | null = null;
    let versions = 0;
    let moved = 0;
    for (let i = 0; i < 40; i++) {
      await clock.advance(1_000);
      const stored = feed.liveSnapshot();
      // The body is joined on first read: every other version's is read only after the next rebuild.
      if (i % 2 === 0) unread = stored;
      else {
        expect(unread!.body).toBe(JSON.stringify({ kind: 'full', ...unread!.snapshot }));
        expect(stored.body).toBe(JSON.stringify({ kind: 'full', ...stored.snapshot }));
      }
      if (prev !== null && stored.snapshot.version !== prev.version) {
        expect(stored.snapshot.version).toBe(prev.version + 1);
        expect(stored.changes).toEqual(liveChanges(prev, stored.snapshot));
        versions++;
        moved += stored.changes!.vehicles.length;
        // A bus the step did not change is the object the version before held: made and serialised once.
        const changed = new Set(stored.changes!.vehicles.map((v) => v.busId));
        const before = new Map(prev.vehicles.map((v) => [v.busId, v]));
        for (const v of stored.snapshot.vehicles) {
          if (changed.has(v.busId)) expect(v).not.toBe(before.get(v.busId));
          else expect(v).toBe(before.get(v.busId));
        }
      }
      prev = stored.snapshot;
    }
    await stopAll(clock, feed);
    // The premise: buses moved in many of the 40 rebuilds, a few at a time.
    expect(versions).toBeGreaterThan(10);
    expect(moved).toBeGreaterThan(versions);
    expect(moved).toBeLessThan(versions * 40);
  });

  it('a bus no longer tracked is removed in the step change, a bus tracked anew is added in its order, and the body follows', async () => {
    // The health of a running feed, held still: only the tracks change between the builds.
    const { clock, feed } = startTestFeed({ buses: 5, onTrip: 3, limit: 600 });
    await clock.advance(MINUTE);
    const health = adminView(feed.liveSnapshot()).health;
    await stopAll(clock, feed);

    const state = new FleetState(new FeedTimezone(null));
    const place = (busId: number, lat: number) => Object.assign(state.track(busId), { lat, lon: -73.9, gpsAt: 1_000 * busId, fetchedAt: 2_000 * busId });
    for (const id of [5, 2, 9, 7]) place(id, 40.7);
    const builder = new SnapshotBuilder({ state, store: new MemorySnapshotStore(), thresholds: { lateMin: 5, earlyMin: 1 }, locations: () => true, health: () => health });
    const t0 = 1_768_000_000_000;
    const first = builder.live(t0);
    expect(first.snapshot.vehicles.map((v) => v.busId)).toEqual([2, 5, 7, 9]);

    // Bus 7 is dropped (its bus left the fleet list), bus 3 appears, bus 9 moves: the step names each once.
    state.tracks.delete(7);
    place(3, 40.71);
    place(9, 40.72);
    const second = builder.live(t0 + 1_000);
    expect(second.snapshot.version).toBe(first.snapshot.version + 1);
    expect(second.snapshot.vehicles.map((v) => v.busId)).toEqual([2, 3, 5, 9]);
    expect(second.changes).toEqual(liveChanges(first.snapshot, second.snapshot));
    expect(second.changes!.removedBusIds).toEqual([7]);
    expect(second.changes!.vehicles.map((v) => v.busId)).toEqual([3, 9]);
    expect(second.body).toBe(JSON.stringify({ kind: 'full', ...second.snapshot }));

    // Nothing changed: the same version. Then only a drop: a version whose step is that drop alone.
    expect(builder.live(t0 + 2_000)).toBe(second);
    state.tracks.delete(2);
    const third = builder.live(t0 + 3_000);
    expect(third.changes).toEqual({ vehicles: [], removedBusIds: [2], unpositionedTrips: [], removedTripIds: [] });
    expect(third.snapshot.vehicles.map((v) => v.busId)).toEqual([3, 5, 9]);
  });
});
