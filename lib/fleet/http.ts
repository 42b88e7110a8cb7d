import 'server-only';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { ApiErrorBody } from '@/lib/client/api-types';
import type { Failure } from './failure';
import type { Answer } from './on-demand-cache';
import type { StoredSnapshot } from './snapshot-store';

// What the thin route handlers in app/api share: id parsing, error bodies, ETag handling. No Next.js here.

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

export function jsonResponse(body: unknown): Response {
  return Response.json(body, { headers: NO_CACHE });
}

/** An on-demand answer: the value (with when it was fetched, so its age shows) or the typed failure. */
export function answerResponse<T>(answer: Answer<T>, body: (value: T, fetchedAt: number) => unknown): Response {
  return answer.ok ? jsonResponse(body(answer.value, answer.fetchedAt)) : errorResponse(answer.failure);
}

/** True when If-None-Match names this ETag (weak comparison, as RFC 9110 asks for If-None-Match). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === mine);
}

export type ContentCoding = 'br' | 'gzip';

/**
 * The coding to answer in, from Accept-Encoding (RFC 9110 §12.5.3): the one of br and gzip with the higher
 * q-value (br on a tie), `*` standing for any not named, q=0 refusing; null means no coding (identity).
 */
export function preferredCoding(acceptEncoding: string | null): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (!name) continue;
    const q = params.map((p) => /^q=([0-9.]+)$/.exec(p.replace(/\s+/g, ''))).find((m) => m !== null);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (c: ContentCoding) => weights.get(c) ?? weights.get('*') ?? 0;
  const best = weight('br') >= weight('gzip') ? 'br' : 'gzip';
  return weight(best) > 0 ? best : null;
}

// Every viewer polls the same snapshot: it is compressed once per version (on first demand, per coding) rather
// than once per answer, which is what Next.js's own compression would do and what bounded /api/live under
// load (a 2,000-bus snapshot is ~0.7 MB of JSON). For such a body brotli at quality 4 took 6 ms against 9 ms for
// gzip's default level, and came out 3 % smaller; quality 5 already took 31 ms, the top qualities far more.
const BROTLI_QUALITY = 4;
let encoded: { etag: string; bodies: Partial<Record<ContentCoding, Uint8Array<ArrayBuffer>>> } | null = null;

/** The snapshot's body in `coding`, compressed on the first request for its version. */
export function encodedBody(stored: StoredSnapshot, coding: ContentCoding): Uint8Array<ArrayBuffer> {
  if (encoded?.etag !== stored.etag) encoded = { etag: stored.etag, bodies: {} };
  const compress = () =>
    coding === 'br'
      ? brotliCompressSync(stored.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(stored.body) } })
      : gzipSync(stored.body);
  return (encoded.bodies[coding] ??= new Uint8Array(compress()));
}

export function snapshotResponse(request: Request, stored: StoredSnapshot): Response {
  const headers = { ...NO_CACHE, ETag: stored.etag, Vary: 'Accept-Encoding' };
  if (etagMatches(request.headers.get('if-none-match'), stored.etag)) return new Response(null, { status: 304, headers });
  const coding = preferredCoding(request.headers.get('accept-encoding'));
  if (coding === null) return new Response(stored.body, { headers: { ...headers, 'Content-Type': 'application/json' } });
  // Content-Encoding set here also keeps Next.js from compressing the answer a second time.
  const body = encodedBody(stored, coding);
  return new Response(body, {
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': coding, 'Content-Length': String(body.length) },
  });
}

/**
 * GET handler of a `[id]` route answered on demand: a bad id is a 400 before anything else runs (and costs
 * no upstream request); otherwise the answer or its typed failure.
 */
export function onDemandById<T>(what: string, answer: (id: number) => Promise<Answer<T>>, body: (value: T, fetchedAt: number) => unknown) {
  return async (_request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> => {
    const id = parseId((await ctx.params).id, what);
    if (!id.ok) return id.response;
    return answerResponse(await answer(id.value), body);
  };
}
