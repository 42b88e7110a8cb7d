import 'server-only';
import { regularityConfig, type HistoryConfig } from '@/lib/config';
import type { Feed } from '@/lib/fleet';
import type { DelayThresholds, NetworkResponse, RegularityConfig, RouteStop } from '@/lib/model';
import { routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { logLine } from '@/lib/log';
import { DataDirInUseError } from './data-dir-lock';
import { describeStoreError, Recorder } from './recorder';
import type { StoreQueryTiming } from './query-timing';
import { pruneHistory } from './retention';
import { deriveRegularityDays, OPEN_EVERY_MS, type OpenDays } from './regularity';
import { closeServiceDays } from './rollups';
import { analyzeStore, type Store } from './store';
import { loadWarmState, recentTripStates } from './warm';

// The history's part of server start: restore the feed from the store (a warm restart), attach the recorder to
// the feed's events, add its note to the health, and keep the service days closed and the retention applied in
// the background. Wired by lib/server/start.ts through startFeed's beforeStart; the feed never imports this.

/** What the history needs of the feed (the Feed itself in the app, a stand-in in tests). */
export type HistoryFeed = Pick<Feed, 'events' | 'restore' | 'addHealthNote' | 'timeRule'> & {
  /** The network (route stops) the headways over days place passings on; without it nothing is derived. */
  networkGeoJson?: () => NetworkResponse | null;
};

export interface HistoryOptions {
  store: () => Promise<Store>;
  config: Pick<HistoryConfig, 'positionsDays' | 'tripsDays'>;
  thresholds: DelayThresholds;
  now?: () => number;
  /** How often service days are closed and old rows pruned. */
  maintenanceIntervalMs?: number;
  /** Handed to the recorder (tests shorten or lengthen its timer). */
  flushIntervalMs?: number;
  maxBufferRows?: number;
  log?: (line: Record<string, unknown>) => void;
  /** Handed to the recorder: times its batch writes (the application context's timing). */
  timing?: StoreQueryTiming;
  /** The headways over days' rules (GHOST_AFTER_S, HEADWAY_*_RATIO); the environment's when absent. */
  regularity?: RegularityConfig;
}

export interface HistoryService {
  recorder: Recorder;
  /** What the warm restart restored. */
  restored: { fixes: number; trips: number } | null;
  /** Closes service days and prunes once, now (the timer does it every interval). */
  maintain(): Promise<void>;
  /** Writes what is pending and stops; the store stays open (its owner closes it). */
  close(): Promise<void>;
}

/** How often PGlite's statistics are refreshed (ANALYZE samples each table: well under a second). */
const ANALYZE_EVERY_MS = 3_600_000;

/** Trips seen within this window are primed into the recorder's change detection after a restart. */
const PRIME_WINDOW_MS = 6 * 3_600_000;

export async function startHistory(feed: HistoryFeed, opts: HistoryOptions): Promise<HistoryService> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? logLine('warn');
  const recorder = new Recorder({ store: opts.store, now, timeRule: () => feed.timeRule(), log, flushIntervalMs: opts.flushIntervalMs, maxBufferRows: opts.maxBufferRows, timing: opts.timing });
  let restored: HistoryService['restored'] = null;
  try {
    const store = await opts.store();
    const warm = await loadWarmState(store.db, now(), opts.config.positionsDays);
    feed.restore(warm);
    recorder.primeTrips(await recentTripStates(store.db, now() - PRIME_WINDOW_MS));
    restored = { fixes: warm.fixes.length, trips: warm.trips.length };
  } catch (e) {
    // Two processes on one PGlite directory would corrupt it: that one stops the start.
    if (e instanceof DataDirInUseError) throw e;
    // Anything else (PostgreSQL not reachable yet): the live map starts cold and the recorder retries.
    log({ msg: 'history not restored', reason: describeStoreError(e) });
  }
  recorder.attach(feed.events);
  const removeNote = feed.addHealthNote(() => recorder.healthNote());

  const abort = new AbortController();
  let first = true;
  let analyzedAt = -Infinity;
  let openDerivedAt = -Infinity;
  // Where each running day's derivation stands: each derivation reads only the last hours (regularity.ts).
  const openDays: OpenDays = new Map();
  let network: NetworkResponse | null = null;
  let stopsByRoute: ReadonlyMap<number, readonly RouteStop[]> = new Map();
  let running: Promise<void> | null = null;
  const maintain = (): Promise<void> =>
    (running ??= (async () => {
      try {
        if (recorder.stats.failing) return;
        const store = await opts.store();
        const closed = await closeServiceDays(store.db, { now: now(), rule: feed.timeRule(), thresholds: opts.thresholds, backfill: first });
        first = false;
        if (closed.length) log({ msg: 'service days closed', level: 'info', dates: closed });
        // Headways over days: each closed day once, the days still running so far every OPEN_EVERY_MS. Its failure
        // is its own: the retention below still runs.
        try {
          const net = feed.networkGeoJson?.() ?? null;
          if (net !== network) {
            const known = stopsByRoute.size;
            stopsByRoute = routeStopsFromNetwork((network = net) ?? undefined);
            // Routes whose stops came in since: their passings so far are derived too (the whole day once again).
            if (stopsByRoute.size > known) openDays.clear();
          }
          const open = now() - openDerivedAt >= OPEN_EVERY_MS;
          const derived = await deriveRegularityDays(store.db, { now: now(), rule: feed.timeRule(), config: opts.regularity ?? regularityConfig(), stopsByRoute, open, openDays });
          if (open && derived.open.length) openDerivedAt = now();
          if (derived.closed.length) log({ msg: 'regularity derived', level: 'info', dates: derived.closed });
        } catch (e) {
          log({ msg: 'regularity derivation failed', reason: describeStoreError(e) });
        }
        await pruneHistory(store.db, { now: now(), positionsDays: opts.config.positionsDays, tripsDays: opts.config.tripsDays, signal: abort.signal });
        // PGlite runs no autovacuum: the planner's statistics are refreshed here (PostgreSQL's autovacuum does it).
        if (store.target === 'pglite' && now() - analyzedAt >= ANALYZE_EVERY_MS) {
          await analyzeStore(store.db);
          analyzedAt = now();
        }
      } catch (e) {
        log({ msg: 'history maintenance failed', reason: describeStoreError(e) });
      }
    })().finally(() => {
      running = null;
    }));
  const interval = opts.maintenanceIntervalMs ?? 5 * 60_000;
  const timer = setInterval(() => void maintain(), interval);
  timer.unref?.();

  return {
    recorder,
    restored,
    maintain,
    async close() {
      clearInterval(timer);
      abort.abort();
      removeNote();
      await running;
      await recorder.close();
    },
  };
}
