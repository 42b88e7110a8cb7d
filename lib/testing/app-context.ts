import { AuthService } from '@/lib/auth';
import { authConfig } from '@/lib/auth/config';
import { appConfig, historyConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import { timedReads } from '@/lib/history/queries';
import { StoreQueryTiming } from '@/lib/history/query-timing';
import { liveAnswer } from '@/lib/http/live-answer';
import { publishAppContext, withdrawAppContext, type AppContext } from '@/lib/server/context';
import { guardedGtfsRt } from '@/lib/server/gtfs-rt-guard';
import { guardedLive } from '@/lib/server/live-guard';
import type { Services } from '@/lib/server/services';

/**
 * An application context around a feed a test made, published as server start would publish its own, so that the
 * app's route handlers answer from that feed: sign-in off, no store, no recorder, no cluster, no services unless
 * given. `withdraw` (call it in afterAll) forgets the context and stops the feed.
 */
export function publishTestContext(feed: Feed, over: Omit<Partial<AppContext>, 'services'> & { services?: Partial<Services> } = {}): AppContext & { withdraw(): Promise<void> } {
  const auth = over.auth ?? new AuthService(authConfig({ AUTH_MODE: 'none' }), null);
  const storeTiming = over.storeTiming ?? new StoreQueryTiming();
  const context: AppContext = {
    config: { app: appConfig(), history: historyConfig() },
    feed,
    store: () => Promise.reject(new Error('This test runs without a store.')),
    storeTiming,
    storeReads: timedReads(storeTiming),
    simulator: null,
    auth,
    status: {},
    recorder: () => null,
    cluster: null,
    live: guardedLive(auth, (req) => liveAnswer(feed, req)),
    gtfsRt: over.services?.gtfsRt ? guardedGtfsRt(auth, over.services.gtfsRt) : () => Promise.reject(new Error('This test runs without the GTFS-Realtime service.')),
    metrics: async () => ({ status: 404, headers: {}, body: null }),
    observer: { request: () => {}, liveAnswer: () => {} },
    shutdown: () => feed.stop(),
    ...over,
    services: given(over.services ?? {}),
  };
  publishAppContext(context);
  return {
    ...context,
    async withdraw() {
      withdrawAppContext();
      await context.shutdown();
    },
  };
}

/** No service runs in a test context unless the test gives it: reading another says so. */
function given(services: Partial<Services>): Services {
  return new Proxy(services as Services, {
    get: (target, name) => {
      if (name in target) return target[name as keyof Services];
      throw new Error(`This test's application context runs no ${String(name)} service: pass it in publishTestContext's services.`);
    },
  });
}
