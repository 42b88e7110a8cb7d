import 'server-only';
import type { BusLastTrip, InstanceStatus, RecorderStatus } from '@/lib/model';

// What the rooms beside the feed tell the status page and the fleet table, plugged in at server start
// (lib/server/start.ts) by whoever runs them: the recorder (lib/history) its state and each bus's last trip,
// the cluster (lib/cluster) this instance's role. A source left out means that room does not run here, and the
// pages say so ("no recorder", "single instance", "not recorded") rather than guess.
export interface StatusSources {
  recorder?: () => RecorderStatus;
  instance?: () => InstanceStatus;
  /** The last trip history recorded for each of these buses, by bus id (a bus without one is left out). */
  lastTrips?: (busIds: readonly number[]) => Promise<ReadonlyMap<number, BusLastTrip>>;
}

// On globalThis for the same reason as the feed (lib/fleet/index.ts): route handlers may be separate bundles.
const SOURCES = Symbol.for('fleetmap.status-sources');
type Holder = { [SOURCES]?: StatusSources };

/** Adds (or replaces) sources; called at server start, before the first request. */
export function provideStatusSources(sources: StatusSources): void {
  const holder = globalThis as Holder;
  holder[SOURCES] = { ...holder[SOURCES], ...sources };
}

export function statusSources(): StatusSources {
  return (globalThis as Holder)[SOURCES] ?? {};
}

/** Forgets every source (tests). */
export function clearStatusSources(): void {
  delete (globalThis as Holder)[SOURCES];
}
