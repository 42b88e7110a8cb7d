import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { routeAccess } from '@/lib/auth/access';
import { CLIENT_ADDRESS_HEADER, clientAddress } from '@/lib/auth/request-info';
import type { LiveAnswer } from '@/lib/model';

// Serving, seen from scripts/server/server.mjs, which every request passes (/api/live and /metrics, which it answers
// itself, included): how long each took by route template (never the raw path: ids and tokens would make a
// series each), what /api/live answered, and how many clients polled it in the last minute.

/** The paths scripts/server/server.mjs answers before Next.js that no entry of ROUTE_ACCESS names. */
export const METRICS_PATH = '/metrics';

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
const VIEWER_WINDOW_MS = 60_000;
/** Past this many distinct clients in a minute, the oldest are forgotten first (memory stays bounded). */
const VIEWERS_MAX = 100_000;

/**
 * The route template of a path: a page or an /api route as ROUTE_ACCESS names it (`/api/trips/[id]`), the build's
 * static files as one, and everything else (unknown pages, probes) as `unmatched`.
 */
export function routeTemplate(pathname: string): string {
  if (pathname === METRICS_PATH) return METRICS_PATH;
  if (pathname.startsWith('/_next/')) return '/_next/*';
  const { pattern } = routeAccess(pathname);
  if (pattern !== null) return pattern;
  return /^\/[\w.-]+\.(js|mjs|css|png|svg|ico|json|webmanifest|txt|pbf|geojson|woff2?)$/.test(pathname) || pathname.startsWith('/basemap/') ? '/public/*' : 'unmatched';
}

/** What scripts/server/server.mjs calls (it finds this object under REQUEST_OBSERVER). */
export interface RequestObserver {
  /** At the start of every request; the observer watches the response's end itself. */
  request(req: IncomingMessage, res: ServerResponse): void;
  /** Each answer of /api/live, as scripts/server/server.mjs sends it. */
  liveAnswer(answer: { status: number; kind?: LiveAnswer['kind'] | 'roster' }, req: IncomingMessage): void;
}

export function servingMetrics(registry: Registry, trustProxyHops: () => number, now: () => number = Date.now): RequestObserver {
  const duration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Time from a request\'s arrival to the end of its answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    // OpenTelemetry's advice for HTTP server durations, less its in-between bounds (0.075, 0.75, 7.5): each bound is a
    // series per method, route and status, and the scrape's cost is its series (bench/metrics.ts).
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const live = new Counter({
    name: 'fleetmap_live_answers_total',
    help: '/api/live answers by kind: the full snapshot, a delta since the viewer\'s version, the roster of the buses\' names (?shape=roster), or 304 (nothing new).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  for (const kind of ['full', 'delta', 'roster', '304']) live.inc({ kind }, 0);
  // Client -> when it last polled /api/live. Insertion order is refreshed on each poll, so the oldest come first.
  const seen = new Map<string, number>();
  const forget = (before: number) => {
    for (const [client, at] of seen) {
      if (at >= before && seen.size <= VIEWERS_MAX) break;
      seen.delete(client);
    }
  };
  new Gauge({
    name: 'fleetmap_viewers',
    help: 'Distinct clients (by address, through TRUST_PROXY proxies) that polled /api/live in the last minute.',
    registers: [registry],
    collect() {
      forget(now() - VIEWER_WINDOW_MS);
      this.set(seen.size);
    },
  });
  return {
    request(req, res) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const route = routeTemplate(q < 0 ? url : url.slice(0, q));
        duration.observe({ method, route, status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
      });
    },
    liveAnswer(answer, req) {
      if (answer.status === 304) live.inc({ kind: '304' });
      else if (answer.status === 200 && answer.kind) live.inc({ kind: answer.kind });
      else return;
      const peer = req.headers[CLIENT_ADDRESS_HEADER];
      const forwarded = req.headers['x-forwarded-for'];
      const headers = new Headers();
      if (typeof peer === 'string') headers.set(CLIENT_ADDRESS_HEADER, peer);
      if (typeof forwarded === 'string') headers.set('x-forwarded-for', forwarded);
      const client = clientAddress(headers, { trustProxyHops: trustProxyHops(), publicUrl: null });
      seen.delete(client);
      seen.set(client, now());
      if (seen.size > VIEWERS_MAX) forget(now() - VIEWER_WINDOW_MS);
    },
  };
}
