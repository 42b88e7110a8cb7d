import 'server-only';
import type { Role, Viewer } from '@/lib/model/access';
import type { AuthConfig } from './config';
import type { OidcRelyingParty } from './oidc';
import { hashPassword, needsRehash, newSecret, secretHash, verifyNothing, verifyPassword } from './secrets';
import type { AuditEvent, AuthStore, UserRow, WallTokenRow } from './store';
import { signInErrorSentence, type SignInErrorCode } from './sign-in-errors';
import { ACCOUNT_POLICY, ADDRESS_POLICY, accountKey, addressKey, waitMs } from './throttle';

// Who a request is, and every change to who may sign in: sessions, local passwords with throttling, OIDC users,
// wall tokens, and the audit log of all of it. One per server process (lib/auth/index.ts); its state lives in the
// store, so every instance answers the same, with at most CACHE_MS of delay for a sign-out made elsewhere.

export const SESSION_COOKIE = 'fleetmap_session';
export const WALL_COOKIE = 'fleetmap_wall';
/** How long a wall display keeps its cookie: browsers cap cookies at 400 days. */
export const WALL_COOKIE_MAX_AGE_S = 400 * 86_400;

export type Principal =
  /** AUTH_MODE=none: everyone may do everything. */
  | { kind: 'open' }
  | { kind: 'user'; name: string; role: Role; sessionHash: string }
  | { kind: 'wall'; id: number; name: string; routes: string[] | null }
  /** A GTFS-Realtime consumer's token (role feed): the feeds and nothing else. */
  | { kind: 'feed'; id: number; name: string }
  /** No valid session; `revokedWall` when the browser holds a wall token that was revoked. */
  | { kind: 'anonymous'; revokedWall: boolean };

/** Who an OpenID Connect provider says signed in: its issuer and subject, and the name the account prefers. */
export interface OidcSubject {
  issuer: string;
  subject: string;
  /** preferred_username, else a verified email, else the subject: a label, never the key. */
  name: string;
}

export type SignInResult =
  | { ok: true; session: string; user: { name: string; role: Role } }
  | { ok: false; status: 401 | 403 | 429; code: SignInErrorCode; message: string; retryAfterS?: number };

function refused(status: 401 | 403 | 429, code: SignInErrorCode, waitMs = 0): SignInResult & { ok: false } {
  const retryAfterS = waitMs > 0 ? Math.ceil(waitMs / 1000) : undefined;
  return { ok: false, status, code, message: signInErrorSentence(code, retryAfterS ?? null), ...(retryAfterS ? { retryAfterS } : {}) };
}

// A session or wall token resolved a moment ago is believed for this long: /api/live is polled every few seconds by
// every open page, and the store need not answer each poll. A sign-out made on another instance, or a revocation,
// takes effect within this delay.
const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;
// A wall token's last use is written at most this often (it is read by the admin page, to the minute).
const TOUCH_EVERY_MS = 60_000;

interface Cached<T> {
  value: T;
  at: number;
}

export interface AuditContext {
  actor: string | null;
  address: string | null;
}

export class AuthService {
  private readonly sessions = new Map<string, Cached<{ name: string; role: Role } | null>>();
  private readonly walls = new Map<string, Cached<WallTokenRow | null>>();
  private readonly touched = new Map<number, number>();
  private readonly signInQueue = new Map<string, Promise<unknown>>();

  constructor(
    readonly config: AuthConfig,
    private readonly storeOrNull: AuthStore | null,
    private readonly now: () => Date = () => new Date(),
    /** The OpenID Connect relying party (AUTH_MODE=oidc). */
    readonly oidc: OidcRelyingParty | null = null,
  ) {}

  private get store(): AuthStore {
    if (!this.storeOrNull) throw new Error('Sign-in needs the store, and none is open (AUTH_MODE=none)');
    return this.storeOrNull;
  }

  /** Who holds these cookies. */
  async principal(cookie: (name: string) => string | undefined): Promise<Principal> {
    if (this.config.mode === 'none') return { kind: 'open' };
    const session = cookie(SESSION_COOKIE);
    if (session) {
      const hash = secretHash(session);
      const user = await this.cached(this.sessions, hash, async () => {
        const r = await this.store.sessionUser(hash, this.now());
        return r ? { name: r.user.name, role: r.user.role } : null;
      });
      if (user) return { kind: 'user', ...user, sessionHash: hash };
    }
    const wall = cookie(WALL_COOKIE);
    if (wall) return this.wallPrincipal(wall);
    return { kind: 'anonymous', revokedWall: false };
  }

  /** A wall token (from the wall URL or the display's cookie); its first use and later uses are recorded. */
  async wallPrincipal(token: string, address: string | null = null): Promise<Principal> {
    const hash = secretHash(token);
    const row = await this.cached(this.walls, hash, () => this.store.wallTokenByHash(hash));
    // A feed token opens the feeds only (feedPrincipal), never a wall.
    if (!row || row.kind !== 'wall') return { kind: 'anonymous', revokedWall: false };
    if (row.revokedAt) return { kind: 'anonymous', revokedWall: true };
    const t = this.now().getTime();
    if (t - (this.touched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(row.id, t);
      if (await this.store.touchWallToken(row.id, this.now())) await this.audit('token.first-use', { actor: `wall:${row.name}`, address }, row.name, null);
    }
    return { kind: 'wall', id: row.id, name: row.name, routes: row.routes };
  }

  /** A feed token (from ?token= or a bearer header on a feed's URL); null when unknown, revoked or a wall's. */
  async feedPrincipal(token: string): Promise<Principal | null> {
    const hash = secretHash(token);
    const row = await this.cached(this.walls, hash, () => this.store.wallTokenByHash(hash));
    if (!row || row.kind !== 'feed' || row.revokedAt) return null;
    const t = this.now().getTime();
    if (t - (this.touched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(row.id, t);
      if (await this.store.touchWallToken(row.id, this.now())) await this.audit('token.first-use', { actor: `feed:${row.name}`, address: null }, row.name, null);
    }
    return { kind: 'feed', id: row.id, name: row.name };
  }

  viewer(p: Principal): Viewer | null {
    switch (p.kind) {
      case 'open':
        return { kind: 'open', role: 'admin', warning: this.config.warning };
      case 'user':
        return { kind: 'user', name: p.name, role: p.role, mode: this.config.mode === 'oidc' ? 'oidc' : 'local' };
      case 'wall':
        return { kind: 'wall', name: p.name, role: 'viewer', routes: p.routes };
      default:
        return null;
    }
  }

  // --- sign-in -------------------------------------------------------------------------------------------

  /**
   * A local account's sign-in. Attempts on one account are taken one after another on this instance, and every
   * failure is counted in the store before the next may start, so parallel guesses gain nothing.
   */
  signInLocal(name: string, password: string, address: string): Promise<SignInResult> {
    const key = accountKey(name);
    const run = (this.signInQueue.get(key) ?? Promise.resolve()).then(() => this.signInLocalNow(name, password, address));
    const settled = run.catch(() => undefined);
    this.signInQueue.set(key, settled);
    void settled.then(() => {
      if (this.signInQueue.get(key) === settled) this.signInQueue.delete(key);
    });
    return run;
  }

  private async signInLocalNow(name: string, password: string, address: string): Promise<SignInResult> {
    const now = this.now();
    const account = accountKey(name);
    const from = addressKey(address);
    // The address's turn, then the account's, each taken in one statement in the store before any password is
    // checked: parallel attempts (other names from one address, other instances) find the count already raised.
    const addressTurn = await this.store.takeTurn(from, now, ADDRESS_POLICY);
    const accountTurn = addressTurn && (await this.store.takeTurn(account, now, ACCOUNT_POLICY));
    if (!addressTurn || !accountTurn) {
      if (addressTurn) await this.store.refund(from);
      const wait = Math.max(1000, ...(await this.store.throttle([account, from])).map((r) => waitMs(r, now)));
      await this.audit('sign-in.throttled', { actor: null, address }, name, { waitS: Math.ceil(wait / 1000) });
      return refused(429, 'throttled', wait);
    }
    const user = await this.store.user(name);
    const ok = user?.source === 'local' && user.passwordHash ? await verifyPassword(password, user.passwordHash) : await verifyNothing(password);
    if (!ok || !user) {
      const next = Math.max(waitMs(addressTurn, now), waitMs(accountTurn, now));
      await this.audit('sign-in.failed', { actor: null, address }, name, { reason: user ? 'password' : 'unknown account', failures: accountTurn.failures });
      return refused(401, 'credentials', next);
    }
    // The right password: its turn was no failure.
    await this.store.clearThrottle(account);
    await this.store.refund(from);
    // A hash made with weaker parameters than today's is made again now, while the password is at hand.
    if (needsRehash(user.passwordHash!)) await this.store.replacePasswordHash(user.name, user.passwordHash!, await hashPassword(password), this.now());
    return this.startSession(user, { actor: user.name, address }, { method: 'password' });
  }

  /**
   * An OpenID Connect sign-in the provider vouched for: the account is the provider's subject (issuer and `sub`),
   * remembered with the role its claims gave. Its name here is the one it prefers when no other account holds it,
   * else that name with a short mark of the subject: two identities that call themselves alike are two accounts.
   */
  async signInOidc(identity: OidcSubject, role: Role | null, address: string, groups: string[]): Promise<SignInResult> {
    const name = identity.name;
    if (!role) {
      await this.audit('sign-in.failed', { actor: null, address }, name, { reason: 'no role in the claims', groups: groups.join(' ').slice(0, 200) });
      return refused(403, 'no-role');
    }
    const subject = `${identity.issuer} ${identity.subject}`;
    const now = this.now();
    let existing = await this.store.userBySubject(subject);
    // An account from before subjects were kept, under the name this identity prefers: the first to come back binds it.
    if (!existing && (await this.store.bindSubject(name, subject, now))) existing = await this.store.user(name);
    const accountName = existing?.name ?? (await this.freeName(name, subject));
    const change = await this.store.putUser({ name: accountName, role, source: 'oidc', passwordHash: null, oidcSubject: subject }, now);
    if (change === 'added' || existing?.role !== role) await this.audit(change === 'added' ? 'user.added' : 'user.changed', { actor: accountName, address }, accountName, { role, source: 'oidc' });
    return this.startSession({ name: accountName, role }, { actor: accountName, address }, { method: 'oidc' });
  }

  /** `name` when no account holds it, else `name-<8 hex of the subject>` (the same each time for the same subject). */
  private async freeName(name: string, subject: string): Promise<string> {
    if (!(await this.store.user(name))) return name;
    const marked = `${name.slice(0, 55)}-${secretHash(subject).replace(/[^a-zA-Z0-9]/g, '').slice(0, 8).toLowerCase()}`;
    if (!(await this.store.user(marked))) return marked;
    throw new Error(`No free account name for ${name}`);
  }

  private async startSession(user: Pick<UserRow, 'name' | 'role'>, ctx: AuditContext, detail: Record<string, string>): Promise<SignInResult> {
    const session = newSecret();
    const now = this.now();
    await this.store.createSession(secretHash(session), user.name, now, new Date(now.getTime() + this.config.sessionTtlMs));
    await this.audit('sign-in.ok', ctx, user.name, { ...detail, role: user.role });
    if (Math.random() < 0.05) await this.store.deleteExpiredSessions(now);
    return { ok: true, session, user: { name: user.name, role: user.role } };
  }

  async signOut(session: string, ctx: AuditContext): Promise<void> {
    const hash = secretHash(session);
    const user = (await this.store.sessionUser(hash, this.now()))?.user.name ?? null;
    await this.store.deleteSession(hash);
    this.sessions.delete(hash);
    if (user) await this.audit('sign-out', { ...ctx, actor: user }, user, null);
  }

  /** An admin ends every session of a user, on every instance (within CACHE_MS elsewhere). */
  async signOutEverywhere(userName: string, ctx: AuditContext): Promise<number> {
    const n = await this.store.deleteSessionsOf(userName);
    for (const [hash, c] of this.sessions) if (c.value?.name === userName) this.sessions.delete(hash);
    await this.audit('sessions.revoked', ctx, userName, { sessions: n });
    return n;
  }

  // --- users (the CLI and the admin page) ----------------------------------------------------------------

  async putLocalUser(name: string, role: Role, password: string, ctx: AuditContext): Promise<'added' | 'changed'> {
    const problem = userNameProblem(name) ?? passwordProblem(password);
    if (problem) throw new Error(problem);
    const existing = await this.store.user(name);
    if (existing && existing.source !== 'local') throw new Error(`${name} signs in through the identity provider; its role comes from there`);
    const change = await this.store.putUser({ name, role, source: 'local', passwordHash: await hashPassword(password) }, this.now());
    // A new password or role ends the sessions opened under the old ones.
    if (change === 'changed') await this.store.deleteSessionsOf(name);
    await this.audit(change === 'added' ? 'user.added' : 'user.changed', ctx, name, { role, source: 'local' });
    return change;
  }

  async removeUser(name: string, ctx: AuditContext): Promise<boolean> {
    const removed = await this.store.removeUser(name);
    if (removed) await this.audit('user.removed', ctx, name, null);
    return removed;
  }

  async users(): Promise<Array<Omit<UserRow, 'passwordHash'> & { sessions: number }>> {
    const counts = await this.store.sessionCounts(this.now());
    return (await this.store.users()).map(({ passwordHash: _secret, ...u }) => ({ ...u, sessions: counts.get(u.name) ?? 0 }));
  }

  // --- wall tokens ---------------------------------------------------------------------------------------

  /** A new wall token; the secret is returned this once (to the admin who asked) and only its hash is kept. */
  async createWallToken(name: string, routes: string[] | null, ctx: AuditContext & { actor: string }, kind: 'wall' | 'feed' = 'wall'): Promise<{ token: string; row: WallTokenRow }> {
    const token = newSecret();
    const row = await this.store.createWallToken({ kind, name, tokenHash: secretHash(token), routes: kind === 'feed' ? null : routes, createdBy: ctx.actor }, this.now());
    await this.audit('token.created', ctx, name, { id: row.id, kind, routes: routes?.join(',') ?? null });
    return { token, row };
  }

  wallTokens(): Promise<WallTokenRow[]> {
    return this.store.wallTokens();
  }

  async revokeWallToken(id: number, ctx: AuditContext & { actor: string }): Promise<WallTokenRow | null> {
    const row = await this.store.revokeWallToken(id, ctx.actor, this.now());
    if (row) {
      this.walls.clear();
      await this.audit('token.revoked', ctx, row.name, { id });
    }
    return row;
  }

  // --- audit ---------------------------------------------------------------------------------------------

  auditLog(limit = 200) {
    return this.store.auditLog(limit);
  }

  private async audit(event: AuditEvent, ctx: AuditContext, subject: string | null, detail: Record<string, string | number | boolean | null> | null) {
    await this.store.audit({ event, actor: ctx.actor, subject, address: ctx.address, detail }, this.now());
  }

  private async cached<T>(map: Map<string, Cached<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const t = Date.now();
    const hit = map.get(key);
    if (hit && t - hit.at < CACHE_MS) return hit.value;
    const value = await load();
    if (map.size >= CACHE_MAX) map.clear();
    map.set(key, { value, at: t });
    return value;
  }
}

export function userNameProblem(name: string): string | null {
  return /^[\w.@-]{1,64}$/.test(name) ? null : 'A user name is 1 to 64 letters, digits, or . _ @ -';
}

export function passwordProblem(password: string): string | null {
  if (password.length < 10) return 'A password needs at least 10 characters';
  if (password.length > 1024) return 'A password may have at most 1024 characters';
  return null;
}

