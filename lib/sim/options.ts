import { z } from 'zod';
import { isValidTimeZone } from '../time/zone';
import { demoKeys, parseKeysJson, type ApiKey } from './keys';
import type { NetworkData } from './network';
import type { ResetAtUnit } from './rate-limit';

// The simulator's options, and the SIM_* environment variables that set them (validated with one clear line per
// problem).

export interface SimulatorOptions {
  /** Seed of every random choice (fleet, timetable, delays, GPS). Default 42. */
  seed?: number;
  /** Fleet size (1..10000); default: what the real weekday timetable needs plus ~10% spares. */
  buses?: number;
  /** Sim time runs this many times faster than real time (0 freezes it). Default 1. */
  speed?: number;
  /** IANA zone of the wall clock written in timestamps. Default America/New_York. */
  timezone?: string;
  /** Requests per minute per key for the demo keys. Default 300. */
  rateLimit?: number;
  /** Replaces the demo keys. */
  keys?: ApiKey[];
  /** Serve /__admin endpoints. Default false. */
  admin?: boolean;
  /** A network in the file format; default the bundled Manhattan network. */
  network?: NetworkData;
  /** Unit of meta.rate_limit.reset_at. Default epoch-s. */
  resetAt?: ResetAtUnit;
  /** Sim time at start, epoch ms. Default: now. */
  startAt?: number;
  /** The real clock, epoch ms (tests inject one). Default Date.now. */
  now?: () => number;
  /** Length of a rate-limit window, ms (tests shorten it). Default 60,000. */
  rateWindowMs?: number;
}

type Env = Record<string, string | undefined>;

const intIn = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be an integer from ${min} to ${max}`);

const flag = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['1', '0', 'true', 'false', 'yes', 'no', ''].includes(v), `${name} must be 1 or 0`)
    .transform((v) => v === '1' || v === 'true' || v === 'yes');

const envSchema = z.object({
  SIM_SEED: intIn('SIM_SEED', 0, 4_294_967_295).optional(),
  SIM_BUSES: intIn('SIM_BUSES', 1, 10_000).optional(),
  SIM_SPEED: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'SIM_SPEED must be a number from 0 to 10000 (0 freezes the clock)')
    .transform(Number)
    .refine((n) => n <= 10_000, 'SIM_SPEED must be a number from 0 to 10000 (0 freezes the clock)')
    .optional(),
  SIM_TIMEZONE: z
    .string()
    .trim()
    .refine(isValidTimeZone, 'SIM_TIMEZONE must be an IANA time zone such as America/New_York')
    .optional(),
  SIM_RATE_LIMIT: intIn('SIM_RATE_LIMIT', 1, 1_000_000).optional(),
  SIM_KEYS: z.string().optional(),
  SIM_ADMIN: flag('SIM_ADMIN').optional(),
  SIM_RESET_AT: z.enum(['epoch-s', 'epoch-ms', 'delta-s'], { error: 'SIM_RESET_AT must be epoch-s, epoch-ms or delta-s' }).optional(),
  SIM_START_AT: z
    .string()
    .trim()
    .transform((v) => (/^\d+$/.test(v) ? Number(v) : Date.parse(v)))
    .refine((t) => Number.isFinite(t) && t >= Date.UTC(2020, 0, 2), 'SIM_START_AT must be an ISO date-time (e.g. 2026-03-04T08:00:00-05:00) or epoch ms, from 2020-01-02 on')
    .optional(),
});

const runnerSchema = z.object({
  SIM_PORT: intIn('SIM_PORT', 0, 65_535).optional(),
  SIM_EXIT_AFTER_S: intIn('SIM_EXIT_AFTER_S', 1, 31_536_000).optional(),
  SIM_EXIT_WITH_PARENT: flag('SIM_EXIT_WITH_PARENT').optional(),
});

function present(env: Env, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v.trim() !== '') out[n] = v;
  }
  return out;
}

function fail(error: z.ZodError): never {
  throw new Error(`Invalid simulator configuration:\n${error.issues.map((i) => `- ${i.message}`).join('\n')}`);
}

/** Simulator options from SIM_* variables. Throws an Error listing every problem. */
export function simOptionsFromEnv(env: Env = process.env): SimulatorOptions {
  const parsed = envSchema.safeParse(present(env, Object.keys(envSchema.shape)));
  if (!parsed.success) fail(parsed.error);
  const e = parsed.data;
  const rateLimit = e.SIM_RATE_LIMIT ?? 300;
  let keys: ApiKey[];
  try {
    keys = e.SIM_KEYS ? parseKeysJson(e.SIM_KEYS, rateLimit) : demoKeys(rateLimit);
  } catch (err) {
    throw new Error(`Invalid simulator configuration:\n- ${(err as Error).message}`);
  }
  return {
    seed: e.SIM_SEED ?? 42,
    buses: e.SIM_BUSES,
    speed: e.SIM_SPEED ?? 1,
    timezone: e.SIM_TIMEZONE ?? 'America/New_York',
    rateLimit,
    keys,
    admin: e.SIM_ADMIN ?? false,
    resetAt: (e.SIM_RESET_AT ?? 'epoch-s') as ResetAtUnit,
    startAt: e.SIM_START_AT,
  };
}

export interface SimRunnerOptions {
  port: number;
  exitAfterS: number | null;
  exitWithParent: boolean;
}

/** Options of the stand-alone runner (scripts/data/sim.ts): SIM_PORT, SIM_EXIT_AFTER_S, SIM_EXIT_WITH_PARENT. */
export function simRunnerFromEnv(env: Env = process.env): SimRunnerOptions {
  const parsed = runnerSchema.safeParse(present(env, Object.keys(runnerSchema.shape)));
  if (!parsed.success) fail(parsed.error);
  return { port: parsed.data.SIM_PORT ?? 4010, exitAfterS: parsed.data.SIM_EXIT_AFTER_S ?? null, exitWithParent: parsed.data.SIM_EXIT_WITH_PARENT ?? false };
}
