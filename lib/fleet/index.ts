import 'server-only';
import { appConfig, validateConfigAtStartup } from '@/lib/config';
import { createConfiguredClient, readPartnerConfig } from '@/lib/partner';
import { Feed } from './feed';

export { Feed, type FeedOptions } from './feed';
export { capabilitiesOf } from './gateway';
export type { ListResult } from './lookups';
export { RateBudget, BudgetUnavailableError, type Lane, type BudgetStats } from './rate-budget';
export { LocationScheduler, type BusTrack } from './location-scheduler';
export { MemorySnapshotStore, type SnapshotStore, type StoredSnapshot } from './snapshot-store';
export { TypedEmitter, type FeedEvents, type Observation } from './events';
export type { Answer } from './on-demand-cache';
export type { Failure } from './failure';
export type { Clock } from './clock';

// One feed per server process. Next.js may load instrumentation and each route handler as separate bundles
// (separate module graphs), so a module-level variable could hold several feeds: the registry symbol on
// globalThis is shared by all of them.
const FEED = Symbol.for('fleetmap.feed');
type FeedHolder = { [FEED]?: Feed };

/** The process's feed, created and started on first use (instrumentation, else the first API request). */
export function ensureFeedStarted(): Feed {
  const holder = globalThis as FeedHolder;
  let feed = holder[FEED];
  if (!feed) {
    validateConfigAtStartup();
    const partner = readPartnerConfig();
    feed = new Feed({
      config: appConfig(),
      timezone: partner.ok ? partner.config.timezone : null,
      client: (timeRule) => createConfiguredClient({ timeRule }),
    });
    Object.defineProperty(globalThis, FEED, { value: feed, enumerable: false, configurable: true, writable: false });
    feed.start();
  }
  return feed;
}

/** Stops and forgets the process's feed (tests, or a server shutting down). */
export async function stopFeed(): Promise<void> {
  const holder = globalThis as FeedHolder;
  const feed = holder[FEED];
  if (!feed) return;
  delete holder[FEED];
  await feed.stop();
}
