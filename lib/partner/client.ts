import 'server-only';
import { logger } from '@/lib/log';
import type { z } from 'zod';
import type { Bus, BusLocation, Paged, PartnerStatus, RateLimitInfo, Route, RouteStops, Trip } from '@/lib/model';
import { PartnerError, QUOTE_LIMIT, parseRetryAfter, redactSecret, truncateForMessage, type PartnerErrorInit, type PartnerOperation } from './errors';
import {
  busFromWire,
  busLocationFromWire,
  pagedFromWire,
  rateLimitFromWire,
  routeFromWire,
  routeStopsFromWire,
  statusFromWire,
  tripFromWire,
} from './map';
import {
  busLocationSchema,
  busSchema,
  errorEnvelopeSchema,
  pagedData,
  rateLimitSchema,
  routeSchema,
  routeStopsDataSchema,
  statusDataSchema,
  successEnvelope,
  tripSchema,
} from './schemas';
import type { TimeRule } from './time';

export type { PartnerOperation } from './errors';

/** Clamped to page >= 1 and 1 <= perPage <= 100 (integers) before anything is sent. */
export interface PageRequest {
  page?: number;
  perPage?: number;
}

export interface PartnerResponse<T> {
  data: T;
  rateLimit: RateLimitInfo | null;
  requestId: string | null;
  scope: string | null;
  status: number;
}

export interface ResponseInfo {
  operation: PartnerOperation;
  path: string;
  /** HTTP status, or null when no response arrived (timeout, network). */
  status: number | null;
  durationMs: number;
  rateLimit: RateLimitInfo | null;
  error: PartnerError | null;
}

export interface PartnerClientOptions {
  /** Must end with `/api/v1/partner` (a trailing slash is tolerated). */
  baseUrl: string;
  apiKey: string;
  /** Default 10000. Covers the whole exchange, body included. */
  timeoutMs?: number;
  /** Read on every response, so a rule inferred later applies to later responses. */
  timeRule: () => TimeRule;
  fetch?: typeof fetch;
  /** Called once for every request, success or failure. */
  onResponse?: (info: ResponseInfo) => void;
  now?: () => number;
}

export interface PartnerClient {
  status(): Promise<PartnerResponse<PartnerStatus>>;
  listBuses(p?: PageRequest): Promise<PartnerResponse<Paged<Bus>>>;
  listRoutes(p?: PageRequest): Promise<PartnerResponse<Paged<Route>>>;
  routeStops(routeId: number): Promise<PartnerResponse<RouteStops>>;
  activeTrips(p?: PageRequest): Promise<PartnerResponse<Paged<Trip>>>;
  trip(id: number): Promise<PartnerResponse<Trip>>;
  busLocation(busId: number): Promise<PartnerResponse<BusLocation>>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_PER_PAGE = 100;
/**
 * Largest answer read from the upstream. A full page of 100 items is tens of kilobytes; a broken or hostile
 * upstream could send hundreds of megabytes within the timeout, and the server would hold them all.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_BODY_LABEL = `${MAX_BODY_BYTES / (1024 * 1024)} MB`;

/** The body as text, read as a stream; null (and the stream cancelled) once it passes `cap` bytes. */
async function readCapped(res: Response, cap: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > cap) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}
/** The spec's default page size, sent explicitly so that nothing depends on the upstream's default. */
export const DEFAULT_PER_PAGE = 25;
const BASE_PATH = '/api/v1/partner';

/**
 * The base URL without its trailing slash. Throws a TypeError unless it is an http(s) URL ending in
 * `/api/v1/partner` with no credentials, query or fragment.
 */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError('The partner base URL is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('The partner base URL must use http or https.');
  if (url.username || url.password) throw new TypeError('The partner base URL must not carry credentials.');
  if (url.search || url.hash) throw new TypeError('The partner base URL must not have a query or fragment.');
  const path = url.pathname.replace(/\/$/, '');
  if (!path.endsWith(BASE_PATH)) throw new TypeError(`The partner base URL must end with ${BASE_PATH}.`);
  return `${url.origin}${path}`;
}

function clampInt(v: number | undefined, min: number, max: number, fallback: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(v)));
}

export function clampPageRequest(p: PageRequest = {}): { page: number; perPage: number } {
  return {
    page: clampInt(p.page, 1, Number.MAX_SAFE_INTEGER, 1),
    perPage: clampInt(p.perPage, 1, MAX_PER_PAGE, DEFAULT_PER_PAGE),
  };
}

function assertId(name: string, id: number): number {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new RangeError(`${name} must be an integer >= 1, got ${truncateForMessage(String(id), 40)}.`);
  }
  return id;
}

const envelopes = {
  status: successEnvelope(statusDataSchema),
  listBuses: successEnvelope(pagedData(busSchema)),
  listRoutes: successEnvelope(pagedData(routeSchema)),
  routeStops: successEnvelope(routeStopsDataSchema),
  activeTrips: successEnvelope(pagedData(tripSchema)),
  trip: successEnvelope(tripSchema),
  busLocation: successEnvelope(busLocationSchema),
} satisfies Record<PartnerOperation, z.ZodType>;

type EnvelopeOf<O extends PartnerOperation> = z.output<(typeof envelopes)[O]>;

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = body;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return truncateForMessage(s, QUOTE_LIMIT);
}

/** One sentence naming the first offending field, what was expected and (briefly) what came instead. */
function describeIssue(issue: z.core.$ZodIssue, body: unknown): { field: string | null; what: string } {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : null;
  const received = field === null ? body : valueAt(body, issue.path);
  const expected = issue.message.replace(/^Invalid input: /, '');
  if (received === undefined) return { field, what: `${field ?? 'the body'} is missing` };
  return { field, what: `${field ?? 'the body'}: ${expected} (got ${preview(received)})` };
}

export function createPartnerClient(opts: PartnerClientOptions): PartnerClient {
  const baseUrl = normalizeBaseUrl(opts.baseUrl);
  const apiKey = opts.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new TypeError('The partner API key is empty.');
  if (/[\s]/.test(apiKey)) throw new TypeError('The partner API key contains whitespace.');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number.');
  const fetchFn = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? Date.now;

  // Nothing we build quotes request headers, but upstream text is quoted and could echo them: it is redacted before
  // it is cut (a cut first could leave the key's head), and every message once more as it is thrown.
  const redact = (s: string) => redactSecret(s, apiKey);

  function report(info: ResponseInfo) {
    if (!opts.onResponse) return;
    try {
      opts.onResponse(info);
    } catch (e) {
      // An observer's bug must not turn a good response into a failure; say so without quoting anything.
      logger().error({ operation: info.operation, error: e instanceof Error ? e.name : typeof e }, 'partner onResponse hook threw');
    }
  }

  async function call<O extends PartnerOperation, T>(
    operation: O,
    path: string,
    query: { page: number; perPage: number } | null,
    mapData: (data: EnvelopeOf<O>['data'], rule: TimeRule) => T,
  ): Promise<PartnerResponse<T>> {
    const url = new URL(`${baseUrl}${path}`);
    if (query) {
      url.searchParams.set('page', String(query.page));
      url.searchParams.set('per_page', String(query.perPage));
    }
    const started = performance.now();
    let status: number | null = null;
    let rateLimit: RateLimitInfo | null = null;

    const fail = (init: Omit<PartnerErrorInit, 'operation' | 'path'>): never => {
      const error = new PartnerError({ ...init, message: redact(init.message), operation, path });
      report({ operation, path, status, durationMs: performance.now() - started, rateLimit, error });
      throw error;
    };

    const signal = AbortSignal.timeout(timeoutMs);
    // Aborts the connection of an answer past MAX_BODY_BYTES, so the rest of it is never received.
    const oversize = new AbortController();
    let text: string | null;
    let headers: Headers;
    try {
      const res = await fetchFn(url, {
        method: 'GET',
        headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
        signal: AbortSignal.any([signal, oversize.signal]),
        // A redirect could carry the bearer key to another host; the API has no reason to redirect.
        redirect: 'manual',
        cache: 'no-store',
      });
      status = res.status;
      headers = res.headers;
      text = await readCapped(res, MAX_BODY_BYTES);
      if (text === null) oversize.abort();
    } catch (e) {
      if (signal.aborted) {
        return fail({ kind: 'timeout', status, message: `No complete answer from ${path} within ${timeoutMs} ms.` });
      }
      const reason = networkReason(e);
      return fail({ kind: 'network', status, message: `Could not reach the partner API for ${path}: ${reason}.` });
    }
    if (text === null) {
      return fail({ kind: 'contract', status, message: `The response of ${path} is larger than the ${MAX_BODY_LABEL} cap; the request was aborted.` });
    }

    let body: unknown;
    let isJson = true;
    try {
      body = JSON.parse(text);
    } catch {
      isJson = false;
    }

    if (status < 200 || status > 299) {
      const env = isJson ? errorEnvelopeSchema.safeParse(body) : null;
      const retryAfterS = parseRetryAfter(headers.get('retry-after'), now());
      if (env?.success) {
        const rl = rateLimitSchema.safeParse(env.data.meta.rate_limit);
        if (rl.success) rateLimit = rateLimitFromWire(rl.data, now());
        const e = env.data.error;
        return fail({
          kind: 'http',
          status,
          code: e.code,
          retryable: e.retryable,
          correlationId: e.correlation_id,
          retryAfterS,
          message: truncateForMessage(redact(e.message)) || `HTTP ${status} from ${path}`,
        });
      }
      return fail({ kind: 'http', status, retryAfterS, message: `HTTP ${status} from ${path}` });
    }

    if (!isJson) {
      return fail({
        kind: 'contract',
        status,
        message: `The response of ${path} is not JSON (starts with ${preview(redact(text).slice(0, 60))}).`,
      });
    }
    if (valueAt(body, ['success']) === false) {
      const upstreamMessage = valueAt(body, ['message']);
      const said = typeof upstreamMessage === 'string' ? `: ${truncateForMessage(redact(upstreamMessage))}` : '';
      return fail({
        kind: 'contract',
        status,
        field: 'success',
        message: `The response of ${path} has HTTP ${status} but success: false${said}.`,
      });
    }
    const parsed = envelopes[operation].safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const { field, what } = issue ? describeIssue(issue, body) : { field: null, what: 'unreadable envelope' };
      return fail({ kind: 'contract', status, field, message: `The response of ${path} breaks the contract: ${what}.` });
    }

    const env = parsed.data as EnvelopeOf<O>;
    rateLimit = rateLimitFromWire(env.meta.rate_limit, now());
    let data: T;
    try {
      data = mapData(env.data, opts.timeRule());
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return fail({ kind: 'contract', status, field: 'data', message: `The response of ${path} could not be read: ${truncateForMessage(reason)}.` });
    }
    report({ operation, path, status, durationMs: performance.now() - started, rateLimit, error: null });
    return { data, rateLimit, requestId: env.meta.request_id, scope: env.meta.scope, status };
  }

  return {
    // async, so that a bad id rejects the returned promise like every other failure.
    status: async () => call('status', '/status', null, statusFromWire),
    listBuses: async (p) => call('listBuses', '/buses', clampPageRequest(p), (d, rule) => pagedFromWire(d, (w) => busFromWire(w, rule))),
    listRoutes: async (p) => call('listRoutes', '/routes', clampPageRequest(p), (d) => pagedFromWire(d, routeFromWire)),
    routeStops: async (routeId) => call('routeStops', `/routes/${assertId('routeId', routeId)}/stops`, null, routeStopsFromWire),
    activeTrips: async (p) => call('activeTrips', '/trips/active', clampPageRequest(p), (d, rule) => pagedFromWire(d, (w) => tripFromWire(w, rule))),
    trip: async (id) => call('trip', `/trips/${assertId('trip id', id)}`, null, tripFromWire),
    busLocation: async (busId) => call('busLocation', `/buses/${assertId('busId', busId)}/location`, null, busLocationFromWire),
  };
}

/** The low-level reason of a failed fetch (undici hides it in `cause`), e.g. `ECONNREFUSED`. */
function networkReason(e: unknown): string {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return truncateForMessage(cause.message, 120);
  return e instanceof Error ? truncateForMessage(e.message, 120) : 'unknown error';
}

export interface WalkOptions {
  /** Awaited before each page request (the feed's pacer). */
  beforePage?: () => Promise<void>;
  /** Hard cap on requests; default 1000. */
  maxPages?: number;
}

export interface WalkResult<T> {
  items: T[];
  responses: PartnerResponse<Paged<T>>[];
  /** False when the walk stopped at maxPages or on an empty page before the last announced one. */
  complete: boolean;
}

/**
 * Walks every page (per_page 100) of a list operation. The number of pages is fixed by the first answer
 * (and may only shrink): a list that grows during the walk is picked up by the next walk, and an upstream
 * whose total_pages keeps growing cannot keep us here. An empty page ends the walk.
 * Items are concatenated as received; list order is not given by the spec, so callers key by id.
 */
export async function walkPages<T>(
  fetchPage: (p: PageRequest) => Promise<PartnerResponse<Paged<T>>>,
  opts: WalkOptions = {},
): Promise<WalkResult<T>> {
  const maxPages = Math.max(1, Math.trunc(opts.maxPages ?? 1000));
  const items: T[] = [];
  const responses: PartnerResponse<Paged<T>>[] = [];
  let lastPage = Infinity;
  for (let page = 1; page <= maxPages; page++) {
    await opts.beforePage?.();
    const res = await fetchPage({ page, perPage: MAX_PER_PAGE });
    responses.push(res);
    items.push(...res.data.items);
    lastPage = Math.min(lastPage, res.data.totalPages);
    if (page >= lastPage) return { items, responses, complete: true };
    if (res.data.items.length === 0) return { items, responses, complete: false };
  }
  return { items, responses, complete: false };
}
