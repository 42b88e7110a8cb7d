import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachStore, type TestStore } from '@/lib/testing/store';
import { authConfig } from './config';
import { AuthService, SESSION_COOKIE, WALL_COOKIE } from './service';
import { hashPassword, needsRehash, verifyPassword } from './secrets';
import { AuthStore } from './store';

const PASSWORD = 'a long enough password';
const ctx = { actor: 'cli', address: null };

describeEachStore('AuthService', (target) => {
  let opened: TestStore;
  let store: AuthStore;
  let clock: number;
  let service: AuthService;
  beforeEach(async () => {
    opened = await target.open();
    store = new AuthStore(opened.db);
    clock = Date.parse('2026-03-04T10:00:00Z');
    service = new AuthService(authConfig({ AUTH_MODE: 'local' }), store, () => new Date(clock));
    await service.putLocalUser('ann', 'dispatcher', PASSWORD, ctx);
  });
  afterEach(async () => opened.dispose());

  const cookieOf = (session: string) => (name: string) => (name === SESSION_COOKIE ? session : undefined);

  it('signs in with the right password; the session names the user and role; sign-out ends it', async () => {
    const r = await service.signInLocal('ann', PASSWORD, '10.0.0.1');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(await service.principal(cookieOf(r.session))).toMatchObject({ kind: 'user', name: 'ann', role: 'dispatcher' });
    await service.signOut(r.session, { actor: 'ann', address: '10.0.0.1' });
    expect(await service.principal(cookieOf(r.session))).toEqual({ kind: 'anonymous', revokedWall: false });
    // The store never holds the session id itself.
    expect(JSON.stringify(await store.auditLog(50))).not.toContain(r.session);
  });

  it('wrong passwords: refused alike for unknown names, then throttled with a growing wait, audited', async () => {
    expect(await service.signInLocal('nobody', PASSWORD, '10.0.0.1')).toMatchObject({ ok: false, status: 401, message: 'The name or the password is wrong.' });
    const waits: Array<number | undefined> = [];
    for (let i = 0; i < 5; i++) {
      const r = await service.signInLocal('ann', 'wrong password!!', '10.0.0.2');
      expect(r).toMatchObject({ ok: false, status: 401 });
      const wait = r.ok ? undefined : r.retryAfterS;
      waits.push(wait);
      clock += (wait ?? 0) * 1000;
    }
    expect(waits).toEqual([undefined, undefined, undefined, 1, 2]);
    // During the wait even the right password is refused, without being checked.
    clock -= 1000;
    const blocked = await service.signInLocal('ann', 'wrong password!!', '10.0.0.2');
    expect(blocked).toMatchObject({ ok: false, status: 429, retryAfterS: 1 });
    expect(await service.signInLocal('ann', PASSWORD, '10.0.0.2')).toMatchObject({ ok: false, status: 429 });
    clock += 1000;
    expect((await service.signInLocal('ann', PASSWORD, '10.0.0.2')).ok).toBe(true);
    const events = (await store.auditLog(50)).map((e) => e.event);
    expect(events.filter((e) => e === 'sign-in.failed')).toHaveLength(6);
    expect(events.filter((e) => e === 'sign-in.throttled')).toHaveLength(2);
    expect(events).toContain('sign-in.throttled');
    expect(events[0]).toBe('sign-in.ok');
  });

  it('an address that fails across many accounts waits too, even for a good password', async () => {
    // Ten free failures per address (an office shares one), each on a different account so no account waits.
    for (let i = 0; i < 11; i++) expect(await service.signInLocal(`guess${i}`, 'wrong password!!', '10.9.9.9')).toMatchObject({ ok: false, status: 401 });
    expect(await service.signInLocal('ann', PASSWORD, '10.9.9.9')).toMatchObject({ ok: false, status: 429 });
    // Another address is not held up.
    expect((await service.signInLocal('ann', PASSWORD, '10.0.0.8')).ok).toBe(true);
  });

  it('parallel attempts under other names, from an address past its free failures, get one password checked', async () => {
    for (let i = 0; i < 10; i++) expect(await service.signInLocal(`guess${i}`, 'wrong password!!', '10.7.7.7')).toMatchObject({ ok: false, status: 401 });
    const failed = async () => (await store.auditLog(500, ['sign-in.failed'])).length;
    const before = await failed();
    // Twenty at once, each another name (no account waits its turn): the first to take the address's turn is
    // checked and sets the wait; none of the others is checked.
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => service.signInLocal(`other${i}`, 'wrong password!!', '10.7.7.7')));
    expect(burst.filter((r) => !r.ok && r.status === 401)).toHaveLength(1);
    expect(burst.filter((r) => !r.ok && r.status === 429)).toHaveLength(19);
    expect((await failed()) - before).toBe(1);
    // While the address waits, twenty more (the right password among them) check no password at all.
    const blocked = await Promise.all(Array.from({ length: 20 }, (_, i) => service.signInLocal(i === 0 ? 'ann' : `late${i}`, i === 0 ? PASSWORD : 'wrong password!!', '10.7.7.7')));
    expect(blocked.every((r) => !r.ok && r.status === 429 && r.code === 'throttled')).toBe(true);
    expect((await failed()) - before).toBe(1);
  });

  it('a password hashed with weaker scrypt parameters is hashed again at its next sign-in', async () => {
    const weak = await hashPassword(PASSWORD, { N: 2 ** 15, r: 8, p: 1 });
    await store.putUser({ name: 'old', role: 'viewer', source: 'local', passwordHash: weak }, new Date(clock));
    // A wrong password changes nothing.
    expect(await service.signInLocal('old', 'wrong password!!', '10.0.0.6')).toMatchObject({ ok: false, status: 401 });
    expect((await store.user('old'))?.passwordHash).toBe(weak);
    expect((await service.signInLocal('old', PASSWORD, '10.0.0.6')).ok).toBe(true);
    const upgraded = (await store.user('old'))!.passwordHash!;
    expect(upgraded).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(needsRehash(upgraded)).toBe(false);
    expect(await verifyPassword(PASSWORD, upgraded)).toBe(true);
    // The new hash signs in, and is not made again.
    expect((await service.signInLocal('old', PASSWORD, '10.0.0.6')).ok).toBe(true);
    expect((await store.user('old'))?.passwordHash).toBe(upgraded);
  });

  it('parallel guesses on one account are taken one after another, each counted', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => service.signInLocal('ann', 'wrong password!!', '10.0.0.3')));
    // Three free failures, the fourth sets a wait, and the two after it are refused unchecked.
    expect(results.filter((r) => !r.ok && r.status === 401)).toHaveLength(4);
    expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(2);
  });

  it('an admin signs a user out everywhere', async () => {
    const a = await service.signInLocal('ann', PASSWORD, '10.0.0.1');
    const b = await service.signInLocal('ann', PASSWORD, '10.0.0.4');
    if (!a.ok || !b.ok) throw new Error('sign-in failed');
    expect(await service.signOutEverywhere('ann', { actor: 'root', address: null })).toBe(2);
    expect((await service.principal(cookieOf(a.session))).kind).toBe('anonymous');
    expect((await service.principal(cookieOf(b.session))).kind).toBe('anonymous');
    expect((await store.auditLog(5))[0]).toMatchObject({ event: 'sessions.revoked', actor: 'root', subject: 'ann', detail: { sessions: 2 } });
  });

  it('a new password or role ends the sessions opened under the old one', async () => {
    const a = await service.signInLocal('ann', PASSWORD, '10.0.0.1');
    if (!a.ok) throw new Error('sign-in failed');
    expect(await service.putLocalUser('ann', 'viewer', 'another long password', ctx)).toBe('changed');
    expect((await service.principal(cookieOf(a.session))).kind).toBe('anonymous');
  });

  it('OIDC users: keyed on issuer and subject; remembered with the role the claims gave; no role, no session', async () => {
    const idp = 'https://idp.example';
    const r = await service.signInOidc({ issuer: idp, subject: 's-oscar', name: 'oscar' }, 'manager', '10.0.0.5', ['fleet-managers']);
    expect(r).toMatchObject({ ok: true, user: { name: 'oscar', role: 'manager' } });
    expect(await service.signInOidc({ issuer: idp, subject: 's-vic', name: 'vic' }, null, '10.0.0.5', ['sales'])).toMatchObject({ ok: false, status: 403 });
    // A provider identity calling itself like a local account gets an account of its own, never the local one.
    const taker = await service.signInOidc({ issuer: idp, subject: 's-other-ann', name: 'ann' }, 'admin', '10.0.0.5', ['fleet-admins']);
    expect(taker).toMatchObject({ ok: true, user: { role: 'admin' } });
    expect(taker.ok && taker.user.name).toMatch(/^ann-[0-9a-z]{8}$/);
    expect((await store.user('ann'))?.role).toBe('dispatcher');
  });

  it('two provider subjects with the same preferred_username are two accounts, each with its own role', async () => {
    const idp = 'https://idp.example';
    const first = await service.signInOidc({ issuer: idp, subject: 'sub-1', name: 'alex' }, 'viewer', '10.0.0.5', ['staff']);
    const second = await service.signInOidc({ issuer: idp, subject: 'sub-2', name: 'alex' }, 'admin', '10.0.0.5', ['fleet-admins']);
    if (!first.ok || !second.ok) throw new Error('sign-in failed');
    expect(first.user.name).toBe('alex');
    expect(second.user.name).not.toBe('alex');
    // The first one's session keeps the first one's role; the second's sign-in changed nothing of it.
    expect(await service.principal(cookieOf(first.session))).toMatchObject({ kind: 'user', name: 'alex', role: 'viewer' });
    expect(await service.principal(cookieOf(second.session))).toMatchObject({ kind: 'user', name: second.user.name, role: 'admin' });
    // The same subject comes back to the same account, and the same issuer's other subject to its own.
    const again = await service.signInOidc({ issuer: idp, subject: 'sub-2', name: 'alex' }, 'admin', '10.0.0.5', ['fleet-admins']);
    expect(again.ok && again.user.name).toBe(second.user.name);
    // The same subject at another issuer is another identity.
    const elsewhere = await service.signInOidc({ issuer: 'https://other-idp.example', subject: 'sub-1', name: 'alex' }, 'viewer', '10.0.0.5', []);
    expect(elsewhere.ok && elsewhere.user.name).not.toBe('alex');
  });

  it('wall tokens: first use audited once, revocation seen at once on this instance', async () => {
    const { token, row } = await service.createWallToken('depot screen 2', null, { actor: 'root', address: null });
    const wall = (name: string) => (name === WALL_COOKIE ? token : undefined);
    expect(await service.principal(wall)).toMatchObject({ kind: 'wall', name: 'depot screen 2' });
    clock += 120_000;
    expect(await service.principal(wall)).toMatchObject({ kind: 'wall' });
    expect((await store.auditLog(50)).filter((e) => e.event === 'token.first-use')).toHaveLength(1);
    expect((await service.wallTokens())[0]?.lastUsedAt).not.toBeNull();
    await service.revokeWallToken(row.id, { actor: 'root', address: null });
    expect(await service.principal(wall)).toEqual({ kind: 'anonymous', revokedWall: true });
    // Only the hash is kept: the token is nowhere in the store's answers.
    expect(JSON.stringify([await service.wallTokens(), await store.auditLog(50)])).not.toContain(token);
  });

  it('refuses weak passwords and odd names', async () => {
    await expect(service.putLocalUser('bob', 'viewer', 'short', ctx)).rejects.toThrow(/at least 10 characters/);
    await expect(service.putLocalUser('bo b', 'viewer', PASSWORD, ctx)).rejects.toThrow(/user name/);
  });
});
