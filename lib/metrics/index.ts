import 'server-only';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { authService } from '@/lib/auth';
import { appConfig, opsConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import { statusSources } from '@/lib/server/status-sources';
import { METRICS_HANDLER, metricsAnswer, type MetricsRequest } from './endpoint';
import { fleetMetrics } from './fleet';
import { REQUEST_OBSERVER, servingMetrics, type RequestObserver } from './serving';
import { storeMetrics } from './store';
import { upstreamMetrics } from './upstream';

// Prometheus metrics (/metrics): a room beside the feed. It subscribes to the feed's events and reads its
// snapshot and health at each scrape; the feed never imports it. Started with one line at server start; what it
// needs of the recorder and the cluster it reads from the status sources those rooms provide. scripts/server/server.mjs
// finds the request observer and the /metrics handler this sets on globalThis (it runs outside the bundles).

export type MetricsFeed = Pick<Feed, 'events' | 'liveSnapshot' | 'health'>;

export interface Metrics {
  readonly registry: Registry;
  /** The text a scrape gets. */
  scrape(): Promise<string>;
  /** The observer scripts/server/server.mjs calls for every request. */
  readonly requests: RequestObserver;
  stop(): void;
}

export interface MetricsOptions {
  /** Default: METRICS_TOKEN. */
  token?: string | null;
  staleAfterS?: number;
  now?: () => number;
  /** Default true: set the handler and the observer scripts/server/server.mjs uses. */
  serve?: boolean;
}

export function startMetrics(feed: MetricsFeed, opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const now = opts.now ?? Date.now;
  const token = opts.token !== undefined ? opts.token : opsConfig().metricsToken;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const unsubscribe = [
    upstreamMetrics(registry, feed.events, () => feed.health()),
    storeMetrics(registry, { recorder: () => statusSources().recorder?.() ?? null, instance: () => statusSources().instance?.() ?? null }),
  ];
  fleetMetrics(registry, () => feed.liveSnapshot().snapshot, opts.staleAfterS ?? appConfig().staleAfterS, now);
  const requests = servingMetrics(registry, () => authService()?.config.trustProxyHops ?? 0, now);
  const handler = (req: MetricsRequest) => metricsAnswer(registry, token, req);
  const globals = globalThis as { [REQUEST_OBSERVER]?: RequestObserver; [METRICS_HANDLER]?: typeof handler };
  if (opts.serve !== false) {
    globals[REQUEST_OBSERVER] = requests;
    globals[METRICS_HANDLER] = handler;
  }
  return {
    registry,
    scrape: () => registry.metrics(),
    requests,
    stop() {
      for (const u of unsubscribe) u();
      if (globals[REQUEST_OBSERVER] === requests) delete globals[REQUEST_OBSERVER];
      if (globals[METRICS_HANDLER] === handler) delete globals[METRICS_HANDLER];
      registry.clear();
    },
  };
}

export { exceptionMetrics, type ExceptionMetrics, type ExceptionSource } from './exceptions';
