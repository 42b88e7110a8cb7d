import 'server-only';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { StoreQueryTiming } from '@/lib/history/query-timing';
import type { InstanceStatus, RecorderStatus } from '@/lib/model';

// The recorder and the store, and this instance's place in a cluster, as the rooms that run them tell the status
// page (lib/server/status-sources.ts). A gauge without a value to give (no recorder here, or no batch written yet;
// a single instance's epoch) reads NaN, never a 0 that looks like a measure; a single instance leads.

export interface StoreSources {
  recorder: () => RecorderStatus | null;
  instance: () => InstanceStatus | null;
  /** The store's query timing (null: no store here, nothing to time). */
  timing: StoreQueryTiming | null;
}

export function storeMetrics(registry: Registry, sources: StoreSources): () => void {
  new Gauge({
    name: 'fleetmap_recorder_lag_seconds',
    help: 'How far the history written trails the feed: from the oldest event of the last batch to the end of its write.',
    registers: [registry],
    collect() {
      const lag = sources.recorder()?.lagMs;
      this.set(lag === undefined || lag === null ? NaN : lag / 1000);
    },
  });
  // A counter that mirrors the recorder's own count: it only grows, and restarts at 0 with the process.
  let droppedSeen = 0;
  new Counter({
    name: 'fleetmap_recorder_dropped_rows_total',
    help: 'Rows the recorder dropped because its buffer was full (the store too slow or down).',
    registers: [registry],
    collect() {
      const dropped = sources.recorder()?.droppedRows ?? droppedSeen;
      if (dropped > droppedSeen) this.inc(dropped - droppedSeen);
      droppedSeen = Math.max(droppedSeen, dropped);
    },
  });
  const queries = new Histogram({
    name: 'fleetmap_store_query_duration_seconds',
    help: 'Time of the store\'s statements, by kind: the recorder\'s batch writes and the reads of the history pages.',
    labelNames: ['query'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'fleetmap_cluster_leader',
    help: '1 while this instance polls the upstream and records (the leader, or the only instance), else 0.',
    registers: [registry],
    collect() {
      const instance = sources.instance();
      this.set(instance === null || instance.role === 'leader' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'fleetmap_cluster_epoch',
    help: 'The fencing epoch of the leader\'s lease this instance last saw (several instances only).',
    registers: [registry],
    collect() {
      this.set(sources.instance()?.epoch ?? NaN);
    },
  });
  return sources.timing?.listen((query, seconds) => queries.observe({ query }, seconds)) ?? (() => {});
}
