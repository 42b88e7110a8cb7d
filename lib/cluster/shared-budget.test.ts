import { describe, expect, it } from 'vitest';
import { RateBudget } from '@/lib/fleet';
import { systemClock } from '@/lib/fleet/clock';
import { RedisBudget } from './shared-budget';
import { freshRedisPerTest, REDIS_SKIP_MESSAGE, TEST_REDIS_URL } from '@/lib/testing/redis';

// The per-minute counter every instance's upstream requests pass, against a real Redis (TEST_REDIS_URL).

const fresh = freshRedisPerTest();

describe.skipIf(!TEST_REDIS_URL)(`the shared budget (${TEST_REDIS_URL ? 'real Redis' : REDIS_SKIP_MESSAGE})`, () => {
  it('grants at most the limit in 60 s across instances, then says how long to wait', async () => {
    const { redis, keys, another } = await fresh();
    const a = new RedisBudget(redis, keys.budget, () => true);
    const b = new RedisBudget(await another(), keys.budget, () => true);
    const granted: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await (i % 2 ? a : b).take('poll', 7);
      if (r.ok) granted.push(r.permit);
      else expect(r.waitMs).toBeGreaterThan(50_000);
    }
    expect(granted).toHaveLength(7);
    expect(await a.usedLastMinute()).toBe(7);
    // A permit given back frees its place at once.
    a.release(granted[0]!);
    let again = await b.take('demand', 7);
    for (let i = 0; i < 20 && !again.ok; i++) again = await b.take('demand', 7);
    expect(again.ok).toBe(true);
  });

  it('uses the last limit any instance reported when the asker does not know it yet', async () => {
    const { redis, keys } = await fresh();
    const a = new RedisBudget(redis, keys.budget, () => true);
    expect((await a.take('poll', 3)).ok).toBe(true);
    expect((await a.take('demand', null)).ok).toBe(true);
    expect((await a.take('demand', null)).ok).toBe(true);
    expect((await a.take('demand', null)).ok).toBe(false);
  });

  it('refuses the poll lane without a valid lease, and lets lookups through', async () => {
    const { redis, keys } = await fresh();
    let leading = false;
    const a = new RedisBudget(redis, keys.budget, () => leading);
    expect((await a.take('poll', 10)).ok).toBe(false);
    expect((await a.take('demand', 10)).ok).toBe(true);
    leading = true;
    expect((await a.take('poll', 10)).ok).toBe(true);
    expect(await a.usedLastMinute()).toBe(2);
  });

  it("gates lib/fleet's RateBudget: two budgets on one key together send no more than the limit", async () => {
    const { redis, keys, another } = await fresh();
    const mk = (r: typeof redis) => {
      const budget = new RateBudget({ clock: systemClock, share: 1, shared: new RedisBudget(r, keys.budget, () => true) });
      budget.setLimit(5);
      return budget;
    };
    const one = mk(redis);
    const two = mk(await another());
    const tries = await Promise.allSettled([...Array(6)].map((_, i) => (i % 2 ? one : two).acquire('trip', 'demand', { maxWaitMs: 2_000 })));
    expect(tries.filter((t) => t.status === 'fulfilled' && t.value === true)).toHaveLength(5);
    const refused = tries.filter((t) => t.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/budget/);
  });

  it('sends nothing while the counter cannot be reached', async () => {
    const { redis, keys } = await fresh();
    const shared = new RedisBudget(redis, keys.budget, () => true);
    const budget = new RateBudget({ clock: systemClock, share: 1, shared });
    budget.setLimit(100);
    await redis.quit();
    await expect(budget.acquire('trip', 'demand', { maxWaitMs: 500 })).rejects.toThrow(/budget/);
    expect(budget.sentLastMinute()).toBe(0);
  });
});

if (!TEST_REDIS_URL) console.info(`shared budget: ${REDIS_SKIP_MESSAGE}`);
