import 'server-only';
import { appSlot } from '@/lib/app-slot';
import { startAuth } from '@/lib/auth';
import { ClusterNode, readClusterConfig } from '@/lib/cluster';
import { appConfig, historyConfig } from '@/lib/config';
import { startFeed, type Feed } from '@/lib/fleet';
import type { RecorderStatus } from '@/lib/model';
import { DataDirInUseError, processStore } from '@/lib/history';
import { timedReads } from '@/lib/history/queries';
import { StoreQueryTiming } from '@/lib/history/query-timing';
import { startHistory, type HistoryService } from '@/lib/history/service';
import { claimProcessStore } from '@/lib/history/upstream-identity';
import { liveAnswer } from '@/lib/http/live-answer';
import { logger, logLine } from '@/lib/log';
import { embeddedUpstream, isUpstreamConfigured, readPartnerConfig, upstreamIdentity } from '@/lib/partner';
import { startEmbeddedSimulator, type EmbeddedSimulator } from '@/lib/sim/embedded';
import { claimAppStart, publishAppContext, type AppContext } from './context';
import { validateConfigAtStartup } from './config-check';
import { recorderStatusOf } from './history-status';
import { guardedGtfsRt } from './gtfs-rt-guard';
import { guardedLive } from './live-guard';
import { startServices, type Services } from './services';
import type { StatusSources } from './status-sources';

/**
 * Server start builds the application context (lib/server/context.ts), in this order, and publishes it last: until
 * then every route answers 503. Validate the configuration (one clear line per problem; the server does not start
 * on a bad one), open the store, start sign-in, start the embedded simulator when no upstream is configured, then
 * start the one feed with everything that listens to it wired before its first request: the recorder (or, among
 * several instances, the cluster, which starts and stops the recorder with leadership), what they tell the status
 * page, and the services of lib/server/services.ts. None of them is wired inside lib/fleet.
 */
export async function startServer(): Promise<AppContext> {
  const claim = claimAppStart();
  try {
    return await buildContext();
  } catch (e) {
    claim.release();
    throw e;
  }
}

async function buildContext(): Promise<AppContext> {
  validateConfigAtStartup();
  // Several instances (REDIS_URL) need one PostgreSQL: refused here, before any store opens.
  const clustered = readClusterConfig();
  if (!clustered.ok) throw new Error(clustered.message);
  const config = { app: appConfig(), history: historyConfig() };
  const store = processStore(config.history);
  // First the store: a PGlite directory another process holds must stop this one before it starts anything (two
  // processes corrupt it). Any other failure (PostgreSQL not reachable yet) lets the live map start; the recorder
  // keeps trying.
  await store.open().catch((e: unknown) => {
    if (e instanceof DataDirInUseError) throw e;
  });
  // A store belongs to one upstream (lib/history/upstream-identity.ts): another one's buses and trips are never
  // restored or mixed in. The start stops with one sentence, or with FLEETMAP_STORE_RESET=1 the old data goes aside.
  const owned = await claimProcessStore(store, upstreamIdentity(), config.history, logLine('info'));
  if (!owned.ok) throw new Error(owned.sentence);
  // Sign-in keeps its users, sessions, wall tokens and audit log in the same store; with sign-in on, a store that
  // cannot be opened stops the start (nobody could sign in), with AUTH_MODE=none the store is not needed here.
  const auth = await startAuth(async () => (await store.open()).db);
  const sim = isUpstreamConfigured() ? null : await startEmbeddedSimulator();
  const storeTiming = new StoreQueryTiming();
  const storeReads = timedReads(storeTiming);
  let recorder: HistoryService | null = null;
  const recording = async (feed: Feed) => {
    recorder = await startHistory(feed, { store: store.open, config: config.history, thresholds: config.app.delay, timing: storeTiming });
    return recorder;
  };
  // Among several instances only the leader polls and records: the recorder starts and stops with leadership.
  const node = clustered.config ? new ClusterNode(clustered.config, config.app.feed.watchTtlMs, { onLead: async (feed) => void (await recording(feed)), onFollow: async () => void (await recorder?.close(), (recorder = null)) }) : null;
  await node?.connect();
  const status: StatusSources = {};
  const started: { services?: Services; close: () => Promise<void> } = { close: async () => {} };
  const feed = await startFeed({
    store: node?.store,
    sharedBudget: node?.budget,
    embedded: sim && embeddedUpstream(sim),
    beforeStart: async (feed) => {
      const where = async () => (await store.open().catch(() => null))?.where ?? null;
      if (node) {
        node.attach(feed);
        const at = await where();
        status.instance = () => node.status();
        status.recorder = () => (recorder ? recorderStatusOf(recorder.recorder.stats, at) : followerRecorder(at ?? 'unknown'));
      } else {
        // The store opens here (its migrations applied); a data directory another process holds stops the start.
        const service = await recording(feed);
        const at = await where();
        status.recorder = () => recorderStatusOf(service.recorder.stats, at);
      }
      status.lastTrips = async (busIds) => storeReads.lastOnTrip((await store.open()).db, busIds);
      Object.assign(started, await startServices({ config, feed, store: store.open, storeTiming, recorder: () => recorder, cluster: node, status }));
    },
  });
  const services = started.services!;
  let stopping: Promise<void> | null = null;
  const context: AppContext = {
    config,
    feed,
    store: store.open,
    storeTiming,
    storeReads,
    simulator: sim,
    auth,
    status,
    recorder: () => recorder,
    cluster: node,
    services,
    live: guardedLive(auth, (req) => liveAnswer(feed, req)),
    gtfsRt: guardedGtfsRt(auth, services.gtfsRt),
    metrics: services.metrics.handler,
    observer: services.metrics.requests,
    // scripts/server/server.mjs awaits this on SIGTERM/SIGINT before the process exits, so the last batch is written.
    shutdown: () =>
      (stopping ??= runSteps([
        // A leader releases its lease first: another instance takes over while this one writes its last batch.
        ['cluster', () => node?.stop()],
        ['feed', () => feed.stop()],
        ['services', () => started.close()],
        ['recorder', () => recorder?.close()],
        ['store', () => store.close()],
        ['simulator', () => sim?.close()],
      ])),
  };
  const cluster = node ? `cluster ${clustered.config!.name}, instance ${node.instanceId} (${node.status().role})` : 'single instance';
  logger().info(
    { store: (await store.open().catch(() => null))?.where ?? 'store not open yet', cluster, auth: auth?.config.mode ?? 'none', upstream: upstreamHost(sim), restored: (recorder as HistoryService | null)?.restored ?? null },
    'Fleetmap started',
  );
  publishAppContext(context);
  return context;
}

/**
 * The upstream in the start-up line: its host only (a base URL could carry credentials; the key is never near a
 * log), or the embedded simulator's address.
 */
function upstreamHost(sim: EmbeddedSimulator | null): string {
  if (sim) return `embedded simulator at ${new URL(sim.baseUrl).host}`;
  const partner = readPartnerConfig();
  return partner.ok && partner.config.baseUrl ? new URL(partner.config.baseUrl).host : 'not configured';
}

/** Runs every step even when one fails (the recorder's last batch matters more than a cluster that would not stop). */
async function runSteps(steps: [string, () => unknown][]): Promise<void> {
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (e) {
      logger().error({ step: name, error: e instanceof Error ? e.message : String(e) }, 'shutdown step failed');
    }
  }
}

/** The recorder's section on an instance that follows: the leader records. */
function followerRecorder(where: string): RecorderStatus {
  return { state: 'stopped', store: where, lagMs: null, pending: 0, lastWriteAt: null, message: 'This instance follows another: the leader records history.' };
}

/**
 * instrumentation.ts's entry. Next.js logs a failed hook and serves on regardless (its listener may already be
 * open): a server whose start failed, such as one on a reachable address without sign-in, must not stay up.
 * One message, no stack.
 */
export async function startServerOrExit(): Promise<AppContext> {
  let context: AppContext;
  try {
    context = await startServer();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  // scripts/server/server.mjs waits for this before it reports a failure to listen (the checks above speak first).
  appSlot().markStarted();
  return context;
}
