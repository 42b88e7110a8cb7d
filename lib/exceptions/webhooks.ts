import { logLine } from '@/lib/log';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EpochMs, FleetException, WebhookEventType, WebhookPayload, WebhookTestResult } from '@/lib/model';
import { SEVERITY_RANK } from '@/lib/model/exceptions';
import type { WebhookTarget } from './config';
import type { Transition } from './engine';
import type { DeliveryRow, ExceptionStore } from './store';

// Webhooks out: one delivery per target and transition, queued in the store, sent at least once. Signed as
// Stripe signs: `X-Fleetmap-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` with the target's secret;
// `X-Fleetmap-Delivery` carries the delivery's id, the same on every retry (a receiver drops what it has seen).
// A 2xx ends a delivery; a 5xx, 408, 429, a timeout or a refused connection tries again later (exponential backoff
// with jitter) for at most a day, then the delivery is dead and /status lists it; any other answer kills it at
// once (the receiver refuses it, and asking again changes nothing). Order is not kept: `sequence` lets the
// receiver order the transitions of one exception.

const EVENT: Partial<Record<Transition['type'], WebhookEventType>> = { opened: 'exception.opened', acknowledged: 'exception.acknowledged', resolved: 'exception.resolved' };

export const SIGNATURE_HEADER = 'X-Fleetmap-Signature';
export const DELIVERY_HEADER = 'X-Fleetmap-Delivery';
/** A receiver's answer is never logged or kept beyond this many characters. */
export const MAX_ANSWER_CHARS = 200;

export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * The receiver's check (docs/exceptions.md shows it on its own): the signature over "t.body" matches and t is
 * within `toleranceS` of now, which refuses a replayed old request.
 */
export function verifySignature(header: string | null, body: string, secret: string, nowS: number, toleranceS = 300): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowS - t) > toleranceS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function deliveryId(target: string, exceptionId: string, seq: number): string {
  return `dl_${createHash('sha256').update(`${target}\n${exceptionId}\n${seq}`).digest('hex').slice(0, 24)}`;
}

function wants(target: WebhookTarget, e: FleetException): boolean {
  return (target.rules.length === 0 || target.rules.includes(e.rule)) && SEVERITY_RANK[e.severity] >= SEVERITY_RANK[target.minSeverity];
}

/** The deliveries a transition makes: one per target that wants its rule and severity (snoozes are not sent). */
export function deliveriesFor(t: Transition, targets: readonly WebhookTarget[]): (DeliveryRow & { nextAt: EpochMs })[] {
  const type = EVENT[t.type];
  if (!type) return [];
  return targets
    .filter((target) => wants(target, t.exception))
    .map((target) => {
      const id = deliveryId(target.name, t.exception.id, t.exception.seq);
      const payload: WebhookPayload = { version: 1, type, id, occurredAt: new Date(t.at).toISOString(), sequence: t.exception.seq, exception: t.exception };
      return { id, target: target.name, exceptionId: t.exception.id, seq: t.exception.seq, type, body: JSON.stringify(payload), attempts: 0, createdAt: t.at, nextAt: t.at };
    });
}

export interface RetryPolicy {
  /** The first retry waits about this long; each later one twice the one before. */
  baseMs: number;
  /** No wait is longer than this. */
  capMs: number;
  /** A delivery older than this when its next try would come is dead. */
  maxAgeMs: number;
  /** A try that has no answer within this is a failure. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 10_000, capMs: 3_600_000, maxAgeMs: 24 * 3_600_000, timeoutMs: 5_000 };

/** The wait before try `attempts + 1`: exponential, times a jitter in [0.5, 1.5) so that retries spread out. */
export function backoffMs(attempts: number, policy: RetryPolicy, random: () => number): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exp * (0.5 + random()));
}

export interface DelivererOptions {
  store: ExceptionStore;
  targets: () => readonly WebhookTarget[];
  now?: () => EpochMs;
  retry?: RetryPolicy;
  random?: () => number;
  fetchImpl?: typeof fetch;
  /** How often the queue is looked at. */
  pollMs?: number;
  log?: (line: Record<string, unknown>) => void;
  /** Told each attempt's result (the exceptions service passes it on to its listeners: lib/metrics). */
  onResult?: (result: DeliveryResult) => void;
}

type Outcome = { ok: true; status: number } | { ok: false; retry: boolean; status: number | null; error: string };

/** Why a try had no answer: the timeout, else the connection's error code and message. */
function failureOf(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string } };
  const timeout = err.name === 'TimeoutError' || err.name === 'AbortError';
  return timeout ? `no answer within ${timeoutMs / 1000} s` : `${err.cause?.code ?? err.name}: ${err.message}`.slice(0, MAX_ANSWER_CHARS);
}

function post(fetchImpl: typeof fetch, target: WebhookTarget, d: { id: string; type: string; body: string }, t: number, timeoutMs: number): Promise<Response> {
  return fetchImpl(target.url, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
    headers: { 'Content-Type': 'application/json', 'User-Agent': 'Fleetmap-Webhooks/1', [SIGNATURE_HEADER]: signature(target.secret, t, d.body), [DELIVERY_HEADER]: d.id, 'X-Fleetmap-Event': d.type },
    body: d.body,
  });
}

/**
 * One signed test delivery (the admin page's "Send test"), sent at once and outside the queue: type
 * `webhook.test`, no exception. Answers with what the receiver said, its body cut to MAX_ANSWER_CHARS.
 */
export async function sendTestDelivery(target: WebhookTarget, now: EpochMs, fetchImpl: typeof fetch = fetch, timeoutMs = DEFAULT_RETRY.timeoutMs): Promise<WebhookTestResult> {
  const id = `dl_test_${randomBytes(9).toString('hex')}`;
  const body = JSON.stringify({ version: 1, type: 'webhook.test', id, occurredAt: new Date(now).toISOString(), target: target.name });
  try {
    const res = await post(fetchImpl, target, { id, type: 'webhook.test', body }, Math.floor(now / 1000), timeoutMs);
    const answer = (await res.text().catch(() => '')).slice(0, MAX_ANSWER_CHARS);
    return { delivery: id, status: res.status, ok: res.status >= 200 && res.status < 300, body: answer, error: null };
  } catch (e) {
    return { delivery: id, status: null, ok: false, body: '', error: failureOf(e, timeoutMs) };
  }
}

/** How a delivery attempt ended: sent, failed and queued again, or given up (dead). */
export type DeliveryResult = 'delivered' | 'failed' | 'dead';

/** Sends what the queue holds when it is due. One per deployment runs (the leader's). */
export class Deliverer {
  private readonly now: () => EpochMs;
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch;
  private readonly log: (line: Record<string, unknown>) => void;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<number> | null = null;
  private closed = false;

  constructor(private readonly o: DelivererOptions) {
    this.now = o.now ?? Date.now;
    this.retry = o.retry ?? DEFAULT_RETRY;
    this.random = o.random ?? Math.random;
    this.fetchImpl = o.fetchImpl ?? fetch;
    this.log = o.log ?? logLine('info');
  }

  start(): void {
    const tick = () => {
      if (this.closed) return;
      this.runOnce()
        .catch((e: unknown) => this.log({ msg: 'webhook queue failed', error: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(tick, this.o.pollMs ?? 1_000);
        });
    };
    tick();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => 0);
  }

  /** Sends every due delivery once; how many were tried. */
  runOnce(): Promise<number> {
    this.running ??= this.sendDue().finally(() => (this.running = null));
    return this.running;
  }

  private tell(result: DeliveryResult): void {
    try {
      this.o.onResult?.(result);
    } catch {
      // A listener's bug must not stop the queue.
    }
  }

  private async sendDue(): Promise<number> {
    const due = await this.o.store.due(this.now(), 50);
    const targets = new Map(this.o.targets().map((t) => [t.name, t]));
    await Promise.all(due.map((d) => this.deliver(d, targets.get(d.target))));
    return due.length;
  }

  private async deliver(d: DeliveryRow, target: WebhookTarget | undefined): Promise<void> {
    const attempts = d.attempts + 1;
    if (!target) {
      await this.o.store.dead(d.id, d.attempts, null, 'The target is no longer configured.', this.now());
      return;
    }
    const outcome = await this.send(d, target);
    const now = this.now();
    if (outcome.ok) {
      await this.o.store.delivered(d.id, attempts, outcome.status, now);
      this.tell('delivered');
      return;
    }
    const nextAt = now + backoffMs(attempts, this.retry, this.random);
    const dies = !outcome.retry || nextAt - d.createdAt > this.retry.maxAgeMs;
    this.tell(dies ? 'dead' : 'failed');
    this.log({ msg: dies ? 'webhook delivery dead' : 'webhook delivery failed', target: target.name, delivery: d.id, attempts, status: outcome.status, error: outcome.error });
    if (dies) await this.o.store.dead(d.id, attempts, outcome.status, outcome.error, now);
    else await this.o.store.retryLater(d.id, attempts, outcome.status, outcome.error, nextAt);
  }

  private async send(d: DeliveryRow, target: WebhookTarget): Promise<Outcome> {
    const t = Math.floor(this.now() / 1000);
    try {
      const res = await post(this.fetchImpl, target, { id: d.id, type: d.type, body: d.body }, t, this.retry.timeoutMs);
      if (res.status >= 200 && res.status < 300) {
        await res.body?.cancel();
        return { ok: true, status: res.status };
      }
      const answer = (await res.text().catch(() => '')).slice(0, MAX_ANSWER_CHARS);
      const retry = res.status >= 500 || res.status === 408 || res.status === 429;
      return { ok: false, retry, status: res.status, error: `HTTP ${res.status}${answer ? `: ${answer}` : ''}` };
    } catch (e) {
      return { ok: false, retry: true, status: null, error: failureOf(e, this.retry.timeoutMs) };
    }
  }
}
