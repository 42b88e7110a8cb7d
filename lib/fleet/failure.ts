import 'server-only';
import { PartnerError } from '@/lib/partner';
import { BudgetUnavailableError } from './rate-budget';

/** What one of our API routes answers when it cannot give the resource. Never quotes an upstream body. */
export interface Failure {
  status: 400 | 404 | 429 | 502 | 503 | 504;
  message: string;
  correlationId: string | null;
}

/** A request the feed refused to send (the key cannot make it, or the feed is not connected yet). */
export class UnavailableError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = 'UnavailableError';
  }
}

export function failureFrom(err: unknown, notFoundMessage: string, now: number): Failure {
  if (err instanceof UnavailableError) return err.failure;
  if (err instanceof BudgetUnavailableError) {
    const waitS = Math.max(1, Math.ceil((err.readyAt - now) / 1000));
    return { status: 503, message: `The upstream request budget is spent for now; try again in ${waitS} s.`, correlationId: null };
  }
  if (err instanceof PartnerError) {
    const correlationId = err.correlationId;
    if (err.kind === 'timeout') return { status: 504, message: 'The upstream API did not answer in time.', correlationId };
    if (err.kind === 'network') return { status: 502, message: 'The upstream API cannot be reached.', correlationId };
    if (err.kind === 'contract') return { status: 502, message: 'The upstream API answered with data that breaks its contract.', correlationId };
    if (err.status === 404) return { status: 404, message: notFoundMessage, correlationId };
    if (err.status === 429) return { status: 503, message: 'The upstream rate limit was reached; try again shortly.', correlationId };
    if (err.status === 401) return { status: 502, message: 'The upstream API rejected the server’s API key.', correlationId };
    if (err.status === 403) return { status: 502, message: 'The server’s API key is not allowed to read this (plan or scope).', correlationId };
    return { status: 502, message: `The upstream API failed (HTTP ${err.status ?? 'error'}).`, correlationId };
  }
  return { status: 502, message: 'The upstream request failed unexpectedly.', correlationId: null };
}
