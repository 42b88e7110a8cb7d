import 'server-only';
import { appConfig, historyConfig, validateConfigAtStartup } from '@/lib/config';
import { startFeed } from '@/lib/fleet';
import { closeProcessStore, DataDirInUseError, processStore } from '@/lib/history';
import { lastOnTrip } from '@/lib/history/queries';
import { startHistory, type HistoryService } from '@/lib/history/service';
import { liveAnswer, serveLive } from '@/lib/http/live-answer';
import { isUpstreamConfigured, registerEmbeddedUpstream } from '@/lib/partner';
import { startEmbeddedSimulator } from '@/lib/sim/embedded';
import { recorderStatusOf } from './history-status';
import { provideStatusSources } from './status-sources';

/**
 * Server start: validate the configuration (one clear line per problem, and the server does not start on a
 * bad configuration), start the embedded simulator when no upstream is configured, then start the one feed.
 * Whatever subscribes to the feed (a recorder) or replaces its snapshot store (a cluster) is wired here, in
 * startFeed's wiring, never inside lib/fleet; what they tell the status page and the fleet table (the recorder's
 * state and each bus's last trip, this instance's role) is handed to provideStatusSources (status-sources.ts).
  * /api/live is answered by scripts/server.mjs with the handler set here (serveLive).
 */
export async function startServer() {
  validateConfigAtStartup();
  // First the store: a PGlite directory another process holds must stop this one before it starts anything
  // (two processes corrupt it). Next.js logs an instrumentation error and serves on, so the exit is ours. Any
  // other failure (PostgreSQL not reachable yet) lets the live map start; the recorder keeps trying.
  await processStore().catch((e: unknown) => {
    if (!(e instanceof DataDirInUseError)) return;
    console.error(e.message);
    process.exit(1);
  });
  if (!isUpstreamConfigured()) {
    const sim = await startEmbeddedSimulator();
    registerEmbeddedUpstream({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    console.info(JSON.stringify({ msg: 'embedded simulator started', baseUrl: sim.baseUrl }));
  }
  const history = historyConfig();
  const { delay } = appConfig();
  let recorder: HistoryService | null = null;
  const feed = await startFeed({
    beforeStart: async (feed) => {
      // The store opens here (its migrations applied); a data directory another process holds stops the start.
      recorder = await startHistory(feed, { store: processStore, config: history, thresholds: delay });
      const store = await processStore().catch(() => null);
      console.info(JSON.stringify({ msg: 'history recording', where: store?.where ?? 'store not open yet', restored: recorder.restored }));
      const service = recorder;
      provideStatusSources({
        recorder: () => recorderStatusOf(service.recorder.stats, store?.where ?? null),
        lastTrips: async (busIds) => lastOnTrip((await processStore()).db, busIds),
      });
    },
  });
  serveLive((req) => liveAnswer(feed, req));
  onShutdown(async () => {
    await recorder?.close();
    await closeProcessStore();
  });
}

// scripts/server.mjs awaits this on SIGTERM/SIGINT before the process exits, so the last batch is written.
const SHUTDOWN = Symbol.for('fleetmap.shutdown');

function onShutdown(hook: () => Promise<void>): void {
  const holder = globalThis as { [SHUTDOWN]?: (() => Promise<void>)[] };
  (holder[SHUTDOWN] ??= []).push(hook);
}
