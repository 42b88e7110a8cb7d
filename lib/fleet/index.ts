import 'server-only';
import { appConfig, validateConfigAtStartup } from '@/lib/config';
import { createConfiguredClient, readPartnerConfig } from '@/lib/partner';
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

// One feed per server process. Next.js may load instrumentation and each route handler as separate bundles
// (separate module graphs), so a module-level variable could hold several feeds: the registry symbol on
// globalThis is shared by all of them.
const FEED = Symbol.for('fleetmap.feed');
type FeedHolder = { [FEED]?: Feed };

/**
 * What server start plugs into the feed. The feed never imports the rooms that use it (the recorder in
 * lib/history, the cluster in lib/cluster): they are wired here, once, before the first request is sent.
 */
export interface FeedWiring {
  /** A snapshot store shared by several instances, in place of the in-memory one. */
  store?: SnapshotStore;
  /** A per-minute counter shared by several instances on one key (see SharedBudget). */
  sharedBudget?: SharedBudget;
  /** Runs on the new feed before it starts: subscribe to `feed.events`, `feed.restore(warm state)`. */
  beforeStart?: (feed: Feed) => void | Promise<void>;
}

function createFeed(store: SnapshotStore | undefined, sharedBudget?: SharedBudget): Feed {
  validateConfigAtStartup();
  const partner = readPartnerConfig();
  const feed = new Feed({
    config: appConfig(),
    timezone: partner.ok ? partner.config.timezone : null,
    client: (timeRule) => createConfiguredClient({ timeRule }),
    store,
    sharedBudget,
  });
  Object.defineProperty(globalThis, FEED, { value: feed, enumerable: false, configurable: true, writable: false });
  return feed;
}

/**
 * Server start (instrumentation): creates the process's feed, lets the wiring attach to it, then starts it.
 * A feed that already exists (an API request came first) is returned as it is.
 */
export async function startFeed(wiring: FeedWiring = {}): Promise<Feed> {
  const existing = (globalThis as FeedHolder)[FEED];
  if (existing) return existing;
  const feed = createFeed(wiring.store, wiring.sharedBudget);
  try {
    await wiring.beforeStart?.(feed);
  } catch (e) {
    // A feed that never starts must not be left to serve: the next caller creates a fresh one.
    delete (globalThis as FeedHolder)[FEED];
    throw e;
  }
  feed.start();
  return feed;
}

/** The process's feed, created and started on first use (instrumentation, else the first API request). */
export function ensureFeedStarted(): Feed {
  let feed = (globalThis as FeedHolder)[FEED];
  if (!feed) {
    feed = createFeed(undefined);
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
