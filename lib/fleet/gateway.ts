import 'server-only';
import type { Capabilities, PartnerStatus, UpstreamError } from '@/lib/model';
import { PartnerError, toUpstreamError, type PartnerClient, type PartnerOperation, type PartnerResponse, type TimeRule } from '@/lib/partner';
import type { Clock } from './clock';
import type { FeedEvents, TypedEmitter } from './events';
import type { Failure } from './failure';
import { isRetryableFailure, MAX_RETRY_AFTER_S, type Lane, type RateBudget } from './rate-budget';

// Every upstream call of the feed passes here: the client is built here, each answer feeds the budget and is
// announced as a 'request' event, each failure is logged once and booked (last error, consecutive failures, a
// lost key or scope), and /status sets what the key may do. The health report reads its state from here.

const STATUS_RECHECK_MS = 5 * 60_000;
// No wait after a failure (backoff, key re-check, /status retry) outlasts one trips interval: whatever the
// fault, the feed is back within one polling interval of the upstream's return. Retry-After alone may be longer.
/** After a 401/403 the key is re-checked, doubling from here up to one trips interval, so a restored key recovers by itself. */
const AUTH_RECHECK_BASE_MS = 10_000;
const AUTH_RECHECK_MAX_MS = 5 * 60_000;
const STATUS_RETRY_BASE_MS = 2_000;
const STATUS_RETRY_MAX_MS = 60_000;

/** This many transport failures in a row, with no answer between them, make the upstream unreachable. */
export const UNREACHABLE_AFTER_FAILURES = 3;

export const NO_CAPABILITIES: Capabilities = { buses: false, routes: false, stops: false, trips: false, locations: false };

/** The capability each operation needs (null: any key may ask). */
export const CAPABILITY_OF: Record<PartnerOperation, keyof Capabilities | null> = {
  status: null,
  listBuses: 'buses',
  listRoutes: 'routes',
  routeStops: 'stops',
  activeTrips: 'trips',
  trip: 'trips',
  busLocation: 'locations',
};

export function capabilitiesOf(s: PartnerStatus): Capabilities {
  const has = (scope: string) => s.scopes.includes(scope);
  return {
    buses: has('buses:read'),
    routes: has('routes:read'),
    stops: has('stops:read'),
    trips: has('trips:read'),
    locations: has('gps:read') && s.level === 'business',
  };
}

export type AuthProblem = 'unauthorized' | 'forbidden';

export interface GatewayOptions {
  clock: Clock;
  budget: RateBudget;
  /** Builds the upstream client; handed the time rule the feed infers. */
  makeClient: (timeRule: () => TimeRule) => PartnerClient;
  timeRule: () => TimeRule;
  /** FEED_TRIPS_INTERVAL_S in ms: the longest any re-check after a failure waits. */
  tripsIntervalMs: number;
  /** One structured line per upstream error. */
  log: (line: Record<string, unknown>) => void;
  events: TypedEmitter<FeedEvents>;
  /**
   * The first answer after an outage (the upstream unreachable) or a 429: the per-bus backoffs that outage ran
   * up say nothing about the buses, so the feed clears them and the whole fleet is asked again at once.
   */
  onRecovered?: () => void;
}

/** What a request was for: the operation, or a name of the feed's own when one operation serves two jobs. */
export interface CallPurpose {
  lane: Lane;
  /** Default: the operation. */
  kind?: string;
}

export class UpstreamGateway {
  /** The key as /status last described it; null until it answered once. */
  status: PartnerStatus | null = null;
  capabilities: Capabilities = NO_CAPABILITIES;
  authProblem: AuthProblem | null = null;
  lastSuccessAt: number | null = null;
  lastError: UpstreamError | null = null;
  consecutiveFailures = 0;
  /** When /status is asked next (at once at start). */
  nextStatusAt = 0;
  /** A /status request is out: no second one before it answers (the poller does not wait for answers). */
  private statusOut = false;
  /** Every capability /status has granted since start. */
  private readonly everHad: Capabilities = { ...NO_CAPABILITIES };
  private readonly deniedUntil = new Map<PartnerOperation, number>();
  private statusFailures = 0;
  /** An outage or a 429 since the last answer: the next answer is a recovery. */
  private troubled = false;
  private authFailures = 0;
  private client: PartnerClient | null = null;

  constructor(private readonly o: GatewayOptions) {}

  /** Whether the key may make this request now (its capability, and no recent 403 for it). */
  can(op: PartnerOperation, now: number): boolean {
    const cap = CAPABILITY_OF[op];
    if (cap !== null && !this.capabilities[cap]) return false;
    return (this.deniedUntil.get(op) ?? 0) <= now;
  }

  /** Whether /status is to be asked now. */
  statusDue(now: number): boolean {
    return !this.statusOut && now >= this.nextStatusAt;
  }

  /** Connected with a working key: the fleet may be polled. */
  get ready(): boolean {
    return this.status !== null && this.authProblem === null;
  }

  /** Why an on-demand request cannot be sent now, or null when it can. */
  refusal(op: PartnerOperation, what: string, now: number): Failure | null {
    if (this.authProblem === 'unauthorized') return { status: 502, message: 'The upstream API rejected the server’s API key.', correlationId: null };
    if (this.authProblem === 'forbidden') return { status: 502, message: 'The upstream API refused the key’s plan.', correlationId: null };
    if (!this.status) return { status: 503, message: 'The server is still connecting to the upstream API.', correlationId: null };
    if (!this.can(op, now)) return { status: 503, message: `The configured API key cannot read ${what}.`, correlationId: null };
    return null;
  }

  /** Lists are served from what the poller holds; only a missing capability is a failure (an empty list is not). */
  listRefusal(op: 'listBuses' | 'listRoutes', what: string): Failure | null {
    if (this.status && !this.capabilities[CAPABILITY_OF[op]!]) return { status: 503, message: `The configured API key cannot read ${what}.`, correlationId: null };
    return null;
  }

  /** Every upstream request goes through here: health, budget feedback, the error log and the event in one place. */
  async call<T>(op: PartnerOperation, purpose: CallPurpose, send: (client: PartnerClient) => Promise<PartnerResponse<T>>): Promise<PartnerResponse<T>> {
    const kind = purpose.kind ?? op;
    const started = performance.now();
    try {
      const res = await send(this.clientFor(op));
      const at = this.o.clock.now();
      this.o.budget.noteResponse({ rateLimit: res.rateLimit, error: null });
      this.lastSuccessAt = at;
      this.consecutiveFailures = 0;
      if (this.troubled) {
        this.troubled = false;
        this.o.onRecovered?.();
      }
      this.o.events.emit('request', { at, kind, lane: purpose.lane, status: res.status, ok: true, durationMs: performance.now() - started });
      return res;
    } catch (e) {
      if (e instanceof PartnerError) {
        const at = this.o.clock.now();
        this.noteFailure(op, e);
        this.o.events.emit('request', { at, kind, lane: purpose.lane, status: e.status, ok: false, error: toUpstreamError(e, at), durationMs: performance.now() - started });
      }
      throw e;
    }
  }

  /**
   * A list walk whose pages ran out before the last one its first page announced: every page answered, but the
   * list is not whole. The feed keeps the last complete list; this says so in the log and in the health.
   */
  noteIncompleteWalk(op: PartnerOperation, path: string, walked: { pages: number; totalPages: number; items: number }): void {
    const now = this.o.clock.now();
    this.o.log({ msg: 'incomplete list walk', operation: op, path, pages: walked.pages, totalPages: walked.totalPages, items: walked.items });
    const message = `The list ${path} ended at page ${walked.pages} of ${walked.totalPages}; the last complete list is kept.`;
    this.lastError = { at: now, status: null, kind: 'contract', message, correlationId: null };
  }

  /** Asks /status and takes what it says: capabilities, the limit, and when to ask again. */
  async refreshStatus(): Promise<void> {
    const { clock, budget, tripsIntervalMs } = this.o;
    this.nextStatusAt = clock.now() + Math.min(STATUS_RETRY_MAX_MS, tripsIntervalMs, STATUS_RETRY_BASE_MS * 2 ** this.statusFailures);
    let res: PartnerResponse<PartnerStatus>;
    this.statusOut = true;
    try {
      res = await this.call('status', { lane: 'poll' }, (c) => c.status());
    } catch (e) {
      this.statusFailures++;
      throw e;
    } finally {
      this.statusOut = false;
    }
    this.statusFailures = 0;
    this.authFailures = 0;
    this.authProblem = null;
    this.deniedUntil.clear();
    this.status = res.data;
    this.capabilities = capabilitiesOf(res.data);
    budget.setLimit(res.data.rateLimitPerMinute);
    // A capability the key had and lost (plan downgraded, scope removed) is likely being put right: re-check at
    // the polling pace so its return shows within one interval. A key that never had it is re-checked rarely.
    let lost = false;
    for (const k of Object.keys(this.capabilities) as (keyof Capabilities)[]) {
      if (this.everHad[k] && !this.capabilities[k]) lost = true;
      this.everHad[k] ||= this.capabilities[k];
    }
    this.nextStatusAt = clock.now() + (lost ? Math.min(STATUS_RECHECK_MS, tripsIntervalMs) : STATUS_RECHECK_MS);
  }

  /**
   * The client is built on first use: a route handler may start the feed before the embedded upstream is
   * registered, and that must show as an unreachable upstream, not as a crash.
   */
  private clientFor(op: PartnerOperation): PartnerClient {
    if (!this.client) {
      try {
        this.client = this.o.makeClient(this.o.timeRule);
      } catch (e) {
        const message = e instanceof Error ? e.message : 'The upstream client could not be built.';
        throw new PartnerError({ kind: 'network', message, operation: op, path: '' });
      }
    }
    return this.client;
  }

  private noteFailure(op: PartnerOperation, e: PartnerError): void {
    const now = this.o.clock.now();
    this.o.budget.noteResponse({ rateLimit: null, error: e });
    this.o.log({ msg: 'upstream error', operation: e.operation, path: e.path, status: e.status, kind: e.kind, code: e.code, correlationId: e.correlationId });
    if (e.status === 429 && e.retryAfterS !== null && e.retryAfterS > MAX_RETRY_AFTER_S) {
      this.o.log({ msg: 'Retry-After capped', operation: e.operation, path: e.path, retryAfterS: e.retryAfterS, cappedAtS: MAX_RETRY_AFTER_S });
    }
    // A 404 names a missing thing, not trouble with the upstream.
    if (e.status !== 404) this.lastError = toUpstreamError(e, now);
    // Unreadable answers count too: an upstream that only sends garbage gives no data, and 'degraded' would
    // claim that data is still flowing.
    if (isRetryableFailure(e)) this.consecutiveFailures++;
    if (this.consecutiveFailures >= UNREACHABLE_AFTER_FAILURES || e.status === 429) this.troubled = true;
    if (e.status === 401 || (e.status === 403 && op === 'status')) {
      this.authProblem = e.status === 401 ? 'unauthorized' : 'forbidden';
      this.nextStatusAt = now + this.authRecheckMs();
    } else if (e.status === 403) {
      // The key lost this scope or plan: stop asking until /status says otherwise.
      this.deniedUntil.set(op, now + STATUS_RECHECK_MS);
      this.nextStatusAt = Math.min(this.nextStatusAt, now + this.authRecheckMs());
    }
  }

  private authRecheckMs(): number {
    return Math.min(AUTH_RECHECK_MAX_MS, this.o.tripsIntervalMs, AUTH_RECHECK_BASE_MS * 2 ** this.authFailures++);
  }
}
