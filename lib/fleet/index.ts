import 'server-only';
import { appConfig } from '@/lib/config';
import { createConfiguredClient, readPartnerConfig, type EmbeddedUpstream } from '@/lib/partner';
import { Feed } from './feed';
import type { SharedBudget } from './rate-budget';
import type { SnapshotStore } from './snapshot-store';

export { Feed, type FeedOptions, type FollowSource } from './feed';
export { capabilitiesOf } from './gateway';
export type { ListResult } from './lookups';
export { RateBudget, BudgetUnavailableError, type Lane, type BudgetStats, type SharedBudget } from './rate-budget';
export { LocationScheduler, type BusTrack } from './location-scheduler';
export { MemorySnapshotStore, RECENT_VERSIONS, type SnapshotStore, type StoredSnapshot } from './snapshot-store';
export { TypedEmitter, type FeedEvents, type FixEvent, type TripsEvent, type TripFinalEvent, type RequestEvent, type HealthEvent, type WarmState } from './events';
export type { Answer } from './on-demand-cache';
export type { Failure } from './failure';
export type { Clock } from './clock';

/**
 * What server start plugs into the feed. The feed never imports the rooms that use it (the recorder in
 * lib/history, the cluster in lib/cluster, the services beside it): they are wired here, once, before the first
 * request is sent.
 */
export interface FeedWiring {
  /** A snapshot store shared by several instances, in place of the in-memory one. */
  store?: SnapshotStore;
  /** A per-minute counter shared by several instances on one key (see SharedBudget). */
  sharedBudget?: SharedBudget;
  /** The embedded simulator, when no upstream is configured (PARTNER_API_BASE_URL, when set, wins). */
  embedded?: EmbeddedUpstream | null;
  /** Runs on the new feed before it starts: subscribe to `feed.events`, `feed.restore(warm state)`. */
  beforeStart?: (feed: Feed) => void | Promise<void>;
}

/**
 * Server start's feed (lib/server/start.ts; there is no other way to get one): created on the configured upstream,
 * handed to the wiring, then started. A wiring that fails leaves no feed behind. The caller keeps it (in the
 * application context) and stops it.
 */
export async function startFeed(wiring: FeedWiring = {}): Promise<Feed> {
  const embedded = wiring.embedded ?? null;
  const partner = readPartnerConfig(process.env, embedded);
  const feed = new Feed({
    config: appConfig(),
    timezone: partner.ok ? partner.config.timezone : null,
    client: (timeRule) => createConfiguredClient({ timeRule, embedded }),
    store: wiring.store,
    sharedBudget: wiring.sharedBudget,
  });
  await wiring.beforeStart?.(feed);
  feed.start();
  return feed;
}
