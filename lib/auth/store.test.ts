import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore, type TestStore } from '@/lib/testing/store';
import { AuthStore } from './store';

const t0 = new Date('2026-03-04T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

describeEachStore('AuthStore', (target) => {
  let opened: TestStore;
  let store: AuthStore;
  beforeEach(async () => {
    opened = await target.open();
    store = new AuthStore(opened.db);
  });
  afterEach(async () => opened.dispose());

  it('keeps users; a session reads its user until it expires; removing a user ends its sessions', async () => {
    expect(await store.putUser({ name: 'ann', role: 'dispatcher', source: 'local', passwordHash: 'h' }, t0)).toBe('added');
    expect(await store.putUser({ name: 'ann', role: 'manager', source: 'local', passwordHash: 'h2' }, later(1))).toBe('changed');
    await store.createSession('s1', 'ann', t0, later(60_000));
    expect((await store.sessionUser('s1', later(1000)))?.user).toMatchObject({ name: 'ann', role: 'manager', passwordHash: 'h2' });
    expect(await store.sessionUser('s1', later(60_000))).toBeNull();
    expect(await store.sessionUser('nope', t0)).toBeNull();
    await store.createSession('s2', 'ann', t0, later(60_000));
    expect(await store.removeUser('ann')).toBe(true);
    expect(await store.sessionUser('s2', t0)).toBeNull();
    expect(await store.removeUser('ann')).toBe(false);
  });

  it('signs a user out everywhere and counts live sessions', async () => {
    await store.putUser({ name: 'bob', role: 'viewer', source: 'oidc', passwordHash: null }, t0);
    await store.putUser({ name: 'cy', role: 'viewer', source: 'oidc', passwordHash: null }, t0);
    await store.createSession('a', 'bob', t0, later(10_000));
    await store.createSession('b', 'bob', t0, later(10_000));
    await store.createSession('c', 'cy', t0, later(10_000));
    expect(Object.fromEntries(await store.sessionCounts(t0))).toEqual({ bob: 2, cy: 1 });
    expect(await store.deleteSessionsOf('bob')).toBe(2);
    expect(await store.sessionUser('a', t0)).toBeNull();
    expect(await store.sessionUser('c', t0)).not.toBeNull();
  });

  it('wall tokens: found by hash, first use told apart, revoked once, the hash never handed out', async () => {
    const tok = await store.createWallToken({ name: 'depot screen 2', tokenHash: 'H', routes: ['M15'], createdBy: 'admin' }, t0);
    expect(tok).toMatchObject({ name: 'depot screen 2', routes: ['M15'], lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(await store.wallTokens())).not.toContain('"H"');
    expect((await store.wallTokenByHash('H'))?.id).toBe(tok.id);
    expect(await store.touchWallToken(tok.id, later(1))).toBe(true);
    expect(await store.touchWallToken(tok.id, later(2))).toBe(false);
    expect((await store.wallTokenByHash('H'))?.lastUsedAt).toEqual(later(2));
    expect((await store.revokeWallToken(tok.id, 'admin', later(3)))?.revokedAt).toEqual(later(3));
    expect(await store.revokeWallToken(tok.id, 'admin', later(4))).toBeNull();
  });

  it('audit entries come back newest first, filtered by event', async () => {
    await store.audit({ event: 'sign-in.failed', actor: null, subject: 'ann', address: '10.0.0.1', detail: { reason: 'password' } }, t0);
    await store.audit({ event: 'sign-in.ok', actor: 'ann', subject: 'ann', address: '10.0.0.1', detail: null }, later(1));
    expect((await store.auditLog(10)).map((e) => e.event)).toEqual(['sign-in.ok', 'sign-in.failed']);
    expect((await store.auditLog(10, ['sign-in.failed']))[0]).toMatchObject({ subject: 'ann', detail: { reason: 'password' } });
  });

  it('throttle: a turn is taken in one statement; of parallel attempts past the free ones only one gets it', async () => {
    const policy = { free: 2, baseDelayMs: 1000, maxDelayMs: 60_000, forgetAfterMs: 3_600_000 };
    // The free turns: each counts, none waits.
    expect(await store.takeTurn('address:x', t0, policy)).toMatchObject({ failures: 1, blockedUntil: t0 });
    expect(await store.takeTurn('address:x', t0, policy)).toMatchObject({ failures: 2, blockedUntil: t0 });
    // Eight at once (as from parallel requests, or several instances): one takes the turn, which sets the wait;
    // the others find it set and are refused without being counted.
    const turns = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => store.takeTurn('address:x', t0, policy)));
    expect(turns.filter((t) => t !== null)).toEqual([{ key: 'address:x', failures: 3, lastFailureAt: t0, blockedUntil: later(1000) }]);
    expect(await store.takeTurn('address:x', later(999), policy)).toBeNull();
    expect(await store.takeTurn('address:x', later(1000), policy)).toMatchObject({ failures: 4, blockedUntil: later(3000) });
    // A turn given back (a right password) lowers the count, not the wait.
    await store.refund('address:x');
    expect(await store.throttle(['address:x', 'account:ann'])).toEqual([{ key: 'address:x', failures: 3, lastFailureAt: later(1000), blockedUntil: later(3000) }]);
    // An hour and more after the last failure, the count starts again, waiting or not.
    expect(await store.takeTurn('address:x', later(7_200_000), policy)).toMatchObject({ failures: 1 });
    await store.clearThrottle('address:x');
    expect(await store.throttle(['address:x'])).toEqual([]);
  });
});
