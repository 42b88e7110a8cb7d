import 'server-only';
import type { UpstreamError } from '@/lib/model';

export type PartnerOperation = 'status' | 'listBuses' | 'listRoutes' | 'routeStops' | 'activeTrips' | 'trip' | 'busLocation';

export type PartnerErrorKind = 'http' | 'timeout' | 'network' | 'contract';

export interface PartnerErrorInit {
  kind: PartnerErrorKind;
  message: string;
  operation: PartnerOperation;
  path: string;
  status?: number | null;
  code?: string | null;
  retryable?: boolean;
  correlationId?: string | null;
  retryAfterS?: number | null;
  field?: string | null;
}

/** Longest piece of upstream text quoted in a message: enough to recognise, never a whole body. */
export const QUOTE_LIMIT = 200;

export function truncateForMessage(s: string, limit = QUOTE_LIMIT): string {
  return s.length <= limit ? s : `${s.slice(0, limit)}…`;
}

/** Shortest piece of the key that counts as the key: a key cut anywhere still leaves its first characters. */
export const KEY_PREFIX_MIN = 6;

/**
 * `text` with the key, and every run of its first KEY_PREFIX_MIN or more characters, replaced by `[redacted]`. A
 * piece of upstream text that echoes the key is cut to QUOTE_LIMIT after this, never before: a cut made first
 * could leave the key's head, which no whole-key search finds.
 */
export function redactSecret(text: string, secret: string): string {
  if (secret.length < KEY_PREFIX_MIN) return text.split(secret).join('[redacted]');
  const head = secret.slice(0, KEY_PREFIX_MIN);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, from)) {
    let n = KEY_PREFIX_MIN;
    while (n < secret.length && at + n < text.length && text[at + n] === secret[n]) n++;
    out += `${text.slice(from, at)}[redacted]`;
    from = at + n;
  }
  return out + text.slice(from);
}

/** Default when the upstream does not say: rate limits, server faults and transport failures pass. */
export function defaultRetryable(kind: PartnerErrorKind, status: number | null): boolean {
  if (kind === 'timeout' || kind === 'network') return true;
  if (kind === 'contract') return false;
  return status === 429 || (status !== null && status >= 500);
}

/** A failed call to the partner API. Never carries the API key or a whole response body. */
export class PartnerError extends Error {
  override readonly name = 'PartnerError';
  readonly kind: PartnerErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly retryable: boolean;
  readonly correlationId: string | null;
  /** Seconds to wait, from a Retry-After header; null when none was sent or it could not be read. */
  readonly retryAfterS: number | null;
  readonly operation: PartnerOperation;
  /** The request path with its id (e.g. `/trips/12`), without the base URL or query. */
  readonly path: string;
  /** For contract errors: the dotted path of the first offending field (e.g. `data.items.3.last_latitude`). */
  readonly field: string | null;

  constructor(init: PartnerErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.retryable = init.retryable ?? defaultRetryable(init.kind, this.status);
    this.correlationId = init.correlationId ?? null;
    this.retryAfterS = init.retryAfterS ?? null;
    this.operation = init.operation;
    this.path = init.path;
    this.field = init.field ?? null;
  }

  toJSON() {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      status: this.status,
      code: this.code,
      retryable: this.retryable,
      correlationId: this.correlationId,
      retryAfterS: this.retryAfterS,
      operation: this.operation,
      path: this.path,
      field: this.field,
    };
  }
}

export function isPartnerError(x: unknown): x is PartnerError {
  return x instanceof PartnerError;
}

/** The app model's record of an upstream failure, for the health panel. */
export function toUpstreamError(err: PartnerError, atMs: number): UpstreamError {
  return { at: atMs, status: err.status, kind: err.kind, message: err.message, correlationId: err.correlationId };
}

/**
 * Seconds from a Retry-After header: an integer number of seconds, or an HTTP-date converted to seconds from
 * `nowMs` (rounded up, never negative). Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v);
  // Only an HTTP-date may stand here; Date.parse would also accept bare numbers and odd forms.
  if (!/[A-Za-z]{3}/.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
