import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import type { ExceptionFigures } from '@/lib/model/exceptions';

// The exceptions' tables in the shared store (lib/history owns the connection and the one migrations folder):
// every exception with its current state, every transition, each user's read marks, and the webhook queue.
// Instants are epoch milliseconds in bigint columns, as in lib/history.

const epochMs = (name: string) => bigint(name, { mode: 'number' });

export const exceptions = pgTable(
  'exceptions',
  {
    id: text('id').primaryKey(),
    /** Rule and subject (engine.ts keyOf): how many a key opened gives the next id. */
    key: text('key').notNull(),
    rule: text('rule').notNull(),
    severity: text('severity').notNull(),
    state: text('state').notNull(),
    busId: integer('bus_id'),
    tripId: epochMs('trip_id'),
    routeId: integer('route_id'),
    routeCode: text('route_code'),
    busName: text('bus_name'),
    figures: jsonb('figures').$type<ExceptionFigures>().notNull(),
    message: text('message').notNull(),
    since: epochMs('since').notNull(),
    openedAt: epochMs('opened_at').notNull(),
    acknowledgedAt: epochMs('acknowledged_at'),
    acknowledgedBy: text('acknowledged_by'),
    note: text('note'),
    snoozedUntil: epochMs('snoozed_until'),
    resolvedAt: epochMs('resolved_at'),
    seq: integer('seq').notNull(),
  },
  (t) => [index('exceptions_key').on(t.key), index('exceptions_opened_at').on(t.openedAt), index('exceptions_state').on(t.state)],
);

export const exceptionTransitions = pgTable(
  'exception_transitions',
  {
    exceptionId: text('exception_id').notNull(),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    at: epochMs('at').notNull(),
    actor: text('actor'),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.exceptionId, t.seq] })],
);

export const exceptionReads = pgTable(
  'exception_reads',
  {
    exceptionId: text('exception_id').notNull(),
    userName: text('user_name').notNull(),
    readAt: epochMs('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exceptionId, t.userName] })],
);

/** One row per webhook delivery; its id (X-Fleetmap-Delivery) is derived from target, exception and seq. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    target: text('target').notNull(),
    exceptionId: text('exception_id').notNull(),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    /** The payload as sent on every try (the signature's timestamp is made per try). */
    body: text('body').notNull(),
    state: text('state').notNull(),
    attempts: integer('attempts').notNull(),
    nextAt: epochMs('next_at').notNull(),
    createdAt: epochMs('created_at').notNull(),
    finishedAt: epochMs('finished_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
  },
  (t) => [index('webhook_deliveries_due').on(t.state, t.nextAt)],
);

/**
 * Webhook targets added in the admin page (ALERT_WEBHOOKS' stay in the environment). The secret is kept as given:
 * the service signs with it; the API shows it masked. `rules` null means every rule; removal keeps the row.
 */
export const webhookTargets = pgTable('webhook_targets', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  rules: jsonb('rules').$type<string[]>(),
  minSeverity: text('min_severity'),
  createdBy: text('created_by').notNull(),
  createdAt: epochMs('created_at').notNull(),
  removedAt: epochMs('removed_at'),
});
