import 'server-only';
import type { AuthService } from '@/lib/auth';
import type { ClusterNode } from '@/lib/cluster';
import type { AppConfig, HistoryConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import type { StoreReads } from '@/lib/history/queries';
import type { StoreQueryTiming } from '@/lib/history/query-timing';
import type { Store } from '@/lib/history/store';
import type { HistoryService } from '@/lib/history/service';
import { startingResponse } from '@/lib/http/responses';
import { appSlot } from '@/lib/app-slot';
import type { EmbeddedSimulator } from '@/lib/sim/embedded';
import type { ServedContext } from './contract';
import type { StatusSources } from './status-sources';
import type { Services } from './services';

/**
 * The application context: everything the server runs, built once at server start (lib/server/start.ts) and then
 * read by every route, page and the custom server. Nothing here is created on demand: before the context exists a
 * route answers 503 (withAppContext), and a feed never starts without its recorder, cluster and services.
 */
export interface AppContext extends ServedContext {
  readonly config: { readonly app: AppConfig; readonly history: HistoryConfig };
  /** The one feed of this process, started with everything that subscribes to it already wired. */
  readonly feed: Feed;
  /** The store (PGlite, or PostgreSQL by DATABASE_URL), opened at start; a failed open is retried on the next call. */
  readonly store: () => Promise<Store>;
  /** Times the store's statements (the recorder's writes, the reads below); lib/metrics listens to it. */
  readonly storeTiming: StoreQueryTiming;
  /** The reads the history routes make, timed with storeTiming. */
  readonly storeReads: StoreReads;
  /** The embedded simulator the feed reads when no upstream is configured (PARTNER_API_BASE_URL unset), else null. */
  readonly simulator: EmbeddedSimulator | null;
  readonly auth: AuthService;
  /** What the recorder and the cluster tell the status page and the fleet table. */
  readonly status: StatusSources;
  /** The recorder while this instance records (always alone; the leader only among several instances). */
  readonly recorder: () => HistoryService | null;
  readonly cluster: ClusterNode | null;
  /** The services beside the feed (lib/server/services.ts), by name. */
  readonly services: Services;
}

/** The context once server start has finished; null while it runs (or after it failed). */
export function appContext(): AppContext | null {
  return appSlot<AppContext>().context ?? null;
}

/**
 * Server start's first step: a process starts once (one feed, one store, one embedded simulator). A second start
 * is refused before it opens anything; `release` lets a start that failed be tried again (tests).
 */
export function claimAppStart(): { release(): void } {
  const slot = appSlot<AppContext>();
  if (slot.claimed) throw new Error('The server has already been started in this process: a process starts once.');
  slot.claimed = true;
  return { release: () => void (slot.claimed = false) };
}

/** Server start's last step: from here on every request is answered with this context. */
export function publishAppContext(context: AppContext): void {
  const slot = appSlot<AppContext>();
  if (slot.context) throw new Error('The application context is already built: a process starts once.');
  slot.context = context;
}

/** Forgets the context (tests that start and stop a server in one process). */
export function withdrawAppContext(): void {
  const slot = appSlot<AppContext>();
  delete slot.context;
  slot.claimed = false;
}

/** A route handler that needs the context: answers 503 with one sentence until server start has built it. */
export function withAppContext<A extends unknown[]>(handler: (app: AppContext, ...args: A) => Response | Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    const app = appContext();
    return app ? handler(app, ...args) : startingResponse();
  };
}
