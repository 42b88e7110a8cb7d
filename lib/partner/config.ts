import 'server-only';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createPartnerClient, DEFAULT_TIMEOUT_MS, normalizeBaseUrl, type PartnerClient, type ResponseInfo } from './client';
import { isValidTimeZone } from '@/lib/time/zone';
import type { TimeRule } from './time';

// The one place that reads the partner settings from the environment. The key stays in this module: the
// exported config never carries it, and createConfiguredClient hands it straight to the client.

export interface PartnerConfig {
  /** Normalized (no trailing slash). null while no upstream is configured and the embedded one is not up yet. */
  baseUrl: string | null;
  /** IANA zone of the upstream's timestamps (PARTNER_TIMEZONE); null = infer from the data. */
  timezone: string | null;
  timeoutMs: number;
  /** True when the base URL is the embedded simulator's rather than PARTNER_API_BASE_URL. */
  embedded: boolean;
}

export type PartnerConfigResult = { ok: true; config: PartnerConfig } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** Unset and blank are the same thing: an empty line in .env must not count as a setting. */
const optionalSetting = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z
  .object({
    PARTNER_API_BASE_URL: optionalSetting,
    PARTNER_API_KEY: optionalSetting,
    PARTNER_TIMEZONE: optionalSetting,
    PARTNER_TIMEOUT_MS: optionalSetting,
  })
  .superRefine((env, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    const url = env.PARTNER_API_BASE_URL;
    if (url !== undefined) {
      try {
        normalizeBaseUrl(url);
      } catch (e) {
        problem(`PARTNER_API_BASE_URL is invalid: ${describeUrlProblem(url, e)}`);
      }
    }
    if (env.PARTNER_API_KEY !== undefined && url === undefined) {
      problem('PARTNER_API_KEY is set but PARTNER_API_BASE_URL is not: set both to use a real upstream, or neither to use the embedded simulator.');
    }
    if (url !== undefined && env.PARTNER_API_KEY === undefined) {
      problem('PARTNER_API_BASE_URL is set but PARTNER_API_KEY is not: the upstream needs the integration key.');
    }
    if (env.PARTNER_API_KEY !== undefined && /\s/.test(env.PARTNER_API_KEY)) {
      problem('PARTNER_API_KEY contains whitespace inside it; an integration key is a single token.');
    }
    if (env.PARTNER_TIMEZONE !== undefined && !isValidTimeZone(env.PARTNER_TIMEZONE)) {
      problem(`PARTNER_TIMEZONE ${JSON.stringify(env.PARTNER_TIMEZONE.slice(0, 60))} is not a known IANA time zone (for example America/New_York or UTC).`);
    }
    const timeout = env.PARTNER_TIMEOUT_MS;
    if (timeout !== undefined && !(/^\d+$/.test(timeout) && Number(timeout) > 0 && Number.isSafeInteger(Number(timeout)))) {
      problem(`PARTNER_TIMEOUT_MS ${JSON.stringify(timeout.slice(0, 40))} is not a positive integer number of milliseconds.`);
    }
  });

function describeUrlProblem(url: string, e: unknown): string {
  const reason = e instanceof Error ? e.message : 'not a valid URL.';
  // Echo the URL only when it parses and carries no credentials; the reason alone is enough otherwise.
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return `${JSON.stringify(url.slice(0, 200))}: ${reason}`;
  } catch {
    // fall through
  }
  return reason;
}

/**
 * The embedded simulator as an upstream: started by server start because PARTNER_API_BASE_URL is unset, and held by
 * the application context (lib/server/context.ts), which hands it to the feed. Passed as a value, never kept here:
 * readPartnerConfig and createConfiguredClient use it when given it. Its key is not enumerable, so that a log or
 * a JSON answer that took the object in by mistake would not carry it.
 */
export interface EmbeddedUpstream {
  readonly baseUrl: string;
  readonly apiKey: string;
}

/** Checks and normalizes the embedded simulator's address and key (PARTNER_API_BASE_URL, when set, still wins). */
export function embeddedUpstream(upstream: { baseUrl: string; apiKey: string }): EmbeddedUpstream {
  const baseUrl = normalizeBaseUrl(upstream.baseUrl);
  if (typeof upstream.apiKey !== 'string' || upstream.apiKey.trim() === '') throw new TypeError('The embedded upstream needs an API key.');
  return Object.defineProperty({ baseUrl }, 'apiKey', { value: upstream.apiKey, enumerable: false, writable: false }) as EmbeddedUpstream;
}

/**
 * Which upstream this server reads, as a store that belongs to one records it (lib/history/upstream-identity.ts):
 * the base URL (or the embedded simulator) and a one-way fingerprint of the key, never the key.
 */
export interface UpstreamIdentity {
  upstream: string;
  keyFingerprint: string;
}

export const EMBEDDED_UPSTREAM = 'embedded simulator';

export function upstreamIdentity(env: Env = process.env): UpstreamIdentity {
  if (!isUpstreamConfigured(env)) return { upstream: EMBEDDED_UPSTREAM, keyFingerprint: 'embedded' };
  const r = readSettings(env, null);
  if (!r.ok || r.config.baseUrl === null || r.apiKey === null) throw new Error('The partner settings are invalid (start-up reports why).');
  // Salted with a fixed label: the fingerprint names a key for this purpose only, and no other hash of it matches.
  const keyFingerprint = createHash('sha256').update(`fleetmap store key fingerprint\n${r.apiKey}`).digest('base64url').slice(0, 22);
  // FLEETMAP_UPSTREAM_NAME names the upstream in place of its base URL, for instances that reach one upstream
  // through addresses of their own (an egress proxy per instance): the same name is the same upstream.
  const name = env.FLEETMAP_UPSTREAM_NAME?.trim();
  return { upstream: name || r.config.baseUrl, keyFingerprint };
}

/** True when a real upstream is configured through the environment (PARTNER_API_BASE_URL). */
export function isUpstreamConfigured(env: Env = process.env): boolean {
  return Boolean(env.PARTNER_API_BASE_URL?.trim());
}

function readSettings(env: Env, embedded: EmbeddedUpstream | null): { ok: true; config: PartnerConfig; apiKey: string | null } | { ok: false; problems: string[] } {
  const parsed = envSchema.safeParse({
    PARTNER_API_BASE_URL: env.PARTNER_API_BASE_URL,
    PARTNER_API_KEY: env.PARTNER_API_KEY,
    PARTNER_TIMEZONE: env.PARTNER_TIMEZONE,
    PARTNER_TIMEOUT_MS: env.PARTNER_TIMEOUT_MS,
  });
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => i.message) };
  const s = parsed.data;
  const timezone = s.PARTNER_TIMEZONE ?? null;
  const timeoutMs = s.PARTNER_TIMEOUT_MS === undefined ? DEFAULT_TIMEOUT_MS : Number(s.PARTNER_TIMEOUT_MS);
  if (s.PARTNER_API_BASE_URL !== undefined) {
    return {
      ok: true,
      config: { baseUrl: normalizeBaseUrl(s.PARTNER_API_BASE_URL), timezone, timeoutMs, embedded: false },
      apiKey: s.PARTNER_API_KEY ?? null,
    };
  }
  return {
    ok: true,
    config: { baseUrl: embedded?.baseUrl ?? null, timezone, timeoutMs, embedded: embedded !== null },
    apiKey: embedded?.apiKey ?? null,
  };
}

/** Validates the partner settings; each problem is one sentence naming the variable. Never includes the key. */
export function readPartnerConfig(env: Env = process.env, embedded: EmbeddedUpstream | null = null): PartnerConfigResult {
  const r = readSettings(env, embedded);
  return r.ok ? { ok: true, config: r.config } : r;
}

/** The configured time rule when PARTNER_TIMEZONE is set, else null (the feed infers an offset). */
export function configuredTimeRule(config: PartnerConfig): TimeRule | null {
  return config.timezone === null ? null : { kind: 'zone', zone: config.timezone };
}

/**
 * A client for the configured upstream (environment first, else the embedded simulator). Throws an Error
 * listing the problems when the settings are invalid, or saying so when no upstream is configured yet.
 */
export function createConfiguredClient(opts: {
  timeRule: () => TimeRule;
  onResponse?: (info: ResponseInfo) => void;
  fetch?: typeof fetch;
  env?: Env;
  /** The embedded simulator, when server start runs one (the application context's). */
  embedded?: EmbeddedUpstream | null;
}): PartnerClient {
  const r = readSettings(opts.env ?? process.env, opts.embedded ?? null);
  if (!r.ok) throw new Error(`Partner API settings are invalid: ${r.problems.join(' ')}`);
  if (r.config.baseUrl === null || r.apiKey === null) {
    throw new Error('No partner upstream is configured: set PARTNER_API_BASE_URL and PARTNER_API_KEY, or start the embedded simulator first.');
  }
  return createPartnerClient({
    baseUrl: r.config.baseUrl,
    apiKey: r.apiKey,
    timeoutMs: r.config.timeoutMs,
    timeRule: opts.timeRule,
    onResponse: opts.onResponse,
    fetch: opts.fetch,
  });
}
