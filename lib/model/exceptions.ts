// Exceptions as our API answers them (/api/exceptions) and the pages show them (the dispatcher's panel, the wall's
// counts, /status, /exceptions), and as webhooks carry them. The rules live in lib/exceptions, and
// docs/exceptions.md says what each means.
import type { EpochMs } from './transit';

/** One rule per condition, with a stable name (it appears in URLs, webhooks and configuration). */
export type ExceptionRule =
  | 'late'
  | 'early'
  | 'gps-lost'
  | 'ghost'
  | 'stopped'
  | 'off-route'
  | 'bunched'
  | 'gapped'
  /** The upstream is degraded, unauthorized, forbidden, rate-limited or unreachable. */
  | 'upstream'
  /** The key's whole per-minute limit is spent. */
  | 'budget'
  /** History is not being recorded. */
  | 'recorder'
  /** Several instances: this one lost the coordination service. */
  | 'coordination';

export const EXCEPTION_RULES: readonly ExceptionRule[] = [
  'late',
  'early',
  'gps-lost',
  'ghost',
  'stopped',
  'off-route',
  'bunched',
  'gapped',
  'upstream',
  'budget',
  'recorder',
  'coordination',
];

/** Rules about the integration itself rather than a bus, trip or route: shown on /status. */
export const INTEGRATION_RULES: readonly ExceptionRule[] = ['upstream', 'budget', 'recorder', 'coordination'];

export type ExceptionSeverity = 'info' | 'warning' | 'critical';
export const EXCEPTION_SEVERITIES: readonly ExceptionSeverity[] = ['info', 'warning', 'critical'];
/** Higher is more severe: for sorting and minimum severities. */
export const SEVERITY_RANK: Record<ExceptionSeverity, number> = { info: 0, warning: 1, critical: 2 };

export type ExceptionState = 'open' | 'acknowledged' | 'resolved';

/** What an exception is about; all null for integration rules. */
export interface ExceptionSubject {
  busId: number | null;
  tripId: number | null;
  routeId: number | null;
  routeCode: string | null;
  /** The bus's name as the upstream gives it (`#5412`), for people. */
  busName: string | null;
}

/**
 * The figures that made it: minutes late or early, metres off route, minutes stopped, seconds since the bus's last
 * fix, the headway ratio. Only the ones its rule reads are present.
 */
export interface ExceptionFigures {
  delayMinutes?: number;
  offRouteM?: number;
  stoppedMin?: number;
  gpsAgeS?: number;
  headwayRatio?: number;
}

export interface FleetException {
  /** Derived from the rule, the subject and how many times that pair opened before: the same on every instance. */
  id: string;
  rule: ExceptionRule;
  severity: ExceptionSeverity;
  state: ExceptionState;
  subject: ExceptionSubject;
  figures: ExceptionFigures;
  /** One sentence for people. */
  message: string;
  /** When the condition began (the hold time before it opened). */
  since: EpochMs;
  openedAt: EpochMs;
  acknowledgedAt: EpochMs | null;
  /** The user who acknowledged it (their login name). */
  acknowledgedBy: string | null;
  note: string | null;
  /** Hidden from the panel's unread and badge until then (dispatcher's choice); still open. */
  snoozedUntil: EpochMs | null;
  resolvedAt: EpochMs | null;
  /** 1 when it opened, +1 at every transition: a webhook receiver orders what it gets by it. */
  seq: number;
}

/** A live exception as one user sees it. */
export interface LiveException extends FleetException {
  /** This user has not yet seen it (per user, as Skate's notifications). */
  unread: boolean;
}

/** GET /api/exceptions (live): every open or acknowledged exception, and resolved ones of the last hour. */
export interface LiveExceptionsResponse {
  generatedAt: EpochMs;
  /** Whether this user may acknowledge and snooze (dispatcher and above). */
  canAct: boolean;
  exceptions: LiveException[];
  /** Open (not resolved) counts by rule, for the wall. */
  countsByRule: Partial<Record<ExceptionRule, number>>;
}

/** Time to acknowledge and to resolve, by rule, over a period (seconds; null when none). */
export interface ExceptionRuleTimes {
  rule: ExceptionRule;
  count: number;
  acknowledged: number;
  medianAckS: number | null;
  medianResolveS: number | null;
}

/** GET /api/exceptions?from=&to=: exceptions opened in the period. */
export interface ExceptionHistoryResponse {
  from: EpochMs;
  to: EpochMs;
  exceptions: FleetException[];
  byRule: ExceptionRuleTimes[];
  /** More were opened than the answer carries (the newest are kept). */
  truncated: boolean;
}

/** POST /api/exceptions/{id}: what a dispatcher does. */
export type ExceptionAction = { action: 'acknowledge'; note?: string } | { action: 'snooze'; minutes: number } | { action: 'read' };

export type WebhookEventType = 'exception.opened' | 'exception.acknowledged' | 'exception.resolved';

/** The body of every webhook (version 1). */
export interface WebhookPayload {
  version: 1;
  type: WebhookEventType;
  /** The delivery id, also in X-Fleetmap-Delivery: the same on every retry. */
  id: string;
  occurredAt: string;
  /** The exception's seq after this transition. */
  sequence: number;
  exception: FleetException;
}

/** A webhook delivery that gave up after its last try: /status lists them. */
export interface DeadDelivery {
  id: string;
  target: string;
  type: WebhookEventType;
  exceptionId: string;
  attempts: number;
  lastError: string | null;
  createdAt: EpochMs;
  diedAt: EpochMs;
}

/** GET /api/exceptions/deliveries (admins): the webhook queue by state, and the dead deliveries, newest first. */
export interface WebhookDeliveriesResponse {
  targets: number;
  byState: Record<string, number>;
  dead: DeadDelivery[];
}

/** A webhook target added in the admin page (GET /api/admin/webhooks): its secret only masked, never whole. */
export interface AdminWebhookTarget {
  id: number;
  url: string;
  /** The secret's last 4 characters behind dots: enough to tell two apart. */
  secretMasked: string;
  /** The rules it wants; null for every rule. */
  rules: ExceptionRule[] | null;
  /** The least severity it wants; null for every severity. */
  minSeverity: ExceptionSeverity | null;
  createdBy: string;
  createdAt: EpochMs;
  removedAt: EpochMs | null;
}

/** POST /api/admin/webhooks/{id}/test: what the receiver answered to one signed test delivery. */
export interface WebhookTestResult {
  delivery: string;
  /** The receiver's HTTP status; null when it did not answer (the error says why). */
  status: number | null;
  ok: boolean;
  /** The receiver's answer, at most 200 characters. */
  body: string;
  error: string | null;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round(s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2);
};

/** Time to acknowledge and to resolve per rule (seconds from opening), over the exceptions given. */
export function ruleTimesOf(list: readonly FleetException[]): ExceptionRuleTimes[] {
  const out: ExceptionRuleTimes[] = [];
  for (const rule of EXCEPTION_RULES) {
    const of = list.filter((e) => e.rule === rule);
    if (of.length === 0) continue;
    const ack = of.filter((e) => e.acknowledgedAt !== null).map((e) => (e.acknowledgedAt! - e.openedAt) / 1000);
    const res = of.filter((e) => e.resolvedAt !== null).map((e) => (e.resolvedAt! - e.openedAt) / 1000);
    out.push({ rule, count: of.length, acknowledged: ack.length, medianAckS: median(ack), medianResolveS: median(res) });
  }
  return out;
}

