import { describe, expect, it } from 'vitest';
import type { StoredSnapshot } from '@/lib/fleet';
import { SlowParts } from '@/lib/http/live-compact';
import { encodeCompactDelta, liveChanges, mergeLiveChanges, type LiveSnapshot } from '@/lib/model';
import { makeHealth, makeLiveHealth, makeVehicle } from '@/lib/testing/view-factories';
import { Lease } from './lease';
import { ClusterSnapshotStore } from './snapshot-store';
import { freshRedisPerTest, REDIS_SKIP_MESSAGE, TEST_REDIS_URL } from '@/lib/testing/redis';

// Fencing and fan-out of snapshot versions against a real Redis (TEST_REDIS_URL): a leader whose epoch is no
// longer the newest cannot write, followers receive every version with the steps deltas are made of.

const fresh = freshRedisPerTest();

function version(epoch: number, v: number, prev: StoredSnapshot | null, lat = 40 + v / 1000): StoredSnapshot {
  const snapshot: LiveSnapshot = { generatedAt: 1_700_000_000_000 + v, epoch: String(epoch), version: v, vehicles: [makeVehicle({ busId: 1, lat })], unpositionedTrips: [], health: makeLiveHealth(), thresholds: { lateMin: 5, earlyMin: 1 } };
  return { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: prev && prev.snapshot.epoch === snapshot.epoch ? liveChanges(prev.snapshot, snapshot) : null, health: makeHealth() };
}

describe.skipIf(!TEST_REDIS_URL)(`snapshot versions across instances (${TEST_REDIS_URL ? 'real Redis' : REDIS_SKIP_MESSAGE})`, () => {
  it('a paused leader that comes back after another took over cannot write: the fencing epoch refuses it', async () => {
    const { redis, keys, another } = await fresh();
    // A's clock stands still: what a paused process sees of the time it was stopped.
    const now = Date.now();
    const leaseA = new Lease(redis, keys, 'a', 400, 100, () => now);
    const fenced: string[] = [];
    const a = new ClusterSnapshotStore(redis, keys, leaseA, (why) => fenced.push(why));
    expect(await leaseA.acquire()).toBe(1);
    const v1 = version(1, 1, null);
    a.write(v1);
    await a.flushed();
    expect(await redis.hGet(keys.snapshot, 'version')).toBe('1');

    // A is "paused": its lease lapses in Redis and B takes it.
    const rb = await another();
    const leaseB = new Lease(rb, keys, 'b', 10_000);
    let eb: number | null = null;
    while ((eb = await leaseB.acquire()) === null) await new Promise((r) => setTimeout(r, 20));
    expect(eb).toBe(2);
    const b = new ClusterSnapshotStore(rb, keys, leaseB, () => {});
    b.write(version(2, 1, null));
    await b.flushed();

    // A comes back still believing its lease valid (it has not looked at the time yet) and writes.
    expect(leaseA.validEpoch()).toBe(1);
    a.write(version(1, 2, v1));
    await a.flushed();
    expect(fenced).toEqual(['a newer epoch was taken']);
    expect(await redis.hmGet(keys.snapshot, ['epoch', 'version'])).toEqual(['2', '1']);
  });

  it('keeps nothing written after the lease stopped being valid locally', async () => {
    const { redis, keys } = await fresh();
    let now = Date.now();
    const lease = new Lease(redis, keys, 'a', 6_000, 2_000, () => now);
    const store = new ClusterSnapshotStore(redis, keys, lease, () => {});
    expect(await lease.acquire()).toBe(1);
    now += 4_000;
    store.write(version(1, 1, null));
    await store.flushed();
    expect(store.read()).toBeNull();
    expect(await redis.exists(keys.snapshot)).toBe(0);
  });

  it('fans out the viewers’ health in the body and the full health beside it: a follower serves each to whom it belongs', async () => {
    const { redis, keys, another } = await fresh();
    const lease = new Lease(redis, keys, 'a', 10_000);
    const leader = new ClusterSnapshotStore(redis, keys, lease, () => {});
    const follower = new ClusterSnapshotStore(await another(), keys, new Lease(await another(), keys, 'b', 10_000), () => {});
    expect(await lease.acquire()).toBe(1);
    const full = makeHealth({ notes: ['history: not recording (the store said: role "fleet" does not exist)'] });
    leader.write({ ...version(1, 1, null), health: full });
    await leader.flushed();
    expect(await redis.hGet(keys.snapshot, 'body')).not.toMatch(/scopes|notes|lastError|does not exist/);
    expect(await follower.pull()).toBe('new');
    const got = follower.read()!;
    expect(got.body).not.toMatch(/scopes|notes|lastError|does not exist/);
    expect(got.snapshot.health).toEqual(makeLiveHealth());
    expect(got.health).toEqual(full);
    // Coordination lost on the follower: the banner goes into both healths, the full one still beside the body.
    follower.markCoordination(Date.now());
    expect(follower.read()!.snapshot.health.coordination).toBeDefined();
    expect(follower.read()!.health).toMatchObject({ notes: full.notes, coordination: expect.any(Object) });
    expect(follower.read()!.body).not.toMatch(/scopes|notes/);
  });

  it('followers get every version with the steps: the same ETag and the same deltas as the leader', async () => {
    const { redis, keys, another } = await fresh();
    const lease = new Lease(redis, keys, 'a', 10_000);
    const leader = new ClusterSnapshotStore(redis, keys, lease, () => {});
    const follower = new ClusterSnapshotStore(await another(), keys, new Lease(await another(), keys, 'b', 10_000), () => {});
    expect(await follower.pull()).toBe('none');
    expect(await lease.acquire()).toBe(1);
    let prev: StoredSnapshot | null = null;
    for (let v = 1; v <= 3; v++) leader.write((prev = version(1, v, prev)));
    await leader.flushed();
    expect(await follower.pull()).toBe('new');
    expect(await follower.pull()).toBe('same');
    // Each instance follows which buses only moved (compact deltas, lib/http/live-compact.ts) from its own store.
    const moves = [new SlowParts(), new SlowParts()] as const;
    const steps = (store: ClusterSnapshotStore) => ({ liveChangesSince: (e: string, v: number) => store.changesSince(e, v) });
    moves[0].advance(leader.read()!.snapshot, steps(leader));
    moves[1].advance(follower.read()!.snapshot, steps(follower));
    for (let v = 4; v <= 6; v++) leader.write((prev = version(1, v, prev)));
    await leader.flushed();
    expect(await follower.pull()).toBe('new');
    expect(follower.read()!.body).toBe(leader.read()!.body);
    expect(follower.epoch()).toBe('1');
    // A delta from version 3 (the follower's last pull) to 6 exists on both, and is the same.
    expect(follower.changesSince('1', 3)).toEqual(leader.changesSince('1', 3));
    expect(follower.changesSince('1', 3)).toHaveLength(3);
    // And so is its compact form, the bus that only moved sent by its position alone on both.
    const compact = ([store, parts]: readonly [ClusterSnapshotStore, SlowParts]) => {
      const now = store.read()!.snapshot;
      parts.advance(now, steps(store));
      return encodeCompactDelta(now, 3, mergeLiveChanges(store.changesSince('1', 3)!), (busId) => parts.unchangedSince(busId, 3));
    };
    const fromLeader = compact([leader, moves[0]]);
    expect(compact([follower, moves[1]])).toEqual(fromLeader);
    expect(fromLeader.m.id).toEqual([1]);
  });

  it('serves the data held under a coordination banner, as a newer version of its own', async () => {
    const { redis, keys, another } = await fresh();
    const lease = new Lease(redis, keys, 'a', 10_000);
    const leader = new ClusterSnapshotStore(redis, keys, lease, () => {});
    const follower = new ClusterSnapshotStore(await another(), keys, new Lease(await another(), keys, 'b', 10_000), () => {});
    await lease.acquire();
    const v1 = version(1, 1, null);
    leader.write(v1);
    await leader.flushed();
    await follower.pull();
    follower.markCoordination(1_700_000_100_000);
    const shown = follower.read()!;
    expect(shown.snapshot.version).toBe(2);
    expect(shown.snapshot.health.coordination).toEqual({ lostAt: 1_700_000_100_000, dataAt: v1.snapshot.generatedAt });
    expect(shown.snapshot.vehicles).toEqual(v1.snapshot.vehicles);
    expect(JSON.parse(shown.body).health.coordination.lostAt).toBe(1_700_000_100_000);
    // Found again: the banner goes in a newer version, and the leader's next newer version replaces it.
    follower.markCoordination(null);
    expect(follower.read()!.snapshot.version).toBe(3);
    expect(follower.read()!.snapshot.health.coordination).toBeUndefined();
    let prev = v1;
    for (let v = 2; v <= 4; v++) leader.write((prev = version(1, v, prev)));
    await leader.flushed();
    expect(await follower.pull()).toBe('new');
    expect(follower.read()!.body).toBe(prev.body);
    // Its own versions' steps are not the leader's: a browser holding one gets the full snapshot.
    expect(follower.changesSince('1', 3)).toBeNull();
  });
});

if (!TEST_REDIS_URL) console.info(`cluster snapshot store: ${REDIS_SKIP_MESSAGE}`);
