import 'server-only';
import { and, desc, eq, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Role } from '@/lib/model/access';
import { authAudit, authSessions, authSignInThrottle, authUsers, authWallTokens } from './schema';
import { delayAfter, type ThrottlePolicy, type ThrottleRow } from './throttle';

export type { ThrottleRow };

// Sign-in's rows in the shared store, through drizzle: the same code on embedded PGlite and on PostgreSQL, so that
// several instances share users, sessions, wall tokens, throttling and the audit log.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AuthDb = PgDatabase<PgQueryResultHKT, any>;

export interface UserRow {
  name: string;
  role: Role;
  source: 'local' | 'oidc';
  passwordHash: string | null;
  /** OpenID Connect accounts: `<issuer> <sub>` (null for local accounts, and for those seen before it was kept). */
  oidcSubject: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WallTokenRow {
  id: number;
  /** `wall` (a wall display) or `feed` (a GTFS-Realtime consumer). */
  kind: 'wall' | 'feed';
  name: string;
  routes: string[] | null;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

export interface AuditEntry {
  id: number;
  at: Date;
  event: AuditEvent;
  actor: string | null;
  subject: string | null;
  address: string | null;
  detail: Record<string, string | number | boolean | null> | null;
}

export type AuditEvent =
  | 'sign-in.ok'
  | 'sign-in.failed'
  | 'sign-in.throttled'
  | 'sign-out'
  | 'sessions.revoked'
  | 'token.created'
  | 'token.revoked'
  | 'token.first-use'
  | 'user.added'
  | 'user.changed'
  | 'user.removed'
  /** lib/exceptions: a person acknowledged or snoozed an exception (subject: its id). */
  | 'exception.acknowledged'
  | 'exception.snoozed';

export class AuthStore {
  constructor(private readonly db: AuthDb) {}

  // --- users ---------------------------------------------------------------------------------------------
  async user(name: string): Promise<UserRow | null> {
    const rows = await this.db.select().from(authUsers).where(eq(authUsers.name, name)).limit(1);
    return (rows[0] as UserRow | undefined) ?? null;
  }

  async userBySubject(oidcSubject: string): Promise<UserRow | null> {
    const rows = await this.db.select().from(authUsers).where(eq(authUsers.oidcSubject, oidcSubject)).limit(1);
    return (rows[0] as UserRow | undefined) ?? null;
  }

  /** Binds an OpenID Connect account seen before subjects were kept to the subject now signing in under its name. */
  async bindSubject(name: string, oidcSubject: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(authUsers)
      .set({ oidcSubject, updatedAt: now })
      .where(and(eq(authUsers.name, name), eq(authUsers.source, 'oidc'), isNull(authUsers.oidcSubject)))
      .returning({ name: authUsers.name });
    return rows.length > 0;
  }

  async users(): Promise<UserRow[]> {
    return (await this.db.select().from(authUsers).orderBy(authUsers.name)) as UserRow[];
  }

  /** Inserts or replaces a user; returns whether it existed before. */
  async putUser(u: { name: string; role: Role; source: 'local' | 'oidc'; passwordHash: string | null; oidcSubject?: string | null }, now: Date): Promise<'added' | 'changed'> {
    const before = await this.user(u.name);
    await this.db
      .insert(authUsers)
      .values({ ...u, oidcSubject: u.oidcSubject ?? before?.oidcSubject ?? null, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: authUsers.name, set: { role: u.role, source: u.source, passwordHash: u.passwordHash, updatedAt: now } });
    return before ? 'changed' : 'added';
  }

  /** A new hash of the same password (stronger parameters), unless the password changed meanwhile. */
  async replacePasswordHash(name: string, before: string, after: string, now: Date): Promise<void> {
    await this.db
      .update(authUsers)
      .set({ passwordHash: after, updatedAt: now })
      .where(and(eq(authUsers.name, name), eq(authUsers.passwordHash, before)));
  }

  async removeUser(name: string): Promise<boolean> {
    const rows = await this.db.delete(authUsers).where(eq(authUsers.name, name)).returning({ name: authUsers.name });
    return rows.length > 0;
  }

  // --- sessions ------------------------------------------------------------------------------------------
  async createSession(idHash: string, userName: string, now: Date, expiresAt: Date): Promise<void> {
    await this.db.insert(authSessions).values({ idHash, userName, createdAt: now, expiresAt });
  }

  /** The session's user, when the session exists and has not expired. */
  async sessionUser(idHash: string, now: Date): Promise<{ user: UserRow; expiresAt: Date } | null> {
    const rows = await this.db
      .select({ user: authUsers, expiresAt: authSessions.expiresAt })
      .from(authSessions)
      .innerJoin(authUsers, eq(authSessions.userName, authUsers.name))
      .where(and(eq(authSessions.idHash, idHash), gt(authSessions.expiresAt, now)))
      .limit(1);
    const r = rows[0];
    return r ? { user: r.user as UserRow, expiresAt: r.expiresAt } : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.delete(authSessions).where(eq(authSessions.idHash, idHash));
  }

  /** Signs a user out everywhere; returns how many sessions ended. */
  async deleteSessionsOf(userName: string): Promise<number> {
    const rows = await this.db.delete(authSessions).where(eq(authSessions.userName, userName)).returning({ h: authSessions.idHash });
    return rows.length;
  }

  async sessionCounts(now: Date): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ userName: authSessions.userName, n: sql<number>`count(*)::int` })
      .from(authSessions)
      .where(gt(authSessions.expiresAt, now))
      .groupBy(authSessions.userName);
    return new Map(rows.map((r) => [r.userName, Number(r.n)]));
  }

  async deleteExpiredSessions(now: Date): Promise<void> {
    await this.db.delete(authSessions).where(lt(authSessions.expiresAt, now));
  }

  // --- wall tokens ---------------------------------------------------------------------------------------
  async createWallToken(t: { kind?: 'wall' | 'feed'; name: string; tokenHash: string; routes: string[] | null; createdBy: string }, now: Date): Promise<WallTokenRow> {
    const rows = await this.db.insert(authWallTokens).values({ ...t, createdAt: now }).returning();
    return publicToken(rows[0]!);
  }

  async wallTokens(): Promise<WallTokenRow[]> {
    return (await this.db.select().from(authWallTokens).orderBy(desc(authWallTokens.createdAt), desc(authWallTokens.id))).map(publicToken);
  }

  async wallTokenByHash(tokenHash: string): Promise<WallTokenRow | null> {
    const rows = await this.db.select().from(authWallTokens).where(eq(authWallTokens.tokenHash, tokenHash)).limit(1);
    return rows[0] ? publicToken(rows[0]) : null;
  }

  /** Records a use; returns true when it was the token's first. */
  async touchWallToken(id: number, now: Date): Promise<boolean> {
    const first = await this.db
      .update(authWallTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(authWallTokens.id, id), isNull(authWallTokens.lastUsedAt)))
      .returning({ id: authWallTokens.id });
    if (first.length > 0) return true;
    await this.db.update(authWallTokens).set({ lastUsedAt: now }).where(eq(authWallTokens.id, id));
    return false;
  }

  async revokeWallToken(id: number, by: string, now: Date): Promise<WallTokenRow | null> {
    const rows = await this.db
      .update(authWallTokens)
      .set({ revokedAt: now, revokedBy: by })
      .where(and(eq(authWallTokens.id, id), isNull(authWallTokens.revokedAt)))
      .returning();
    return rows[0] ? publicToken(rows[0]) : null;
  }

  // --- audit ---------------------------------------------------------------------------------------------
  async audit(e: Omit<AuditEntry, 'id' | 'at'>, now: Date): Promise<void> {
    await this.db.insert(authAudit).values({ ...e, at: now });
  }

  async auditLog(limit: number, events?: AuditEvent[]): Promise<AuditEntry[]> {
    const q = this.db.select().from(authAudit);
    const rows = await (events && events.length > 0 ? q.where(inArray(authAudit.event, events)) : q).orderBy(desc(authAudit.id)).limit(limit);
    return rows as AuditEntry[];
  }

  // --- sign-in throttling --------------------------------------------------------------------------------
  async throttle(keys: string[]): Promise<ThrottleRow[]> {
    if (keys.length === 0) return [];
    return (await this.db.select().from(authSignInThrottle).where(inArray(authSignInThrottle.key, keys))) as ThrottleRow[];
  }

  /**
   * Takes a turn for `key` in one statement, or refuses it: the attempt is counted as a failure before any password
   * is checked (a success gives it back: `refund`), and the wait it sets holds for every attempt that comes after,
   * on any instance. Counting first is what makes parallel attempts wait their turn: an attempt that read the
   * count and wrote its failure after the password check let every attempt in flight meanwhile be checked.
   * Returns the row as the turn left it, or null when the key must still wait (nothing was counted then).
   */
  async takeTurn(key: string, now: Date, policy: ThrottlePolicy): Promise<ThrottleRow | null> {
    const t = authSignInThrottle;
    const nowIso = now.toISOString();
    const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs).toISOString();
    const failures = sql`case when ${t.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${t.failures} + 1 end`;
    const rows = await this.db
      .insert(t)
      .values({ key, failures: 1, lastFailureAt: now, blockedUntil: new Date(now.getTime() + delayAfter(1, policy)) })
      .onConflictDoUpdate({
        target: t.key,
        set: { failures, lastFailureAt: now, blockedUntil: sql`${nowIso}::timestamptz + ${waitSql(failures, policy)} * interval '1 millisecond'` },
        setWhere: sql`${t.blockedUntil} <= ${nowIso}::timestamptz or ${t.lastFailureAt} < ${forgetBefore}::timestamptz`,
      })
      .returning();
    return (rows[0] as ThrottleRow | undefined) ?? null;
  }

  /** Gives back a turn that checked no password, or whose password was right (the count only, not the wait). */
  async refund(key: string): Promise<void> {
    const t = authSignInThrottle;
    await this.db
      .update(t)
      .set({ failures: sql`${t.failures} - 1` })
      .where(and(eq(t.key, key), gt(t.failures, 0)));
  }

  async clearThrottle(key: string): Promise<void> {
    await this.db.delete(authSignInThrottle).where(eq(authSignInThrottle.key, key));
  }
}

/** delayAfter in SQL, for the count `failures` (an expression): 0 for the free ones, then doubling up to the cap. */
function waitSql(failures: SQL, p: ThrottlePolicy): SQL {
  return sql`(case when ${failures} > ${p.free} then least(${p.maxDelayMs}::float8, ${p.baseDelayMs}::float8 * power(2, ${failures} - ${p.free} - 1)) else 0 end)`;
}

function publicToken(r: typeof authWallTokens.$inferSelect): WallTokenRow {
  // The hash stays in the store: nothing outside needs it, and a page must never show it.
  return { id: r.id, kind: r.kind, name: r.name, routes: r.routes ?? null, createdBy: r.createdBy, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt, revokedBy: r.revokedBy };
}
