import 'server-only';
import type { ClusterNode } from '@/lib/cluster';
import type { AppConfig, HistoryConfig } from '@/lib/config';
import { startExceptions } from '@/lib/exceptions';
import { startGtfsRt } from '@/lib/gtfs-rt';
import { logger } from '@/lib/log';
import { startMetrics } from '@/lib/metrics';
import type { Feed } from '@/lib/fleet';
import type { HistoryService } from '@/lib/history/service';
import type { StatusSources } from '@/lib/model';
import type { StoreQueryTiming } from '@/lib/history/query-timing';
import type { Store } from '@/lib/history/store';
import { startPredictions } from '@/lib/predictions';
import { startHeadways } from '@/lib/regularity/service';
import { recorderStatusOf } from './history-status';

// The services beside the feed (headways, predictions, exceptions, GTFS-Realtime, metrics …). Each is a room of its
// own (lib/regularity, lib/predictions, lib/exceptions, …) exporting a start function; it subscribes to
// `deps.feed.events`, and the feed never imports it. Adding one is ONE line in startServices below:
//
//   const ladder = running.add('ladder', startLadder(deps.feed, headways));
//
// and its name in the object it returns. Server start (lib/server/start.ts) calls this after the recorder is attached
// and before the feed sends its first request (so no event is missed); a service may use the ones started before it.
// At shutdown they close in reverse order, after the feed has stopped. Routes read them from the context, typed from
// what this returns: `withAppContext((app) => … app.services.headways …)`.

/** What a service may use. */
export interface ServiceDeps {
  readonly config: { readonly app: AppConfig; readonly history: HistoryConfig };
  readonly feed: Feed;
  /** The process's store (the one the recorder writes); a failed open is retried on the next call. */
  readonly store: () => Promise<Store>;
  /** Times the store's statements (lib/metrics listens). */
  readonly storeTiming: StoreQueryTiming;
  /** The recorder while this instance records (null on a follower, or before the store opened). */
  readonly recorder: () => HistoryService | null;
  /** The cluster this instance belongs to (REDIS_URL), or null when it runs alone: leader-only work asks it. */
  readonly cluster: ClusterNode | null;
  /** What the recorder and the cluster report (the status page's sources). */
  readonly status: StatusSources;
}

export async function startServices(deps: ServiceDeps) {
  const running = new Running();
  try {
    const headways = running.add('headways', startHeadways(deps.feed));
    const predictions = running.add('predictions', startPredictions(deps.feed, deps.store));
    const exceptions = running.add('exceptions', startExceptions({ ...deps, headways, recorder: () => recorderState(deps.recorder()) }));
    const gtfsRt = running.add('gtfsRt', startGtfsRt(deps.feed, predictions));
    const metrics = running.add('metrics', startMetrics(deps.feed, { status: deps.status, storeTiming: deps.storeTiming, exceptions }));
    return { services: { headways, predictions, exceptions, gtfsRt, metrics }, close: () => running.close() };
  } catch (e) {
    await running.close();
    throw e;
  }
}

export type Services = Awaited<ReturnType<typeof startServices>>['services'];

/** The recorder's state as the integration rules read it (null: no recorder here). */
function recorderState(recorder: HistoryService | null) {
  return recorder ? recorderStatusOf(recorder.recorder.stats, null).state : null;
}

/** A running service: `close` (when it has one) is awaited at shutdown. */
interface Closable {
  close?(): void | Promise<void>;
}

/** The services started so far, closed in reverse order (at shutdown, or when a later one fails to start). */
class Running {
  private readonly started: [string, Closable][] = [];

  add<S extends Closable>(name: string, service: S): S {
    this.started.push([name, service]);
    return service;
  }

  async close(): Promise<void> {
    for (const [name, service] of this.started.splice(0).reverse()) {
      try {
        await service.close?.();
      } catch (e) {
        logger().error({ service: name, error: e instanceof Error ? e.message : String(e) }, 'service did not close cleanly');
      }
    }
  }
}
