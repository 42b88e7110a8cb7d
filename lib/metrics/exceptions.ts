import 'server-only';
import { Counter, Gauge, type Registry } from 'prom-client';

// The registration point for the exceptions service (issue 30, lib/exceptions): not wired yet, because that
// service is not on main. When it lands, its wiring adds one line beside startMetrics's:
//
//   const exceptionCounts = exceptionMetrics(metrics.registry, { openByRule: () => exceptions.openCountsByRule() });
//   webhooks.onDelivery((result) => exceptionCounts.webhookDelivery(result));
//
// `rule` is a rule's name (a handful, fixed by the code) and `result` one of WEBHOOK_RESULTS: bounded labels,
// never an exception's, a bus's or an endpoint's id.

export const WEBHOOK_RESULTS = ['delivered', 'failed', 'retried', 'given_up'] as const;
export type WebhookResult = (typeof WEBHOOK_RESULTS)[number];

export interface ExceptionSource {
  /** Open (not resolved) exceptions by rule, now. */
  openByRule(): ReadonlyMap<string, number> | Record<string, number>;
}

export interface ExceptionMetrics {
  webhookDelivery(result: WebhookResult): void;
}

export function exceptionMetrics(registry: Registry, source: ExceptionSource): ExceptionMetrics {
  new Gauge({
    name: 'fleetmap_exceptions_open',
    help: 'Exceptions open or acknowledged (not resolved), by rule.',
    labelNames: ['rule'] as const,
    registers: [registry],
    collect() {
      const counts = source.openByRule();
      this.reset();
      for (const [rule, n] of counts instanceof Map ? counts : Object.entries(counts)) this.set({ rule }, n);
    },
  });
  const deliveries = new Counter({
    name: 'fleetmap_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of WEBHOOK_RESULTS) deliveries.inc({ result }, 0);
  return { webhookDelivery: (result) => deliveries.inc({ result }) };
}
