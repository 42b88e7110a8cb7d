import 'server-only';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_REGULARITY, type RegularityConfig } from '@/lib/model/regularity';
import { LOG_LEVELS } from '@/lib/log';

// The app's own configuration (the feed's tuning knobs, delay thresholds, the history, regularity and operations
// settings). The upstream's settings (base URL, key, timezone, timeout) belong to lib/partner, sign-in's to lib/auth,
// the map's basemap to lib/map-style/config.ts; validateConfigAtStartup (lib/server/config-check.ts) checks them all.

type Env = Record<string, string | undefined>;

/** An unset or blank variable takes its default; anything else must parse. */
function numberVar(name: string, def: number, min: number, max: number, opts: { int?: boolean } = {}) {
  const num = z.coerce
    .number({ error: `${name} must be a number` })
    .refine((n) => Number.isFinite(n), `${name} must be a finite number`)
    .refine((n) => !opts.int || Number.isInteger(n), `${name} must be a whole number`)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), num.optional()).transform((v) => v ?? def);
}

/** A switch: unset, blank or 0 is off, 1 is on; anything else is refused with the variable's name. */
function switchVar(name: string) {
  return z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), z.enum(['0', '1'], { error: `${name} must be 1 (on) or 0 (off)` }).optional())
    .transform((v) => v === '1');
}

/** A file path; relative paths are taken from the directory the server starts in. */
const pathVar = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string()
    .transform((s) => resolve(s.trim()))
    .optional(),
).transform((v) => v ?? null);

const appConfigSchema = z.object({
  FEED_BUDGET_SHARE: numberVar('FEED_BUDGET_SHARE', 0.8, 0.1, 1),
  FEED_TRIPS_INTERVAL_S: numberVar('FEED_TRIPS_INTERVAL_S', 15, 1, 3600),
  FEED_BUSES_INTERVAL_S: numberVar('FEED_BUSES_INTERVAL_S', 180, 10, 86_400),
  FEED_ROUTES_INTERVAL_S: numberVar('FEED_ROUTES_INTERVAL_S', 600, 10, 86_400),
  FEED_PARKED_FLOOR_S: numberVar('FEED_PARKED_FLOOR_S', 1800, 10, 86_400),
  FEED_WATCH_TTL_S: numberVar('FEED_WATCH_TTL_S', 30, 1, 3600),
  FEED_DEGRADED_WINDOW_S: numberVar('FEED_DEGRADED_WINDOW_S', 120, 5, 3600),
  DELAY_LATE_MIN: numberVar('DELAY_LATE_MIN', 5, 1, 1440, { int: true }),
  DELAY_EARLY_MIN: numberVar('DELAY_EARLY_MIN', 1, 1, 1440, { int: true }),
  STALE_AFTER_S: numberVar('STALE_AFTER_S', 120, 5, 86_400),
});

export interface AppConfig {
  feed: {
    /** Share of the upstream per-minute limit the poller may spend (0.1..1). */
    budgetShare: number;
    tripsIntervalMs: number;
    busesIntervalMs: number;
    routesIntervalMs: number;
    /** Longest a bus without an active trip may go without a location refresh. */
    parkedFloorMs: number;
    watchTtlMs: number;
    /** How long the state stays `degraded` after an upstream error (the health's default when absent). */
    degradedWindowMs?: number;
  };
  delay: { lateMin: number; earlyMin: number };
  staleAfterS: number;
}

export type AppConfigResult = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

export function readAppConfig(env: Env = process.env): AppConfigResult {
  const parsed = appConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  const v = parsed.data;
  return {
    ok: true,
    config: {
      feed: {
        budgetShare: v.FEED_BUDGET_SHARE,
        tripsIntervalMs: v.FEED_TRIPS_INTERVAL_S * 1000,
        busesIntervalMs: v.FEED_BUSES_INTERVAL_S * 1000,
        routesIntervalMs: v.FEED_ROUTES_INTERVAL_S * 1000,
        parkedFloorMs: v.FEED_PARKED_FLOOR_S * 1000,
        watchTtlMs: v.FEED_WATCH_TTL_S * 1000,
        degradedWindowMs: v.FEED_DEGRADED_WINDOW_S * 1000,
      },
      delay: { lateMin: v.DELAY_LATE_MIN, earlyMin: v.DELAY_EARLY_MIN },
      staleAfterS: v.STALE_AFTER_S,
    },
  };
}

/** The validated app configuration; throws the same error as validateConfigAtStartup when it is invalid. */
export function appConfig(env: Env = process.env): AppConfig {
  const r = readAppConfig(env);
  if (!r.ok) throw configError(r.problems);
  return r.config;
}

/** The start-up error: one line per problem. */
export function configError(problems: string[]): Error {
  return new Error(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

/** Where history is kept and for how long (lib/history). Separate from AppConfig: only the server's start reads it. */
export interface HistoryConfig {
  /** PostgreSQL connection string (DATABASE_URL), or null for the embedded PGlite store. Never logged. */
  databaseUrl: string | null;
  /** FLEETMAP_DATA_DIR, absolute: the embedded store's directory. */
  dataDir: string;
  positionsDays: number;
  tripsDays: number;
  /** FLEETMAP_STORE_RESET=1: a store that belongs to another upstream is moved aside and started afresh. */
  storeReset: boolean;
  /** FLEETMAP_STORE_KEY_ROTATED=1: the key changed for the same upstream (same base URL); the store is kept. */
  storeKeyRotated: boolean;
}

const historyConfigSchema = z.object({
  DATABASE_URL: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      z
        .string()
        .trim()
        // The message never repeats the value: a connection string may carry a password.
        .refine((s) => {
          try {
            const u = new URL(s);
            return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
          } catch {
            return false;
          }
        }, 'DATABASE_URL must be a postgres:// or postgresql:// URL with a host (or unset for the embedded store)')
        .optional(),
    )
    .transform((v) => v ?? null),
  FLEETMAP_DATA_DIR: pathVar.transform((v) => v ?? resolve('data')),
  HISTORY_POSITIONS_DAYS: numberVar('HISTORY_POSITIONS_DAYS', 14, 1, 3650, { int: true }),
  HISTORY_TRIPS_DAYS: numberVar('HISTORY_TRIPS_DAYS', 400, 1, 36_500, { int: true }),
  FLEETMAP_STORE_RESET: switchVar('FLEETMAP_STORE_RESET'),
  FLEETMAP_STORE_KEY_ROTATED: switchVar('FLEETMAP_STORE_KEY_ROTATED'),
});

export type HistoryConfigResult = { ok: true; config: HistoryConfig } | { ok: false; problems: string[] };

export function readHistoryConfig(env: Env = process.env): HistoryConfigResult {
  const parsed = historyConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  const v = parsed.data;
  return {
    ok: true,
    config: {
      databaseUrl: v.DATABASE_URL,
      dataDir: v.FLEETMAP_DATA_DIR,
      positionsDays: v.HISTORY_POSITIONS_DAYS,
      tripsDays: v.HISTORY_TRIPS_DAYS,
      storeReset: v.FLEETMAP_STORE_RESET,
      storeKeyRotated: v.FLEETMAP_STORE_KEY_ROTATED,
    },
  };
}

/** The validated history configuration; throws the start-up error when it is invalid. */
export function historyConfig(env: Env = process.env): HistoryConfig {
  const r = readHistoryConfig(env);
  if (!r.ok) throw configError(r.problems);
  return r.config;
}

/** Service regularity (lib/regularity): the ghost rule and the headway classes. Pages and /api/headways read it. */
const regularityConfigSchema = z
  .object({
    GHOST_AFTER_S: numberVar('GHOST_AFTER_S', DEFAULT_REGULARITY.ghostAfterS, 30, 86_400),
    HEADWAY_BUNCHED_RATIO: numberVar('HEADWAY_BUNCHED_RATIO', DEFAULT_REGULARITY.bunchedRatio, 0.05, 0.95),
    HEADWAY_GAPPED_RATIO: numberVar('HEADWAY_GAPPED_RATIO', DEFAULT_REGULARITY.gappedRatio, 1.05, 10),
  });

export type RegularityConfigResult = { ok: true; config: RegularityConfig } | { ok: false; problems: string[] };

export function readRegularityConfig(env: Env = process.env): RegularityConfigResult {
  const parsed = regularityConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  const v = parsed.data;
  return { ok: true, config: { ghostAfterS: v.GHOST_AFTER_S, bunchedRatio: v.HEADWAY_BUNCHED_RATIO, gappedRatio: v.HEADWAY_GAPPED_RATIO } };
}

/** The validated regularity configuration; throws the start-up error when it is invalid. */
export function regularityConfig(env: Env = process.env): RegularityConfig {
  const r = readRegularityConfig(env);
  if (!r.ok) throw configError(r.problems);
  return r.config;
}

/** Running it as a service (lib/metrics, lib/log): who may scrape /metrics, and how much the log says. */
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface OpsConfig {
  /** The bearer token /metrics asks for; null: /metrics answers loopback callers only. */
  metricsToken: string | null;
  logLevel: LogLevel;
}

const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const opsConfigSchema = z.object({
  // The message never repeats the value: it is a secret.
  METRICS_TOKEN: z
    .preprocess(blankAsUnset, z.string().regex(/^[\x21-\x7e]{16,256}$/, 'METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces)').optional())
    .transform((v) => v ?? null),
  LOG_LEVEL: z
    .preprocess((v) => (typeof v === 'string' ? (v.trim().toLowerCase() || undefined) : v), z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).optional())
    .transform((v) => v ?? 'info'),
});

export type OpsConfigResult = { ok: true; config: OpsConfig } | { ok: false; problems: string[] };

export function readOpsConfig(env: Env = process.env): OpsConfigResult {
  const parsed = opsConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  return { ok: true, config: { metricsToken: parsed.data.METRICS_TOKEN, logLevel: parsed.data.LOG_LEVEL } };
}

/** The validated operations configuration; throws the start-up error when it is invalid. */
export function opsConfig(env: Env = process.env): OpsConfig {
  const r = readOpsConfig(env);
  if (!r.ok) throw configError(r.problems);
  return r.config;
}
