import 'server-only';
import { startAuth } from '@/lib/auth';
import { ClusterNode, readClusterConfig } from '@/lib/cluster';
import { appConfig, historyConfig, validateConfigAtStartup } from '@/lib/config';
import { startExceptions } from '@/lib/exceptions';
import { startFeed, type Feed } from '@/lib/fleet';
import type { RecorderStatus } from '@/lib/model';
import { closeProcessStore, DataDirInUseError, processStore } from '@/lib/history';
import { lastOnTrip } from '@/lib/history/queries';
import { startHistory, type HistoryService } from '@/lib/history/service';
import { liveAnswer, serveLive } from '@/lib/http/live-answer';
import { startMetrics } from '@/lib/metrics';
import { startPredictions } from '@/lib/predictions';
import { startGtfsRt } from '@/lib/gtfs-rt';
import { isUpstreamConfigured, registerEmbeddedUpstream } from '@/lib/partner';
import { startHeadways } from '@/lib/regularity/service';
import { startEmbeddedSimulator } from '@/lib/sim/embedded';
import { recorderStatusOf } from './history-status';
import { guardedLive } from './live-guard';
import { provideStatusSources } from './status-sources';

/**
 * Server start: validate the configuration (one clear line per problem, and the server does not start on a
 * bad configuration), start the embedded simulator when no upstream is configured, then start the one feed.
 * Whatever subscribes to the feed (a recorder) or replaces its snapshot store (a cluster) is wired here, in
 * startFeed's wiring, never inside lib/fleet; what they tell the status page and the fleet table (the recorder's
 * state and each bus's last trip, this instance's role) is handed to provideStatusSources (status-sources.ts).
 * /api/live is answered by scripts/server/server.mjs with the handler set here (serveLive), behind the same sign-in check.
 */
export async function startServer() {
  validateConfigAtStartup();
  // Several instances (REDIS_URL) need one PostgreSQL: refused here, before any store opens.
  const clustered = readClusterConfig();
  if (!clustered.ok) throw new Error(clustered.message);
  // First the store: a PGlite directory another process holds must stop this one before it starts anything
  // (two processes corrupt it). Next.js logs an instrumentation error and serves on, so the exit is ours. Any
  // other failure (PostgreSQL not reachable yet) lets the live map start; the recorder keeps trying.
  await processStore().catch((e: unknown) => {
    if (!(e instanceof DataDirInUseError)) return;
    console.error(e.message);
    process.exit(1);
  });
  // Sign-in keeps its users, sessions, wall tokens and audit log in the same store; with sign-in on, a store that
  // cannot be opened stops the start (nobody could sign in), with AUTH_MODE=none the store is not needed here.
  await startAuth(async () => (await processStore()).db);
  if (!isUpstreamConfigured()) {
    const sim = await startEmbeddedSimulator();
    registerEmbeddedUpstream({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    console.info(JSON.stringify({ msg: 'embedded simulator started', baseUrl: sim.baseUrl }));
  }
  const history = historyConfig();
  const { delay } = appConfig();
  let recorder: HistoryService | null = null;
  const recording = async (feed: Feed) => {
    recorder = await startHistory(feed, { store: processStore, config: history, thresholds: delay });
    return recorder;
  };
  // Among several instances only the leader polls and records: the recorder starts and stops with leadership.
  const node = clustered.config ? new ClusterNode(clustered.config, appConfig().feed.watchTtlMs, { onLead: async (feed) => void (await recording(feed)), onFollow: async () => void (await recorder?.close(), (recorder = null)) }) : null;
  await node?.connect();
  const feed = await startFeed({
    store: node?.store,
    sharedBudget: node?.budget,
    beforeStart: async (feed) => {
      if (node) {
        node.attach(feed);
        const store = await processStore().catch(() => null);
        console.info(JSON.stringify({ msg: 'cluster instance', instanceId: node.instanceId, cluster: clustered.config!.name }));
        provideStatusSources({
          instance: () => node.status(),
          recorder: () => (recorder ? recorderStatusOf(recorder.recorder.stats, store?.where ?? null) : followerRecorder(store?.where ?? 'unknown')),
          lastTrips: async (busIds) => lastOnTrip((await processStore()).db, busIds),
        });
        return;
      }
      // The store opens here (its migrations applied); a data directory another process holds stops the start.
      recorder = await recording(feed);
      const store = await processStore().catch(() => null);
      console.info(JSON.stringify({ msg: 'history recording', where: store?.where ?? 'store not open yet', restored: recorder.restored }));
      const service = recorder;
      provideStatusSources({
        recorder: () => recorderStatusOf(service.recorder.stats, store?.where ?? null),
        lastTrips: async (busIds) => lastOnTrip((await processStore()).db, busIds),
      });
    },
  });
  startHeadways(feed);
  startPredictions(feed);
  startExceptions(feed, () => (recorder ? recorderStatusOf(recorder.recorder.stats, null).state : null));
  startGtfsRt(feed);
  serveLive(guardedLive((req) => liveAnswer(feed, req)));
  startMetrics(feed);
  onShutdown(async () => {
    // A leader releases its lease first: another instance takes over while this one writes its last batch.
    await node?.stop();
    await recorder?.close();
    await closeProcessStore();
  });
}

/** The recorder's section on an instance that follows: the leader records. */
function followerRecorder(where: string): RecorderStatus {
  return { state: 'stopped', store: where, lagMs: null, pending: 0, lastWriteAt: null, message: 'This instance follows another: the leader records history.' };
}

// scripts/server/server.mjs awaits this on SIGTERM/SIGINT before the process exits, so the last batch is written.
const SHUTDOWN = Symbol.for('fleetmap.shutdown');

function onShutdown(hook: () => Promise<void>): void {
  const holder = globalThis as { [SHUTDOWN]?: (() => Promise<void>)[] };
  (holder[SHUTDOWN] ??= []).push(hook);
}

/**
 * instrumentation.ts's entry. Next.js logs a failed hook and serves on regardless (its listener may already be
 * open): a server whose start failed, such as one on a reachable address without sign-in, must not stay up.
 * One message, no stack.
 */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  // scripts/server/server.mjs waits for this before it reports a failure to listen (the checks above speak first).
  (globalThis as { [STARTUP]?: { resolve?: () => void } })[STARTUP]?.resolve?.();
}

const STARTUP = Symbol.for('fleetmap.startup');
