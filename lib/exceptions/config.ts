import 'server-only';
import { isIP } from 'node:net';
import { z } from 'zod';
import { EXCEPTION_RULES, EXCEPTION_SEVERITIES, type ExceptionRule, type ExceptionSeverity } from '@/lib/model/exceptions';

// The exception rules' thresholds and hold times (ALERT_*), and the webhook targets of ALERT_WEBHOOKS. Validated at
// start-up with the rest of the configuration (validateConfigAtStartup, lib/server/config-check.ts): a bad target stops the
// server with one sentence that names it.

type Env = Record<string, string | undefined>;

export interface RuleThresholds {
  /** late: a trip at or past this many minutes late. */
  lateMin: number;
  /** early: a trip at or past this many minutes early. */
  earlyMin: number;
  /** gps-lost: the bus's own fix is this old when the feed asks for it. */
  gpsLostS: number;
  /** stopped: no more than STOPPED_RADIUS_M moved for this long. */
  stoppedMin: number;
  /** off-route: two fixes in a row this far from the trip's route. */
  offRouteM: number;
  /** A condition opens an exception once it held this long, and it resolves once clear this long. */
  holdS: number;
  /** early's hold (a trip early at one stop is often on time at the next). */
  earlyHoldS: number;
  /** bunched and gapped's hold. */
  headwayHoldS: number;
}

export const DEFAULT_THRESHOLDS: RuleThresholds = { lateMin: 10, earlyMin: 3, gpsLostS: 300, stoppedMin: 5, offRouteM: 200, holdS: 60, earlyHoldS: 180, headwayHoldS: 120 };

export interface WebhookTarget {
  /** For people and logs: the configured name, else the URL without its query. */
  name: string;
  url: string;
  secret: string;
  /** The rules it wants; all when empty. */
  rules: ExceptionRule[];
  minSeverity: ExceptionSeverity;
}

export interface ExceptionsConfig {
  thresholds: RuleThresholds;
  webhooks: WebhookTarget[];
}

export const MIN_SECRET_LENGTH = 16;

const number = (name: string, def: number, min: number, max: number) =>
  z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error: `${name} must be a number` }).optional())
    .refine((n) => n === undefined || (Number.isFinite(n) && n >= min && n <= max), `${name} must be a number between ${min} and ${max}`)
    .transform((n) => n ?? def);

const D = DEFAULT_THRESHOLDS;
const thresholdsSchema = z.object({
  ALERT_LATE_MIN: number('ALERT_LATE_MIN', D.lateMin, 1, 1440),
  ALERT_EARLY_MIN: number('ALERT_EARLY_MIN', D.earlyMin, 1, 1440),
  ALERT_GPS_LOST_S: number('ALERT_GPS_LOST_S', D.gpsLostS, 30, 86_400),
  ALERT_STOPPED_MIN: number('ALERT_STOPPED_MIN', D.stoppedMin, 1, 1440),
  ALERT_OFF_ROUTE_M: number('ALERT_OFF_ROUTE_M', D.offRouteM, 20, 50_000),
  ALERT_HOLD_S: number('ALERT_HOLD_S', D.holdS, 0, 3600),
  ALERT_EARLY_HOLD_S: number('ALERT_EARLY_HOLD_S', D.earlyHoldS, 0, 3600),
  ALERT_HEADWAY_HOLD_S: number('ALERT_HEADWAY_HOLD_S', D.headwayHoldS, 0, 3600),
});

/** Loopback hosts may take plain http (a receiver on the same machine); every other target needs https. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

const targetSchema = z.strictObject({
  name: z.string().trim().min(1).max(80).optional(),
  url: z.string(),
  secret: z.string(),
  rules: z.array(z.enum(EXCEPTION_RULES as [ExceptionRule, ...ExceptionRule[]])).optional(),
  minSeverity: z.enum(EXCEPTION_SEVERITIES as [ExceptionSeverity, ...ExceptionSeverity[]]).optional(),
});

/** The target's name for messages: never its secret, never its query (which may carry a token). */
function targetLabel(raw: unknown, index: number): string {
  const o = (raw ?? {}) as { name?: unknown; url?: unknown };
  if (typeof o.name === 'string' && o.name.trim()) return `"${o.name.trim()}"`;
  if (typeof o.url === 'string') {
    try {
      const u = new URL(o.url);
      return `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      return `number ${index + 1}`;
    }
  }
  return `number ${index + 1}`;
}

/** One target, from the admin page or ALERT_WEBHOOKS: the target or one sentence saying what is wrong with it. */
export function parseWebhookTarget(raw: unknown, index = 0, source = 'ALERT_WEBHOOKS'): { ok: true; target: WebhookTarget } | { ok: false; problem: string } {
  const label = `${source} target ${targetLabel(raw, index)}`;
  const parsed = targetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `${label}: ${issue.path.join('.') || 'the target'} ${issue.message.replace(/^Invalid input: /, '').toLowerCase()}` };
  }
  const t = parsed.data;
  let url: URL;
  try {
    url = new URL(t.url);
  } catch {
    return { ok: false, problem: `${label}: the url is not a URL.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: `${label}: the url must be https (http only on loopback), not ${url.protocol.replace(/:$/, '')}.` };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return { ok: false, problem: `${label}: the url must be https; plain http is allowed only on loopback.` };
  if (url.username || url.password) return { ok: false, problem: `${label}: the url must not carry a user or password.` };
  if (t.secret.length < MIN_SECRET_LENGTH) return { ok: false, problem: `${label}: the secret must be at least ${MIN_SECRET_LENGTH} characters.` };
  return {
    ok: true,
    target: { name: t.name ?? `${url.protocol}//${url.host}${url.pathname}`, url: url.toString(), secret: t.secret, rules: t.rules ?? [], minSeverity: t.minSeverity ?? 'info' },
  };
}

/** A target as the admin page keeps it: rules null for every rule, minSeverity null for every severity. */
export interface StoredWebhookTarget {
  id: number;
  url: string;
  secret: string;
  rules: ExceptionRule[] | null;
  minSeverity: ExceptionSeverity | null;
}

/** The name a stored target goes by in the queue and the logs (its deliveries' ids derive from it). */
export const storedTargetName = (id: number) => `admin:${id}`;

/** A stored target as the deliverer reads it. */
export function targetOfStored(t: StoredWebhookTarget): WebhookTarget {
  return { name: storedTargetName(t.id), url: t.url, secret: t.secret, rules: t.rules ?? [], minSeverity: t.minSeverity ?? 'info' };
}

/** A new target from the admin page: the same checks as ALERT_WEBHOOKS', one sentence when one fails. */
export function parseAdminWebhookTarget(raw: unknown): { ok: true; target: Omit<StoredWebhookTarget, 'id'> } | { ok: false; problem: string } {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  if (!o) return { ok: false, problem: 'The body must be JSON: {"url": "https://...", "secret": "...", "rules": ["late"], "minSeverity": "warning"}.' };
  const clean = Object.fromEntries(Object.entries(o).filter(([k, v]) => !((k === 'rules' || k === 'minSeverity') && (v === null || (Array.isArray(v) && v.length === 0)))));
  const r = parseWebhookTarget(clean, 0, 'The webhook');
  if (!r.ok) return { ok: false, problem: r.problem };
  return { ok: true, target: { url: r.target.url, secret: r.target.secret, rules: clean.rules === undefined ? null : r.target.rules, minSeverity: clean.minSeverity === undefined ? null : r.target.minSeverity } };
}

function parseWebhooks(raw: string | undefined): { targets: WebhookTarget[]; problems: string[] } {
  if (raw === undefined || raw.trim() === '') return { targets: [], problems: [] };
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return { targets: [], problems: ['ALERT_WEBHOOKS must be a JSON array of {"url","secret","rules","minSeverity"} objects.'] };
  }
  if (!Array.isArray(list)) return { targets: [], problems: ['ALERT_WEBHOOKS must be a JSON array of {"url","secret","rules","minSeverity"} objects.'] };
  const targets: WebhookTarget[] = [];
  const problems: string[] = [];
  list.forEach((item, i) => {
    const r = parseWebhookTarget(item, i);
    if (r.ok) targets.push(r.target);
    else problems.push(r.problem);
  });
  return { targets, problems };
}

export type ExceptionsConfigResult = { ok: true; config: ExceptionsConfig } | { ok: false; problems: string[] };

export function readExceptionsConfig(env: Env = process.env): ExceptionsConfigResult {
  const problems: string[] = [];
  const parsed = thresholdsSchema.safeParse(env);
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message));
  const webhooks = parseWebhooks(env.ALERT_WEBHOOKS);
  problems.push(...webhooks.problems);
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const v = parsed.data;
  return {
    ok: true,
    config: {
      thresholds: {
        lateMin: v.ALERT_LATE_MIN,
        earlyMin: v.ALERT_EARLY_MIN,
        gpsLostS: v.ALERT_GPS_LOST_S,
        stoppedMin: v.ALERT_STOPPED_MIN,
        offRouteM: v.ALERT_OFF_ROUTE_M,
        holdS: v.ALERT_HOLD_S,
        earlyHoldS: v.ALERT_EARLY_HOLD_S,
        headwayHoldS: v.ALERT_HEADWAY_HOLD_S,
      },
      webhooks: webhooks.targets,
    },
  };
}

export function exceptionsConfig(env: Env = process.env): ExceptionsConfig {
  const r = readExceptionsConfig(env);
  if (!r.ok) throw new Error(`Invalid configuration:\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  return r.config;
}
