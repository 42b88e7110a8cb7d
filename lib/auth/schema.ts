import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Sign-in's tables in the shared store (lib/history owns the connection and the one migrations folder). Secrets
// are never stored as given: session ids and wall tokens as SHA-256 hashes, passwords as scrypt hashes.

export const authUsers = pgTable('auth_users', {
  name: text('name').primaryKey(),
  role: text('role').notNull(),
  /** 'local' (a password here) or 'oidc' (seen at an OpenID Connect sign-in; its role comes from the claims). */
  source: text('source').notNull(),
  passwordHash: text('password_hash'),
  /**
   * An OpenID Connect account's identity at its provider: `<issuer> <sub>`, the one pair a provider guarantees
   * unique and stable. The name is only what the account is called here (preferred_username, or a verified email).
   */
  oidcSubject: text('oidc_subject').unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const authSessions = pgTable(
  'auth_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userName: text('user_name')
      .notNull()
      .references(() => authUsers.name, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userName), index('auth_sessions_expires_idx').on(t.expiresAt)],
);

export const authWallTokens = pgTable('auth_wall_tokens', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** `wall`: a wall display's token; `feed`: a GTFS-Realtime consumer's (role feed: reads the feeds and nothing else). */
  kind: text('kind').$type<'wall' | 'feed'>().notNull().default('wall'),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  /** Route names the display is limited to (the wall's ?routes=); null for the whole network. */
  routes: jsonb('routes').$type<string[] | null>(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  revokedBy: text('revoked_by'),
});

export const authAudit = pgTable(
  'auth_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    event: text('event').notNull(),
    /** Who acted: a user name, `wall:<token name>`, `cli`, or null for an anonymous attempt. */
    actor: text('actor'),
    /** What it was about: a user name or a wall token's name. */
    subject: text('subject'),
    address: text('address'),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [index('auth_audit_at_idx').on(t.at)],
);

/** Failed sign-ins per account (`account:<name>`) and per address (`address:<ip>`), shared by every instance. */
export const authSignInThrottle = pgTable('auth_sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }).notNull(),
});
