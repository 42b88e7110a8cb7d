import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Registry } from 'prom-client';

// GET /metrics, answered by scripts/server/server.mjs before Next.js (so never through proxy.ts and the user sign-in: a
// scraper has no cookie). With METRICS_TOKEN set, only `Authorization: Bearer <METRICS_TOKEN>` reads it; unset,
// only a caller on this machine does, and not through a reverse proxy (a proxy on this machine connects from
// loopback on behalf of anyone: a request that carries forwarding headers is refused).

export interface MetricsRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The socket's peer address. */
  remoteAddress: string | undefined;
}

export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const isLoopback = (address: string | undefined) => address !== undefined && (/^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(address) || address === '::1');

function refused(status: number, message: string, extra: Record<string, string> = {}): MetricsAnswer {
  return { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...extra }, body: JSON.stringify({ error: { status, message } }) };
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** Why this caller may not read the metrics, or null when it may. */
export function metricsRefusal(req: MetricsRequest, token: string | null): MetricsAnswer | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return refused(405, `${req.method} is not allowed here; /metrics answers GET.`, { Allow: 'GET, HEAD' });
  if (token !== null) {
    return tokenMatches(req.headers.authorization, token) ? null : refused(401, 'The metrics need the bearer token METRICS_TOKEN.', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
  const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (isLoopback(req.remoteAddress) && !proxied) return null;
  return refused(403, 'The metrics answer callers on this machine only; set METRICS_TOKEN to scrape them from elsewhere.');
}

export async function metricsAnswer(registry: Registry, token: string | null, req: MetricsRequest): Promise<MetricsAnswer> {
  const refusal = metricsRefusal(req, token);
  if (refusal) return refusal;
  const body = await registry.metrics();
  return { status: 200, headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }, body: req.method === 'HEAD' ? null : body };
}
