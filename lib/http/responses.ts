import 'server-only';
import { z } from 'zod';
import type { ApiErrorBody } from '@/lib/model';
import type { Answer, Failure } from '@/lib/fleet';

export { etagMatches } from '@/lib/model/etag';
import { clientKey } from './client-key';

// The HTTP edge of our API: what the thin route handlers in app/api share (id parsing, error bodies, ETag
// handling). No Next.js here.

// The spec bounds ids only below (integer, minimum 1), and real ones outgrow 32 bits: the simulator's trip
// ids are day-numbered (about 2.5·10^9 in 2026). The ceiling is therefore the largest integer JSON numbers
// carry exactly, the same one lib/partner's wire schemas accept.
const MAX_ID = Number.MAX_SAFE_INTEGER;

/** A positive integer id as it appears in a path or query: no sign, no leading zero, at most 2^53−1. */
export function idSchema(what: string) {
  return z
    .string({ error: `${what} is required` })
    .regex(/^[1-9][0-9]{0,15}$/, `${what} must be a positive whole number`)
    .transform(Number)
    .refine((n) => n <= MAX_ID, `${what} must be at most ${MAX_ID}`);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

export function parseId(raw: string | null | undefined, what: string): Parsed<number> {
  const r = idSchema(what).safeParse(raw ?? undefined);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, response: errorResponse({ status: 400, message: r.error.issues[0]?.message ?? `${what} is invalid`, correlationId: null }) };
}

const NO_CACHE = { 'Cache-Control': 'no-cache' };

export function errorResponse(f: Failure): Response {
  const body: ApiErrorBody = { error: { status: f.status, message: f.message, ...(f.correlationId ? { correlationId: f.correlationId } : {}) } };
  return Response.json(body, { status: f.status, headers: NO_CACHE });
}

/** The one sentence every request gets while server start builds the application context (server.mjs says it too). */
export const STARTING_MESSAGE = 'The server is starting; try again in a moment.';

export function startingResponse(): Response {
  const res = errorResponse({ status: 503, message: STARTING_MESSAGE, correlationId: null });
  res.headers.set('Retry-After', '1');
  return res;
}

export function jsonResponse(body: unknown): Response {
  return Response.json(body, { headers: NO_CACHE });
}

/** An on-demand answer: the value (with when it was fetched, so its age shows) or the typed failure. */
export function answerResponse<T>(answer: Answer<T>, body: (value: T, fetchedAt: number) => unknown): Response {
  return answer.ok ? jsonResponse(body(answer.value, answer.fetchedAt)) : errorResponse(answer.failure);
}

/** True when If-None-Match names this ETag (weak comparison, as RFC 9110 asks for If-None-Match). */
/**
 * GET handler of a `[id]` route answered on demand: a bad id is a 400 before anything else runs (and costs
 * no upstream request); otherwise the answer or its typed failure.
 */
export function onDemandById<T>(what: string, answer: (id: number, client: string) => Promise<Answer<T>>, body: (value: T, fetchedAt: number) => unknown) {
  return async (request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> => {
    const id = parseId((await ctx.params).id, what);
    if (!id.ok) return id.response;
    return answerResponse(await answer(id.value, clientKey(request)), body);
  };
}
