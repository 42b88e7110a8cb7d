import { afterAll, describe, expect, it } from 'vitest';
import { authConfig } from '@/lib/auth/config';
import { AuthService, SESSION_COOKIE } from '@/lib/auth/service';
import { AuthStore } from '@/lib/auth/store';
import { openStore, type Store } from '@/lib/history/store';
import { freshPostgresStore, PG_SKIP_MESSAGE, type TestStore } from '@/lib/testing/store';

// Several instances share sign-in through their one PostgreSQL (the reason REDIS_URL requires it): a session made
// on one instance is good on another, and a sign-out on one ends it on an instance that has not cached it.
// Each "instance" here is a store connection and an AuthService of its own on one database.

const PASSWORD = 'a long enough password';
const ctx = { actor: 'cli', address: null };
const cookieOf = (session: string) => (name: string) => (name === SESSION_COOKIE ? session : undefined);

describe.skipIf(!process.env.TEST_DATABASE_URL)(`sign-in across instances (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : PG_SKIP_MESSAGE})`, () => {
  const opened: Store[] = [];
  let db: TestStore | null = null;
  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
    await db?.dispose();
  });

  it('a session made on one instance is accepted by the others, and a sign-out ends it everywhere', async () => {
    db = await freshPostgresStore();
    const instance = async () => {
      const store = await openStore({ databaseUrl: db!.databaseUrl, dataDir: null });
      opened.push(store);
      return new AuthService(authConfig({ AUTH_MODE: 'local' }), new AuthStore(store.db));
    };
    const [a, b] = [await instance(), await instance()];
    await a.putLocalUser('ann', 'dispatcher', PASSWORD, ctx);
    const r = await b.signInLocal('ann', PASSWORD, '10.0.0.1');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(await a.principal(cookieOf(r.session))).toMatchObject({ kind: 'user', name: 'ann', role: 'dispatcher' });
    await a.signOut(r.session, { actor: 'ann', address: '10.0.0.1' });
    const c = await instance();
    expect(await c.principal(cookieOf(r.session))).toEqual({ kind: 'anonymous', revokedWall: false });
  });
});

if (!process.env.TEST_DATABASE_URL) console.info(`sign-in across instances: ${PG_SKIP_MESSAGE}`);
