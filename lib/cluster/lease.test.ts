import { describe, expect, it } from 'vitest';
import { Lease, parseLeaseValue } from './lease';
import { freshRedisPerTest, REDIS_SKIP_MESSAGE, TEST_REDIS_URL } from '@/lib/testing/redis';

// The lease and its fencing epoch against a real Redis (TEST_REDIS_URL). Times are the lease's own: a short TTL
// lapses in Redis by itself, and the holder's local clock is a variable the test moves.

const fresh = freshRedisPerTest();

describe.skipIf(!TEST_REDIS_URL)(`the leader's lease (${TEST_REDIS_URL ? 'real Redis' : REDIS_SKIP_MESSAGE})`, () => {
  it('is taken by one instance at a time, each new lease with a higher fencing epoch', async () => {
    const { redis, keys, another } = await fresh();
    const a = new Lease(redis, keys, 'a', 10_000);
    const b = new Lease(await another(), keys, 'b', 10_000);
    const ea = await a.acquire();
    expect(ea).toBe(1);
    expect(await b.acquire()).toBeNull();
    expect(await b.holder()).toEqual({ instanceId: 'a', epoch: 1 });
    await a.release();
    const eb = await b.acquire();
    expect(eb).toBe(2);
    expect(a.validEpoch()).toBeNull();
    expect(b.validEpoch()).toBe(2);
  });

  it('renews only while it is still the holder: a lapsed lease taken by another cannot be extended', async () => {
    const { redis, keys, another } = await fresh();
    const a = new Lease(redis, keys, 'a', 300);
    const b = new Lease(await another(), keys, 'b', 10_000);
    expect(await a.acquire()).toBe(1);
    expect(await a.renew()).toBe(true);
    // Let it lapse in Redis: poll until another instance can take it (no fixed sleep).
    let eb: number | null = null;
    while ((eb = await b.acquire()) === null) await new Promise((r) => setTimeout(r, 20));
    expect(eb).toBe(2);
    expect(await a.renew()).toBe(false);
    expect(a.validEpoch()).toBeNull();
    expect(await b.holder()).toEqual({ instanceId: 'b', epoch: 2 });
  });

  it('is not valid locally past TTL minus the margin since the last renewal sent, whatever Redis says', async () => {
    const { redis, keys } = await fresh();
    let now = 1_000_000;
    const a = new Lease(redis, keys, 'a', 6_000, 2_000, () => now);
    expect(await a.acquire()).toBe(1);
    now += 3_999;
    expect(a.validEpoch()).toBe(1);
    now += 1;
    expect(a.validEpoch()).toBeNull();
    // A renewal (still ours in Redis) makes it valid again from the moment it was sent.
    expect(await a.renew()).toBe(true);
    expect(a.validEpoch()).toBe(1);
  });

  it('never hands out an epoch below one an instance has seen (a Redis that lost its data)', async () => {
    const { redis, keys } = await fresh();
    const a = new Lease(redis, keys, 'a', 10_000);
    a.noteEpoch(41);
    expect(await a.acquire()).toBe(42);
    await a.release();
    await redis.del(keys.epoch);
    expect(await a.acquire()).toBe(43);
  });

  it('reads the holder from the lease value', () => {
    expect(parseLeaseValue('host-1-ab|7')).toEqual({ instanceId: 'host-1-ab', epoch: 7 });
    expect(parseLeaseValue('pending')).toBeNull();
    expect(parseLeaseValue(null)).toBeNull();
  });
});

if (!TEST_REDIS_URL) console.info(`lease: ${REDIS_SKIP_MESSAGE}`);
