import 'server-only';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FeedEvents, TypedEmitter } from '@/lib/fleet/events';
import type { Health, UpstreamState } from '@/lib/model';

// The upstream as the feed's events tell it: every request once it has an answer or failed, by operation and
// outcome. Labels are bounded: `operation` is one of the partner operations (or the feed's `finalTrip`), `status`
// an HTTP status or the kind of a failure without one (timeout, network, contract).

const UPSTREAM_STATES: readonly UpstreamState[] = ['starting', 'ok', 'degraded', 'rate-limited', 'unauthorized', 'forbidden', 'unreachable'];

export function upstreamMetrics(registry: Registry, events: TypedEmitter<FeedEvents>, health: () => Health): () => void {
  const requests = new Counter({
    name: 'fleetmap_upstream_requests_total',
    help: 'Requests sent to the Partner API, by operation and outcome (HTTP status, or timeout/network/contract).',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'fleetmap_upstream_request_duration_seconds',
    help: 'Time from sending a Partner API request to its answer (or its failure), by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'fleetmap_upstream_rate_limited_total',
    help: 'Partner API answers with status 429 (the key is over its per-minute limit).',
    registers: [registry],
  });
  new Gauge({
    name: 'fleetmap_upstream_budget_used_ratio',
    help: 'Requests sent in the last 60 s over the key\'s per-minute limit (FEED_BUDGET_SHARE of it is the feed\'s own aim).',
    registers: [registry],
    collect() {
      const { limit, usedLastMinute } = health().budget;
      // NaN until /status has given the limit.
      this.set(limit ? usedLastMinute / limit : NaN);
    },
  });
  new Gauge({
    name: 'fleetmap_upstream_state',
    help: 'The upstream\'s state as the feed judges it: 1 for the current state, 0 for the others.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const now = health().state;
      for (const state of UPSTREAM_STATES) this.set({ state }, state === now ? 1 : 0);
    },
  });
  // Every label value a healthy feed uses, at 0 before its first request, so that rate() has a start.
  rateLimited.inc(0);
  return events.on('request', (e) => {
    const status = e.ok || !e.error || e.error.kind === 'http' ? String(e.status ?? 'none') : e.error.kind;
    requests.inc({ operation: e.kind, status });
    if (e.durationMs !== undefined) duration.observe({ operation: e.kind }, e.durationMs / 1000);
    if (e.status === 429) rateLimited.inc();
  });
}
