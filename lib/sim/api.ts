import { randomBytes } from 'node:crypto';
import type { Faults } from './faults';
import { PLAN_NAMES, maskKey, type ApiKey, type SimPlan, type SimScope } from './keys';
import type { RateDecision, RateLimiter, ResetAtUnit } from './rate-limit';
import { busRecord, locationRecord, routeRecord, routeStopRecords, tripRecord, type WireOptions } from './wire';
import type { World } from './world';

// Partner API v1 over plain data: a request in, an answer (status, headers, body) out. The HTTP plumbing
// lives in index.ts. Order of checks: path, injected faults, key (401), limit (429), scope/plan (403),
// parameters (400), resource (404).

export const BASE_PATH = '/api/v1/partner';

export type Operation = 'status' | 'buses' | 'routes' | 'routeStops' | 'activeTrips' | 'trip' | 'busLocation';

interface Endpoint {
  op: Operation;
  pattern: RegExp;
  scope: SimScope | null;
  business?: boolean;
  list?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  { op: 'status', pattern: /^\/status$/, scope: null },
  { op: 'buses', pattern: /^\/buses$/, scope: 'buses:read', list: true },
  { op: 'routes', pattern: /^\/routes$/, scope: 'routes:read', list: true },
  { op: 'routeStops', pattern: /^\/routes\/([^/]+)\/stops$/, scope: 'stops:read' },
  { op: 'activeTrips', pattern: /^\/trips\/active$/, scope: 'trips:read', list: true },
  { op: 'trip', pattern: /^\/trips\/([^/]+)$/, scope: 'trips:read' },
  { op: 'busLocation', pattern: /^\/buses\/([^/]+)\/location$/, scope: 'gps:read', business: true },
];

export interface PartnerRequest {
  method: string;
  /** Path after the base path, e.g. `/buses/12/location`. */
  path: string;
  /** The request was not under the base path: an unknown endpoint whatever it looks like. */
  outsideBase?: boolean;
  query: URLSearchParams;
  authorization: string | undefined;
}

export type PartnerAnswer =
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string; op: string; key: string | null }
  | { kind: 'hang'; op: string; key: string | null };

export interface PartnerContext {
  world: World;
  simNow(): number;
  keys: Map<string, ApiKey>;
  limiter: RateLimiter;
  resetAt: ResetAtUnit;
  faults(): Faults;
  random(): number;
  stopIdBase: number[];
}

const ERROR_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 25;

const traceId = () => randomBytes(16).toString('hex');
let requestCounter = 0;
const requestId = () => `req_${Date.now().toString(36)}${(++requestCounter).toString(36).padStart(4, '0')}`;

class ApiFailure {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly errors: unknown[] = [],
    readonly headers: Record<string, string> = {},
  ) {}
}

interface Meta {
  request_id: string;
  scope: string | null;
  rate_limit?: { limit: number; remaining: number; reset_at: number };
}

function json(status: number, body: unknown, op: string, key: string | null, headers: Record<string, string> = {}): PartnerAnswer {
  return { kind: 'respond', status, headers, body: JSON.stringify(body), op, key };
}

function errorAnswer(f: ApiFailure, meta: Meta, op: string, key: string | null): PartnerAnswer {
  const trace = traceId();
  const code = ERROR_CODES[f.status] ?? (f.status >= 500 ? 'INTERNAL_ERROR' : 'ERROR');
  return json(
    f.status,
    {
      success: false,
      code,
      trace_id: trace,
      message: f.message,
      data: null,
      errors: f.errors,
      meta,
      error: { code, message: f.message, retryable: f.status === 429 || f.status >= 500, correlation_id: trace },
    },
    op,
    key,
    f.headers,
  );
}

/** A positive integer query or path parameter; a clear 400 otherwise. */
function intParam(raw: string | null, field: string, fallback: number, max: number): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new ApiFailure(400, `${field} must be an integer`, [{ field, message: 'must be an integer' }]);
  const n = Number(raw);
  if (n < 1 || n > max) {
    const message = max === Number.MAX_SAFE_INTEGER ? 'must be at least 1' : `must be between 1 and ${max}`;
    throw new ApiFailure(400, `${field} ${message}`, [{ field, message }]);
  }
  return n;
}

function paged<T>(all: readonly T[], query: URLSearchParams, toRecord: (item: T) => unknown) {
  const page = intParam(query.get('page'), 'page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = intParam(query.get('per_page'), 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const start = (page - 1) * perPage;
  return {
    items: all.slice(start, start + perPage).map(toRecord),
    pagination: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) },
  };
}

/** Breaks one field of a success payload the way a buggy upstream would. */
function breakContract(data: Record<string, unknown>): void {
  const items = data.items as Record<string, unknown>[] | undefined;
  const target = items?.[0] ?? data;
  if ('last_latitude' in target) target.last_latitude = 'abc';
  else if ('rate_limit_per_minute' in target) target.rate_limit_per_minute = 'lots';
  else delete target.id;
}

function answerData(ctx: PartnerContext, ep: Endpoint, match: RegExpExecArray, query: URLSearchParams, apiKey: ApiKey & { effectivePlan: SimPlan; effectiveScopes: string[] }, o: WireOptions): unknown {
  const { world } = ctx;
  const now = ctx.simNow();
  switch (ep.op) {
    case 'status':
      return { plan: PLAN_NAMES[apiKey.effectivePlan], level: apiKey.effectivePlan, scopes: apiKey.effectiveScopes, rate_limit_per_minute: apiKey.limitPerMinute };
    case 'buses':
      return paged(world.fleet.buses, query, (b) => busRecord(world, b, now, o));
    case 'routes':
      return paged(world.net.routes, query, (r) => routeRecord(r, o));
    case 'activeTrips':
      return paged(world.activeTrips(now), query, (ref) => tripRecord(world, ref, now, o));
    case 'routeStops': {
      const id = intParam(match[1]!, 'id', 0, Number.MAX_SAFE_INTEGER);
      const route = world.net.routes[id - 1];
      if (!route) throw new ApiFailure(404, `Route ${id} not found`);
      return { route: routeRecord(route, o), items: routeStopRecords(route, ctx.stopIdBase[route.index]!, o) };
    }
    case 'trip': {
      const id = intParam(match[1]!, 'id', 0, Number.MAX_SAFE_INTEGER);
      const ref = world.tripById(id, now);
      if (!ref) throw new ApiFailure(404, `Trip ${id} not found`);
      return tripRecord(world, ref, now, o);
    }
    case 'busLocation': {
      const id = intParam(match[1]!, 'id', 0, Number.MAX_SAFE_INTEGER);
      const bus = world.bus(id);
      if (!bus) throw new ApiFailure(404, `Bus ${id} not found`);
      return locationRecord(world, bus, now, o);
    }
  }
}

function bearerKey(authorization: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m ? m[1]! : null;
}

export function handlePartner(ctx: PartnerContext, req: PartnerRequest): PartnerAnswer {
  let ep: Endpoint | undefined;
  let match: RegExpExecArray | null = null;
  for (const e of req.outsideBase ? [] : ENDPOINTS) {
    match = e.pattern.exec(req.path);
    if (match) {
      ep = e;
      break;
    }
  }
  const meta: Meta = { request_id: requestId(), scope: ep?.scope ?? null };
  if (!ep || !match) return errorAnswer(new ApiFailure(404, `No such endpoint: ${req.path || '/'}`), meta, 'unknown', null);
  const op = ep.op;
  if (req.method !== 'GET') return errorAnswer(new ApiFailure(405, `Method ${req.method} not allowed; the API is read-only (GET)`, [], { Allow: 'GET' }), meta, op, null);

  const faults = ctx.faults();
  const presented = bearerKey(req.authorization);
  const masked = presented ? maskKey(presented) : null;
  if (faults.storm429) {
    return errorAnswer(new ApiFailure(429, 'Too many requests', [], { 'Retry-After': String(faults.storm429.retryAfterS) }), meta, op, masked);
  }
  if (faults.hangRate > 0 && ctx.random() < faults.hangRate) return { kind: 'hang', op, key: masked };
  if (faults.errorRate > 0 && ctx.random() < faults.errorRate) {
    const status = faults.errorStatuses[Math.floor(ctx.random() * faults.errorStatuses.length)] ?? 500;
    return errorAnswer(new ApiFailure(status, status === 503 ? 'Service temporarily unavailable' : 'Internal server error'), meta, op, masked);
  }

  if (!presented) return errorAnswer(new ApiFailure(401, 'Missing API key: send Authorization: Bearer <key>'), meta, op, null);
  const apiKey = ctx.keys.get(presented);
  if (!apiKey) return errorAnswer(new ApiFailure(401, 'Invalid API key'), meta, op, masked);
  if (faults.revokedKeys.includes(presented)) return errorAnswer(new ApiFailure(401, 'API key has been revoked'), meta, op, masked);

  const decision: RateDecision = ctx.limiter.take(presented, apiKey.limitPerMinute);
  meta.rate_limit = { limit: decision.limit, remaining: decision.remaining, reset_at: ctx.limiter.resetAtValue(decision, ctx.resetAt) };
  if (!decision.allowed) {
    const retryAfter = ctx.limiter.retryAfterS(decision);
    return errorAnswer(new ApiFailure(429, `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s`, [], { 'Retry-After': String(retryAfter) }), meta, op, masked);
  }

  const removed = faults.removedScopes[presented] ?? [];
  const effective = {
    ...apiKey,
    effectivePlan: faults.downgradedKeys.includes(presented) ? ('standard' as const) : apiKey.plan,
    effectiveScopes: apiKey.scopes.filter((s) => !removed.includes(s)),
  };
  if (ep.business && effective.effectivePlan !== 'business') return errorAnswer(new ApiFailure(403, 'Bus locations need the API Business plan'), meta, op, masked);
  if (ep.scope && !effective.effectiveScopes.includes(ep.scope)) return errorAnswer(new ApiFailure(403, `This key lacks the scope ${ep.scope}`), meta, op, masked);

  let data: unknown;
  try {
    data = answerData(ctx, ep, match, req.query, effective, { drift: faults.drift });
  } catch (e) {
    if (e instanceof ApiFailure) return errorAnswer(e, meta, op, masked);
    console.error(`[sim] ${op} failed: ${(e as Error).stack ?? String(e)}`);
    return errorAnswer(new ApiFailure(500, 'Internal server error'), meta, op, masked);
  }
  if (faults.contractBreakRate > 0 && ctx.random() < faults.contractBreakRate) breakContract(data as Record<string, unknown>);
  const body = { success: true, code: 'OK', trace_id: traceId(), message: 'OK', data, errors: [], meta };
  const answer = json(200, body, op, masked);
  if (answer.kind === 'respond' && faults.malformedRate > 0 && ctx.random() < faults.malformedRate) {
    answer.body = answer.body.slice(0, Math.max(1, Math.floor(answer.body.length / 2)));
  }
  return answer;
}
