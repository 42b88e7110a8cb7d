import 'server-only';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { authAudit } from '@/lib/auth/schema';
import type { AdminWebhookTarget, DeadDelivery, EpochMs, ExceptionRule, ExceptionSeverity, ExceptionState, FleetException, WebhookEventType } from '@/lib/model';
import { keyOf, type Transition } from './engine';
import type { StoredWebhookTarget } from './config';
import { exceptionReads, exceptionTransitions, exceptions, webhookDeliveries, webhookTargets } from './schema';

// The exceptions' rows in the shared store, through drizzle: the same code on PGlite and PostgreSQL. Writes are
// idempotent (an exception's id and a delivery's id are derived, and inserts do nothing on a conflict), so an
// instance that takes over after a failover and writes again what the old leader wrote adds nothing twice.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ExceptionsDb = PgDatabase<PgQueryResultHKT, any>;

type Row = typeof exceptions.$inferSelect;

export function exceptionOf(r: Row): FleetException {
  return {
    id: r.id,
    rule: r.rule as ExceptionRule,
    severity: r.severity as ExceptionSeverity,
    state: r.state as ExceptionState,
    subject: { busId: r.busId, tripId: r.tripId, routeId: r.routeId, routeCode: r.routeCode, busName: r.busName },
    figures: r.figures,
    message: r.message,
    since: r.since,
    openedAt: r.openedAt,
    acknowledgedAt: r.acknowledgedAt,
    acknowledgedBy: r.acknowledgedBy,
    note: r.note,
    snoozedUntil: r.snoozedUntil,
    resolvedAt: r.resolvedAt,
    seq: r.seq,
  };
}

function rowOf(e: FleetException): Row {
  return {
    id: e.id,
    key: keyOf(e),
    rule: e.rule,
    severity: e.severity,
    state: e.state,
    busId: e.subject.busId,
    tripId: e.subject.tripId,
    routeId: e.subject.routeId,
    routeCode: e.subject.routeCode,
    busName: e.subject.busName,
    figures: e.figures,
    message: e.message,
    since: e.since,
    openedAt: e.openedAt,
    acknowledgedAt: e.acknowledgedAt,
    acknowledgedBy: e.acknowledgedBy,
    note: e.note,
    snoozedUntil: e.snoozedUntil,
    resolvedAt: e.resolvedAt,
    seq: e.seq,
  };
}

/** A delivery waiting in the queue. */
export interface DeliveryRow {
  id: string;
  target: string;
  exceptionId: string;
  seq: number;
  type: WebhookEventType;
  body: string;
  attempts: number;
  createdAt: EpochMs;
}

export class ExceptionStore {
  constructor(readonly db: ExceptionsDb) {}

  /** Exceptions not yet resolved, oldest first. */
  async unresolved(): Promise<FleetException[]> {
    const rows = await this.db.select().from(exceptions).where(ne(exceptions.state, 'resolved')).orderBy(asc(exceptions.openedAt));
    return rows.map(exceptionOf);
  }

  /**
   * Exceptions not yet resolved that someone acknowledged or snoozed: the only rows whose seq passed 1 (an exception
   * opens at 1 and only a person's action counts it up before it resolves). The leader takes them into its engine.
   */
  async actedOn(): Promise<FleetException[]> {
    const rows = await this.db.select().from(exceptions).where(and(ne(exceptions.state, 'resolved'), gt(exceptions.seq, 1)));
    return rows.map(exceptionOf);
  }

  /** How many exceptions each key opened. */
  async occurrences(): Promise<Map<string, number>> {
    const rows = await this.db.select({ key: exceptions.key, n: sql<number>`count(*)::int` }).from(exceptions).groupBy(exceptions.key);
    return new Map(rows.map((r) => [r.key, Number(r.n)]));
  }

  async byId(id: string): Promise<FleetException | null> {
    const rows = await this.db.select().from(exceptions).where(eq(exceptions.id, id));
    return rows[0] ? exceptionOf(rows[0]) : null;
  }

  /**
   * Records what the engine did: a new exception is inserted (nothing happens when its id exists: another instance
   * wrote it), a resolution moves the row to resolved in one statement that counts its seq on from the row's (an
   * acknowledgement written meanwhile by another instance keeps its place), and each gets its transition row.
   * Returns the transitions that were new to the store, as the store holds them.
   */
  async record(transitions: readonly Transition[]): Promise<Transition[]> {
    const fresh: Transition[] = [];
    for (const t of transitions) {
      const e = t.exception;
      let stored: FleetException | null = null;
      if (t.type === 'opened') {
        const rows = await this.db.insert(exceptions).values(rowOf(e)).onConflictDoNothing().returning();
        stored = rows[0] ? exceptionOf(rows[0]) : null;
      } else if (t.type === 'resolved') {
        const rows = await this.db
          .update(exceptions)
          .set({ state: 'resolved', resolvedAt: e.resolvedAt, figures: e.figures, message: e.message, seq: sql`${exceptions.seq} + 1` })
          .where(and(eq(exceptions.id, e.id), ne(exceptions.state, 'resolved')))
          .returning();
        stored = rows[0] ? exceptionOf(rows[0]) : null;
      }
      if (!stored) continue;
      await this.db.insert(exceptionTransitions).values({ exceptionId: e.id, seq: stored.seq, type: t.type, at: t.at, actor: t.user ?? null, note: t.note ?? null }).onConflictDoNothing();
      fresh.push({ ...t, exception: stored });
    }
    return fresh;
  }

  /**
   * A person acknowledges: the row moves from open to acknowledged in one statement (so two dispatchers at once
   * acknowledge it once), and the audit log says who. Null when it is not open.
   */
  async acknowledge(id: string, user: string, note: string | null, now: EpochMs, address: string | null): Promise<Transition | null> {
    const rows = await this.db
      .update(exceptions)
      .set({ state: 'acknowledged', acknowledgedAt: now, acknowledgedBy: user, note, seq: sql`${exceptions.seq} + 1` })
      .where(and(eq(exceptions.id, id), eq(exceptions.state, 'open')))
      .returning();
    if (!rows[0]) return null;
    const e = exceptionOf(rows[0]);
    await this.db.insert(exceptionTransitions).values({ exceptionId: id, seq: e.seq, type: 'acknowledged', at: now, actor: user, note }).onConflictDoNothing();
    await this.db.insert(authAudit).values({ at: new Date(now), event: 'exception.acknowledged', actor: user, subject: id, address, detail: { rule: e.rule, note } });
    return { type: 'acknowledged', at: now, exception: e, user, note };
  }

  async snooze(id: string, until: EpochMs, user: string, now: EpochMs, address: string | null): Promise<Transition | null> {
    const rows = await this.db
      .update(exceptions)
      .set({ snoozedUntil: until, seq: sql`${exceptions.seq} + 1` })
      .where(and(eq(exceptions.id, id), ne(exceptions.state, 'resolved')))
      .returning();
    if (!rows[0]) return null;
    const e = exceptionOf(rows[0]);
    await this.db.insert(exceptionTransitions).values({ exceptionId: id, seq: e.seq, type: 'snoozed', at: now, actor: user, note: null }).onConflictDoNothing();
    await this.db.insert(authAudit).values({ at: new Date(now), event: 'exception.snoozed', actor: user, subject: id, address, detail: { rule: e.rule, until: new Date(until).toISOString() } });
    return { type: 'snoozed', at: now, exception: e, user };
  }

  /** Exceptions resolved since `since` (the live list keeps them an hour). */
  async resolvedSince(since: EpochMs): Promise<FleetException[]> {
    const rows = await this.db.select().from(exceptions).where(and(eq(exceptions.state, 'resolved'), gte(exceptions.resolvedAt, since))).orderBy(desc(exceptions.resolvedAt)).limit(500);
    return rows.map(exceptionOf);
  }

  /** Exceptions opened in [from, to), newest first, at most `limit` (+1 to tell truncation). */
  async openedBetween(from: EpochMs, to: EpochMs, limit: number): Promise<FleetException[]> {
    const rows = await this.db.select().from(exceptions).where(and(gte(exceptions.openedAt, from), lt(exceptions.openedAt, to))).orderBy(desc(exceptions.openedAt)).limit(limit);
    return rows.map(exceptionOf);
  }

  async markRead(ids: readonly string[], user: string, now: EpochMs): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .insert(exceptionReads)
      .values(ids.map((exceptionId) => ({ exceptionId, userName: user, readAt: now })))
      .onConflictDoNothing();
  }

  async readBy(user: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: exceptionReads.exceptionId }).from(exceptionReads).where(and(eq(exceptionReads.userName, user), inArray(exceptionReads.exceptionId, [...ids])));
    return new Set(rows.map((r) => r.id));
  }

  // --- the webhook queue ------------------------------------------------------------------------------------

  async enqueue(rows: readonly (DeliveryRow & { nextAt: EpochMs })[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insert(webhookDeliveries)
      .values(rows.map((r) => ({ ...r, state: 'pending', attempts: r.attempts, finishedAt: null, lastStatus: null, lastError: null })))
      .onConflictDoNothing();
  }

  async due(now: EpochMs, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAt, now)))
      .orderBy(asc(webhookDeliveries.nextAt))
      .limit(limit);
    return rows.map((r) => ({ ...r, type: r.type as WebhookEventType }));
  }

  /** When the next pending delivery is due, or null. */
  async nextDueAt(): Promise<EpochMs | null> {
    const rows = await this.db.select({ at: sql<string>`min(${webhookDeliveries.nextAt})` }).from(webhookDeliveries).where(eq(webhookDeliveries.state, 'pending'));
    const at = rows[0]?.at;
    return at === null || at === undefined ? null : Number(at);
  }

  async delivered(id: string, attempts: number, status: number, now: EpochMs): Promise<void> {
    await this.db.update(webhookDeliveries).set({ state: 'delivered', attempts, lastStatus: status, lastError: null, finishedAt: now }).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'pending')));
  }

  async retryLater(id: string, attempts: number, status: number | null, error: string, nextAt: EpochMs): Promise<void> {
    await this.db.update(webhookDeliveries).set({ attempts, lastStatus: status, lastError: error, nextAt }).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'pending')));
  }

  async dead(id: string, attempts: number, status: number | null, error: string, now: EpochMs): Promise<void> {
    await this.db.update(webhookDeliveries).set({ state: 'dead', attempts, lastStatus: status, lastError: error, finishedAt: now }).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'pending')));
  }

  async deadDeliveries(limit: number): Promise<DeadDelivery[]> {
    const rows = await this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.state, 'dead')).orderBy(desc(webhookDeliveries.finishedAt)).limit(limit);
    return rows.map((r) => ({ id: r.id, target: r.target, type: r.type as WebhookEventType, exceptionId: r.exceptionId, attempts: r.attempts, lastError: r.lastError, createdAt: r.createdAt, diedAt: r.finishedAt ?? r.createdAt }));
  }

  async deliveryStates(): Promise<Record<string, number>> {
    const rows = await this.db.select({ state: webhookDeliveries.state, n: sql<number>`count(*)::int` }).from(webhookDeliveries).groupBy(webhookDeliveries.state);
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  /** The admin page's targets still in use, oldest first, secrets whole (the deliverer signs with them). */
  async activeWebhookTargets(): Promise<StoredWebhookTarget[]> {
    const rows = await this.db.select().from(webhookTargets).where(isNull(webhookTargets.removedAt)).orderBy(asc(webhookTargets.id));
    return rows.map((r) => ({ id: r.id, url: r.url, secret: r.secret, rules: (r.rules as ExceptionRule[] | null) ?? null, minSeverity: (r.minSeverity as ExceptionSeverity | null) ?? null }));
  }

  /** One target, removed or not, secret whole; null when there is none. */
  async webhookTarget(id: number): Promise<StoredWebhookTarget | null> {
    const r = (await this.db.select().from(webhookTargets).where(eq(webhookTargets.id, id)))[0];
    return r && r.removedAt === null ? { id: r.id, url: r.url, secret: r.secret, rules: (r.rules as ExceptionRule[] | null) ?? null, minSeverity: (r.minSeverity as ExceptionSeverity | null) ?? null } : null;
  }

  /** Every target the admin page added (the removed too, with when), newest first, secrets masked. */
  async webhookTargetList(): Promise<AdminWebhookTarget[]> {
    const rows = await this.db.select().from(webhookTargets).orderBy(desc(webhookTargets.id)).limit(500);
    return rows.map(adminTargetOf);
  }

  async addWebhookTarget(t: Omit<StoredWebhookTarget, 'id'>, actor: string, address: string | null, now: EpochMs): Promise<AdminWebhookTarget> {
    const [row] = await this.db.insert(webhookTargets).values({ url: t.url, secret: t.secret, rules: t.rules, minSeverity: t.minSeverity, createdBy: actor, createdAt: now }).returning();
    await this.db.insert(authAudit).values({ at: new Date(now), event: 'webhook.added', actor, subject: urlLabel(t.url), address, detail: { id: row!.id, rules: t.rules?.join(',') ?? 'all', minSeverity: t.minSeverity } });
    return adminTargetOf(row!);
  }

  /** Removes a target (its queued deliveries die at their next try); null when there is none or it is gone already. */
  async removeWebhookTarget(id: number, actor: string, address: string | null, now: EpochMs): Promise<AdminWebhookTarget | null> {
    const [row] = await this.db.update(webhookTargets).set({ removedAt: now }).where(and(eq(webhookTargets.id, id), isNull(webhookTargets.removedAt))).returning();
    if (!row) return null;
    await this.db.insert(authAudit).values({ at: new Date(now), event: 'webhook.removed', actor, subject: urlLabel(row.url), address, detail: { id } });
    return adminTargetOf(row);
  }
}

/** A URL for the audit log: without its query, which may carry a token. */
function urlLabel(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export function maskSecret(secret: string): string {
  return `••••${secret.slice(-4)}`;
}

function adminTargetOf(r: typeof webhookTargets.$inferSelect): AdminWebhookTarget {
  return {
    id: r.id,
    url: r.url,
    secretMasked: maskSecret(r.secret),
    rules: (r.rules as ExceptionRule[] | null) ?? null,
    minSeverity: (r.minSeverity as ExceptionSeverity | null) ?? null,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    removedAt: r.removedAt,
  };
}
