import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { clusterKeys } from '@/lib/cluster/config';
import { redisClient, type Redis } from '@/lib/cluster/redis';

// Redis for tests: TEST_REDIS_URL's server (the machine's shared one), each test under a cluster name of its own
// so that runs never see each other's keys; the keys are deleted afterwards.

export const REDIS_SKIP_MESSAGE = 'skipped: TEST_REDIS_URL unset';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? null;

export interface TestRedis {
  redis: Redis;
  name: string;
  keys: ReturnType<typeof clusterKeys>;
  /** Another connection to the same server (a second instance). */
  another(): Promise<Redis>;
  dispose(): Promise<void>;
}

export async function testRedis(url = TEST_REDIS_URL): Promise<TestRedis> {
  if (!url) throw new Error('TEST_REDIS_URL is not set');
  const name = `fleetmap-test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const opened: Redis[] = [];
  const open = async () => {
    const c = redisClient(url, () => {});
    opened.push(c);
    await c.connect();
    return c;
  };
  const redis = await open();
  return {
    redis,
    name,
    keys: clusterKeys(name),
    another: open,
    async dispose() {
      await Promise.allSettled(opened.filter((c) => c.isOpen).map((c) => c.quit()));
      // A connection of its own: the test may have closed its clients.
      const cleaner = redisClient(url, () => {});
      await cleaner.connect();
      const left: string[] = [];
      for await (const batch of cleaner.scanIterator({ MATCH: `${name}:*`, COUNT: 100 })) left.push(...batch);
      if (left.length) await cleaner.del(left);
      await cleaner.quit();
    },
  };
}

/**
 * For a test file: a function that opens a fresh TestRedis, each disposed of after the test that opened it.
 * Call it once at the top of the file (it registers the afterEach hook there).
 */
export function freshRedisPerTest(): () => Promise<TestRedis> {
  const opened: TestRedis[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.dispose()));
  });
  return async () => {
    const r = await testRedis();
    opened.push(r);
    return r;
  };
}
