import 'server-only';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { authService } from '@/lib/auth';
import { appConfig, opsConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import type { StoreQueryTiming } from '@/lib/history/query-timing';
import type { StatusSources } from '@/lib/model';
import { metricsAnswer, type MetricsAnswer, type MetricsRequest } from './endpoint';
import { exceptionMetrics, type ExceptionSource } from './exceptions';
import { fleetMetrics } from './fleet';
import { servingMetrics, type RequestObserver } from './serving';
import { storeMetrics } from './store';
import { upstreamMetrics } from './upstream';

// Prometheus metrics (/metrics): a room beside the feed. It subscribes to the feed's events and reads its
// snapshot and health at each scrape; the feed never imports it. Started with one line at server start
// (lib/server/services.ts); what it needs of the recorder and the cluster it reads from the status sources those rooms
// provide. The application context hands its request observer and /metrics handler to scripts/server/server.mjs.

export type MetricsFeed = Pick<Feed, 'events' | 'liveSnapshot' | 'health'>;

export interface Metrics {
  readonly registry: Registry;
  /** The text a scrape gets. */
  scrape(): Promise<string>;
  /** The observer scripts/server/server.mjs calls for every request. */
  readonly requests: RequestObserver;
  /** GET /metrics, answered by scripts/server/server.mjs before Next.js. */
  readonly handler: (req: MetricsRequest) => Promise<MetricsAnswer>;
  stop(): void;
  /** Server shutdown: the same as stop. */
  close(): void;
}

export interface MetricsOptions {
  /** Default: METRICS_TOKEN. */
  token?: string | null;
  staleAfterS?: number;
  now?: () => number;
  /** What the recorder and the cluster report (the application context's `status`); default: nothing runs. */
  status?: StatusSources;
  /** The store's query timing (the application context's); default: no store query is timed. */
  storeTiming?: StoreQueryTiming;
  /** The exceptions service (its open exceptions by rule, its webhook deliveries); default: none open, none sent. */
  exceptions?: ExceptionSource;
}

export function startMetrics(feed: MetricsFeed, opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const now = opts.now ?? Date.now;
  const token = opts.token !== undefined ? opts.token : opsConfig().metricsToken;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const unsubscribe = [
    upstreamMetrics(registry, feed.events, () => feed.health()),
    storeMetrics(registry, { recorder: () => opts.status?.recorder?.() ?? null, instance: () => opts.status?.instance?.() ?? null, timing: opts.storeTiming ?? null }),
    exceptionMetrics(registry, opts.exceptions ?? { openByRule: () => ({}), onDelivery: () => () => {} }),
  ];
  fleetMetrics(registry, () => feed.liveSnapshot().snapshot, opts.staleAfterS ?? appConfig().staleAfterS, now);
  const requests = servingMetrics(registry, () => authService()?.config.trustProxyHops ?? 0, now);
  const handler = (req: MetricsRequest) => metricsAnswer(registry, token, req);
  const stop = () => {
    for (const u of unsubscribe) u();
    registry.clear();
  };
  return { registry, scrape: () => registry.metrics(), requests, handler, stop, close: stop };
}
