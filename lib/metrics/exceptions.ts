import 'server-only';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryResult } from '@/lib/exceptions/webhooks';

// The exceptions service (lib/exceptions) as metrics: the exceptions open now by rule, as this instance's engine
// holds them (the leader evaluates; a follower has none), and every webhook delivery attempt by result. `rule` is a
// rule's name and `result` one of DELIVERY_RESULTS: bounded labels, never an exception's, a bus's or a target's id.

const DELIVERY_RESULTS: readonly DeliveryResult[] = ['delivered', 'failed', 'dead'];

export interface ExceptionSource {
  /** Open (not resolved) exceptions by rule, now. */
  openByRule(): Record<string, number>;
  /** Hears each webhook delivery attempt's result; returns the function that stops listening. */
  onDelivery(listener: (result: DeliveryResult) => void): () => void;
}

/** Registers both families; returns the function that stops listening to deliveries. */
export function exceptionMetrics(registry: Registry, source: ExceptionSource): () => void {
  new Gauge({
    name: 'fleetmap_exceptions_open',
    help: 'Exceptions open or acknowledged (not resolved), by rule, on the instance that evaluates them.',
    labelNames: ['rule'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [rule, n] of Object.entries(source.openByRule())) this.set({ rule }, n);
    },
  });
  const attempts = new Counter({
    name: 'fleetmap_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result: delivered, failed (queued again) or dead (given up).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of DELIVERY_RESULTS) attempts.inc({ result }, 0);
  return source.onDelivery((result) => attempts.inc({ result }));
}
