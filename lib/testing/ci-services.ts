// Vitest's global set-up: in CI (CI=true) the store's tests on PostgreSQL and the cluster's on Redis must run, not
// skip. .ci/run starts both services and sets TEST_DATABASE_URL and TEST_REDIS_URL; a run where either is unset or
// does not answer fails at once, saying which, instead of passing with those tests skipped.
import { Client } from 'pg';
import { createClient } from 'redis';

type Env = Record<string, string | undefined>;

const inCi = (env: Env) => {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
};

const hostOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)}`;
  } catch {
    return 'an address that cannot be read';
  }
};

const TIMEOUT_MS = 10_000;

async function postgresAnswers(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<string | null> {
  const client = createClient({ url, socket: { connectTimeout: TIMEOUT_MS, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.quit().catch(() => {});
  }
}

/** What keeps the store's and the cluster's tests from running here, when in CI; [] outside CI. */
export async function ciServiceProblems(env: Env = process.env): Promise<string[]> {
  if (!inCi(env)) return [];
  const problems: string[] = [];
  const services: [string, string | undefined, (url: string) => Promise<string | null>][] = [
    ['TEST_DATABASE_URL', env.TEST_DATABASE_URL, postgresAnswers],
    ['TEST_REDIS_URL', env.TEST_REDIS_URL, redisAnswers],
  ];
  for (const [name, url, answers] of services) {
    if (!url?.trim()) {
      problems.push(`${name} is unset: with CI=true the tests that need it must run, not skip (.ci/run sets it)`);
      continue;
    }
    const why = await answers(url);
    if (why !== null) problems.push(`${name} (${hostOf(url)}) does not answer: ${why}`);
  }
  return problems;
}

export default async function setup(): Promise<void> {
  const problems = await ciServiceProblems();
  if (problems.length) throw new Error(`CI runs every store and cluster test, and cannot here:\n- ${problems.join('\n- ')}`);
}
