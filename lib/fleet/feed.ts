import 'server-only';
import { randomBytes } from 'node:crypto';
import type { BusesResponse, NetworkResponse, RoutesResponse } from '@/lib/model';
import type { AppConfig } from '@/lib/config';
import {
  tripDelayClass,
  type Bus,
  type Capabilities,
  type Health,
  type LiveSnapshot,
  type Paged,
  type PartnerStatus,
  type Route,
  type RouteStops,
  type Trip,
  type UnpositionedTrip,
  type UpstreamError,
  type Vehicle,
  type VehicleTrip,
} from '@/lib/model';
import {
  PartnerError,
  toUpstreamError,
  walkPages,
  type PageRequest,
  type PartnerClient,
  type PartnerOperation,
  type PartnerResponse,
  type TimeRule,
} from '@/lib/partner';
import { percentile } from '@/lib/stats/percentile';
import { systemClock, type Clock } from './clock';
import { TypedEmitter, type FeedEvents } from './events';
import { UnavailableError, type Failure } from './failure';
import { LocationScheduler, newTrack, recordFix, type BusTrack } from './location-scheduler';
import { buildNetwork } from './network';
import { OnDemandCache, type Answer } from './on-demand-cache';
import { RateBudget, isRetryableFailure } from './rate-budget';
import { MemorySnapshotStore, type SnapshotStore, type StoredSnapshot } from './snapshot-store';
import { FeedTimezone } from './timezone';
import { shiftBusTimes, shiftTripTimes } from './times';

export type ListResult<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export interface FeedOptions {
  config: AppConfig;
  /** Builds the upstream client; the feed hands it the time rule it infers. */
  client: (timeRule: () => TimeRule) => PartnerClient;
  /** PARTNER_TIMEZONE, or null to infer the offset from the data. */
  timezone: string | null;
  clock?: Clock;
  random?: () => number;
  store?: SnapshotStore;
  /** One structured line per upstream error. */
  log?: (line: Record<string, unknown>) => void;
  /** Location requests allowed in flight at once (the pacer still spaces their start). */
  maxInFlight?: number;
}

const STATUS_RECHECK_MS = 5 * 60_000;
// No wait after a failure (backoff, key re-check, /status retry) outlasts one trips interval: whatever the
// fault, the feed is back within one polling interval of the upstream's return. Retry-After alone may be longer.
/** After a 401/403 the key is re-checked, doubling from here up to one trips interval, so a restored key recovers by itself. */
const AUTH_RECHECK_BASE_MS = 10_000;
const AUTH_RECHECK_MAX_MS = 5 * 60_000;
const STATUS_RETRY_BASE_MS = 2_000;
const STATUS_RETRY_MAX_MS = 60_000;
/** Share of the poller's slots each list may take at most; a big fleet stretches the interval instead. */
const LIST_SLOT_SHARE: Record<ListKind, number> = { activeTrips: 0.3, listBuses: 0.1, listRoutes: 0.05 };
/** Background stops loading takes every Nth slot while routes lack stops. */
const STOPS_EVERY_N_SLOTS = 6;
const STOPS_RETRY_MS = 60_000;
/** Stops change far less often than the route list: reload each route's stops every few route refreshes. */
const STOPS_REFRESH_ROUTE_INTERVALS = 6;
const DEMAND_MAX_WAIT_MS = 5_000;
const SNAPSHOT_MIN_INTERVAL_MS = 1_000;
const UNREACHABLE_AFTER_FAILURES = 3;
const DEGRADED_WINDOW_MS = 2 * 60_000;
const WATCH_REFRESH_MIN_MS = 5_000;
/** Fixes after start used for timezone inference, then every Nth fix. */
const INFER_EARLY_FIXES = 20;
const INFER_EVERY_N_FIXES = 200;

const LIST_KINDS = ['activeTrips', 'listBuses', 'listRoutes'] as const;
type ListKind = (typeof LIST_KINDS)[number];
const isListKind = (kind: string): kind is ListKind => (LIST_KINDS as readonly string[]).includes(kind);
type Job =
  | { kind: 'status' }
  | { kind: ListKind }
  | { kind: 'routeStops'; routeId: number }
  | { kind: 'busLocation'; track: BusTrack };

const NO_CAPABILITIES: Capabilities = { buses: false, routes: false, stops: false, trips: false, locations: false };

const CAPABILITY_OF: Record<PartnerOperation, keyof Capabilities | null> = {
  status: null,
  listBuses: 'buses',
  listRoutes: 'routes',
  routeStops: 'stops',
  activeTrips: 'trips',
  trip: 'trips',
  busLocation: 'locations',
};

export function capabilitiesOf(s: PartnerStatus): Capabilities {
  const has = (scope: string) => s.scopes.includes(scope);
  return {
    buses: has('buses:read'),
    routes: has('routes:read'),
    stops: has('stops:read'),
    trips: has('trips:read'),
    locations: has('gps:read') && s.level === 'business',
  };
}

export class Feed {
  readonly events = new TypedEmitter<FeedEvents>();
  readonly budget: RateBudget;
  private readonly config: AppConfig;
  private readonly clock: Clock;
  private readonly tz: FeedTimezone;
  private readonly makeClient: FeedOptions['client'];
  private clientInstance: PartnerClient | null = null;
  private readonly store: SnapshotStore;
  private readonly log: (line: Record<string, unknown>) => void;
  private readonly maxInFlight: number;
  private readonly scheduler = new LocationScheduler();
  private readonly generation = randomBytes(4).toString('hex');
  private readonly abort = new AbortController();
  private loopDone: Promise<void> | null = null;
  private readonly inflight = new Set<Promise<void>>();

  private status: PartnerStatus | null = null;
  private capabilities: Capabilities = NO_CAPABILITIES;
  /** Every capability /status has granted since start. */
  private readonly everHad: Capabilities = { ...NO_CAPABILITIES };
  private readonly deniedUntil = new Map<PartnerOperation, number>();
  private nextStatusAt = 0;
  private statusFailures = 0;
  private authFailures = 0;
  private authProblem: 'unauthorized' | 'forbidden' | null = null;

  private readonly buses = new Map<number, Bus>();
  private busesFetchedAt: number | null = null;
  private routes: Route[] = [];
  private routesFetchedAt: number | null = null;
  private trips: Trip[] = [];
  private tripsFetchedAt: number | null = null;
  private readonly tripByBus = new Map<number, Trip>();
  private readonly tracks = new Map<number, BusTrack>();
  private readonly nextListAt: Record<ListKind, number> = { activeTrips: 0, listBuses: 0, listRoutes: 0 };
  private readonly listPages: Record<ListKind, number> = { activeTrips: 1, listBuses: 1, listRoutes: 1 };
  private readonly stopsAttemptAt = new Map<number, number>();
  private readonly tripCache: OnDemandCache<Trip>;
  private readonly stopsCache: OnDemandCache<RouteStops>;
  private stopsVersion = 0;
  private network: { key: string; value: NetworkResponse } | null = null;
  /** Buses a viewer just started watching, not located since: served before anything else. */
  private readonly newWatches = new Set<number>();
  private slotCount = 0;
  private lastJobWasList = false;
  private fixes = 0;

  private lastSuccessAt: number | null = null;
  private lastError: UpstreamError | null = null;
  private consecutiveFailures = 0;
  private snapshotBuiltAt = Number.NEGATIVE_INFINITY;
  private snapshotContent = '';
  private version = 0;

  constructor(opts: FeedOptions) {
    this.config = opts.config;
    this.clock = opts.clock ?? systemClock;
    this.budget = new RateBudget({
      clock: this.clock,
      share: opts.config.feed.budgetShare,
      random: opts.random,
      maxBackoffMs: opts.config.feed.tripsIntervalMs,
    });
    this.tz = new FeedTimezone(opts.timezone);
    this.makeClient = opts.client;
    this.store = opts.store ?? new MemorySnapshotStore();
    this.log = opts.log ?? ((line) => console.warn(JSON.stringify(line)));
    this.maxInFlight = opts.maxInFlight ?? 4;
    const staleMaxMs = 30 * 60_000;
    this.tripCache = new OnDemandCache(this.clock, { okMs: 10_000, notFoundMs: 60_000, errorMs: 5_000, staleMaxMs });
    this.stopsCache = new OnDemandCache(this.clock, { okMs: 10 * 60_000, notFoundMs: 60_000, errorMs: 5_000, staleMaxMs: 24 * 60 * 60_000 });
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
  }

  // ---------------------------------------------------------------- the poller

  private async loop(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        if (this.inflight.size >= this.maxInFlight) {
          await Promise.race(this.inflight);
          continue;
        }
        if (!this.hasWork(this.clock.now())) {
          await this.clock.sleep(SNAPSHOT_MIN_INTERVAL_MS, signal);
          continue;
        }
        let job: Job | null = null;
        const granted = await this.budget.acquire(
          () => {
            job = this.pickJob(this.clock.now());
            return job?.kind ?? null;
          },
          'poll',
          { signal },
        );
        if (!granted || !job) {
          await this.clock.sleep(this.budget.pollIntervalMs(), signal);
          continue;
        }
        this.slotCount++;
        await this.runJob(job);
      } catch (e) {
        if (signal.aborted) break;
        // Upstream errors are handled where they happen; this is a bug of ours: say so and keep polling.
        this.log({ msg: 'feed loop error', error: e instanceof Error ? e.name : typeof e });
        await this.clock.sleep(1_000, signal);
      }
    }
  }

  private can(op: PartnerOperation, now: number): boolean {
    const cap = CAPABILITY_OF[op];
    if (cap !== null && !this.capabilities[cap]) return false;
    return (this.deniedUntil.get(op) ?? 0) <= now;
  }

  private hasWork(now: number): boolean {
    if (now >= this.nextStatusAt) return true;
    if (this.authProblem || !this.status) return false;
    if (LIST_KINDS.some((k) => this.can(k, now) && now >= this.nextListAt[k])) return true;
    if (this.can('busLocation', now) && this.tracks.size > this.inflight.size) return true;
    return this.stopsTarget(now) !== null;
  }

  private pickJob(now: number): Job | null {
    if (now >= this.nextStatusAt) return { kind: 'status' };
    if (this.authProblem || !this.status) return null;
    const job = this.pickFleetJob(now);
    this.lastJobWasList = job !== null && isListKind(job.kind);
    return job;
  }

  private pickFleetJob(now: number): Job | null {
    const watched = this.takeNewWatch(now);
    if (watched) return { kind: 'busLocation', track: watched };
    // Lists due one after another (after a fault, all three, overdue) alternate with locations, so positions
    // keep flowing while they walk; the walk itself does the same between its pages.
    const list = LIST_KINDS.find((kind) => this.can(kind, now) && now >= this.nextListAt[kind]);
    if (list && !this.lastJobWasList) return { kind: list };
    const stops = this.stopsTarget(now);
    if (stops !== null && this.slotCount % STOPS_EVERY_N_SLOTS === 0) return { kind: 'routeStops', routeId: stops };
    const track = this.pickLocation(now);
    if (track) return { kind: 'busLocation', track };
    if (list) return { kind: list };
    return stops !== null ? { kind: 'routeStops', routeId: stops } : null;
  }

  /** A bus a viewer just opened, else the scheduler's pick; null when no location may or need be asked. */
  private pickLocation(now: number): BusTrack | null {
    if (!this.can('busLocation', now)) return null;
    return this.takeNewWatch(now) ?? this.scheduler.pick(this.tracks.values(), now, this.schedulerTiming());
  }

  private takeNewWatch(now: number): BusTrack | null {
    if (!this.can('busLocation', now)) return null;
    for (const busId of this.newWatches) {
      const t = this.tracks.get(busId);
      if (t?.inFlight) continue;
      this.newWatches.delete(busId);
      if (t && (t.fetchedAt === null || t.fetchedAt < t.watchedSince)) return t;
    }
    return null;
  }

  private schedulerTiming() {
    const slotMs = this.budget.pollIntervalMs();
    return { parkedFloorMs: this.config.feed.parkedFloorMs, watchRefreshMs: Math.max(WATCH_REFRESH_MIN_MS, 2 * slotMs), slotMs };
  }

  /** A route whose stops are missing (first) or due for a reload, not tried in the last minute. */
  private stopsTarget(now: number): number | null {
    if (!this.can('routeStops', now) || this.routes.length === 0) return null;
    let best: number | null = null;
    let bestAt = Number.POSITIVE_INFINITY;
    for (const r of this.routes) {
      if (now - (this.stopsAttemptAt.get(r.id) ?? Number.NEGATIVE_INFINITY) < STOPS_RETRY_MS) continue;
      const at = this.stopsCache.peek(String(r.id))?.fetchedAt ?? Number.NEGATIVE_INFINITY;
      if (now - at < STOPS_REFRESH_ROUTE_INTERVALS * this.config.feed.routesIntervalMs) continue;
      if (at < bestAt) {
        best = r.id;
        bestAt = at;
      }
    }
    return best;
  }

  private async runJob(job: Job): Promise<void> {
    const now = this.clock.now();
    try {
      switch (job.kind) {
        case 'status':
          return await this.refreshStatus();
        case 'activeTrips':
        case 'listBuses':
        case 'listRoutes':
          this.nextListAt[job.kind] = now + this.listIntervalMs(job.kind);
          return await this.refreshList(job.kind);
        case 'routeStops':
          this.stopsAttemptAt.set(job.routeId, now);
          return await this.refreshStops(job.routeId);
        case 'busLocation':
          return this.startLocation(job.track);
      }
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      // Already recorded by call(); the next slot carries on.
    }
  }

  /** Location requests run alongside the next slots (up to maxInFlight); the pacer already spaced their start. */
  private startLocation(track: BusTrack): void {
    track.inFlight = true;
    const p: Promise<void> = this.refreshLocation(track).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private listIntervalMs(kind: ListKind): number {
    const configured =
      kind === 'activeTrips' ? this.config.feed.tripsIntervalMs : kind === 'listBuses' ? this.config.feed.busesIntervalMs : this.config.feed.routesIntervalMs;
    return Math.max(configured, (this.listPages[kind] * this.budget.pollIntervalMs()) / LIST_SLOT_SHARE[kind]);
  }

  /**
   * The client is built on first use: a route handler may start the feed before the embedded upstream is
   * registered, and that must show as an unreachable upstream, not as a crash.
   */
  private client(op: PartnerOperation): PartnerClient {
    if (!this.clientInstance) {
      try {
        this.clientInstance = this.makeClient(this.tz.rule);
      } catch (e) {
        const message = e instanceof Error ? e.message : 'The upstream client could not be built.';
        throw new PartnerError({ kind: 'network', message, operation: op, path: '' });
      }
    }
    return this.clientInstance;
  }

  /** Every upstream request goes through here: health, budget feedback and the error log in one place. */
  private async call<T>(op: PartnerOperation, send: (client: PartnerClient) => Promise<PartnerResponse<T>>): Promise<PartnerResponse<T>> {
    try {
      const res = await send(this.client(op));
      this.budget.noteResponse({ rateLimit: res.rateLimit, error: null });
      this.lastSuccessAt = this.clock.now();
      this.consecutiveFailures = 0;
      return res;
    } catch (e) {
      if (e instanceof PartnerError) this.noteFailure(op, e);
      throw e;
    }
  }

  private noteFailure(op: PartnerOperation, e: PartnerError): void {
    const now = this.clock.now();
    this.budget.noteResponse({ rateLimit: null, error: e });
    this.log({ msg: 'upstream error', operation: e.operation, path: e.path, status: e.status, kind: e.kind, code: e.code, correlationId: e.correlationId });
    // A 404 names a missing thing, not trouble with the upstream.
    if (e.status !== 404) this.lastError = toUpstreamError(e, now);
    // Unreadable answers count too: an upstream that only sends garbage gives no data, and 'degraded' would
    // claim that data is still flowing.
    if (isRetryableFailure(e)) this.consecutiveFailures++;
    if (e.status === 401 || (e.status === 403 && op === 'status')) {
      this.authProblem = e.status === 401 ? 'unauthorized' : 'forbidden';
      this.nextStatusAt = now + this.authRecheckMs();
    } else if (e.status === 403) {
      // The key lost this scope or plan: stop asking until /status says otherwise.
      this.deniedUntil.set(op, now + STATUS_RECHECK_MS);
      this.nextStatusAt = Math.min(this.nextStatusAt, now + this.authRecheckMs());
    }
  }

  private authRecheckMs(): number {
    return Math.min(AUTH_RECHECK_MAX_MS, this.config.feed.tripsIntervalMs, AUTH_RECHECK_BASE_MS * 2 ** this.authFailures++);
  }

  private async refreshStatus(): Promise<void> {
    const now = this.clock.now();
    this.nextStatusAt = now + Math.min(STATUS_RETRY_MAX_MS, this.config.feed.tripsIntervalMs, STATUS_RETRY_BASE_MS * 2 ** this.statusFailures);
    let res: PartnerResponse<PartnerStatus>;
    try {
      res = await this.call('status', (c) => c.status());
    } catch (e) {
      this.statusFailures++;
      throw e;
    }
    this.statusFailures = 0;
    this.authFailures = 0;
    this.authProblem = null;
    this.deniedUntil.clear();
    this.status = res.data;
    this.capabilities = capabilitiesOf(res.data);
    this.budget.setLimit(res.data.rateLimitPerMinute);
    // A capability the key had and lost (plan downgraded, scope removed) is likely being put right: re-check at
    // the polling pace so its return shows within one interval. A key that never had it is re-checked rarely.
    let lost = false;
    for (const k of Object.keys(this.capabilities) as (keyof Capabilities)[]) {
      if (this.everHad[k] && !this.capabilities[k]) lost = true;
      this.everHad[k] ||= this.capabilities[k];
    }
    this.nextStatusAt = this.clock.now() + (lost ? Math.min(STATUS_RECHECK_MS, this.config.feed.tripsIntervalMs) : STATUS_RECHECK_MS);
  }

  /** The slot already granted pays for the first page; each further page waits for its own. */
  private pagePacer(kind: ListKind): () => Promise<void> {
    let first = true;
    return async () => {
      if (first) {
        first = false;
        return;
      }
      const signal = this.abort.signal;
      // A long walk (a big fleet's bus list, or every list overdue after a fault) must not stop the positions:
      // every other slot goes to a location, a bus a viewer just opened first. Each still waits for its slot.
      let track: BusTrack | null = null;
      const pick = () => ((track = this.inflight.size < this.maxInFlight ? this.pickLocation(this.clock.now()) : null) ? 'busLocation' : null);
      if (await this.budget.acquire(pick, 'poll', { signal })) {
        this.slotCount++;
        this.startLocation(track!);
      }
      await this.budget.acquire(kind, 'poll', { signal });
    };
  }

  private async walk<T>(kind: ListKind, page: (c: PartnerClient, p: PageRequest) => Promise<PartnerResponse<Paged<T>>>) {
    const gen = this.tz.generation;
    const r = await walkPages((p) => this.call(kind, (c) => page(c, p)), { beforePage: this.pagePacer(kind) });
    this.listPages[kind] = Math.max(1, r.responses.length);
    return { items: r.items, shift: this.tz.shiftSince(gen) };
  }

  private async refreshList(kind: ListKind): Promise<void> {
    if (kind === 'activeTrips') {
      const { items, shift } = await this.walk(kind, (c, p) => c.activeTrips(p));
      this.applyTrips(shift ? items.map((t) => shiftTripTimes(t, shift)) : items);
    } else if (kind === 'listBuses') {
      const { items, shift } = await this.walk(kind, (c, p) => c.listBuses(p));
      this.applyBuses(shift ? items.map((b) => shiftBusTimes(b, shift)) : items);
    } else {
      const { items } = await this.walk(kind, (c, p) => c.listRoutes(p));
      this.routes = dedupeById(items).sort((a, b) => a.id - b.id);
      this.routesFetchedAt = this.clock.now();
    }
  }

  private track(busId: number): BusTrack {
    let t = this.tracks.get(busId);
    if (!t) this.tracks.set(busId, (t = newTrack(busId)));
    return t;
  }

  private applyTrips(items: Trip[]): void {
    const now = this.clock.now();
    this.trips = dedupeById(items).sort((a, b) => a.id - b.id);
    this.tripsFetchedAt = now;
    this.indexTrips();
    for (const trip of this.trips) {
      this.events.emit('observation', {
        type: 'trip-delay',
        tripId: trip.id,
        busId: trip.busId,
        routeId: trip.routeId,
        seenAt: now,
        status: trip.status,
        delayMinutes: trip.delayMinutes,
      });
    }
    this.pruneTracks();
  }

  private indexTrips(): void {
    this.tripByBus.clear();
    for (const trip of this.trips) {
      if (trip.busId === null) continue;
      // Two active trips on one bus: the one that started (or is planned) last is the one it is running.
      const prev = this.tripByBus.get(trip.busId);
      if (!prev || tripStart(trip) >= tripStart(prev)) this.tripByBus.set(trip.busId, trip);
    }
    for (const t of this.tracks.values()) t.onTrip = this.tripByBus.has(t.busId);
    for (const [busId, trip] of this.tripByBus) {
      const t = this.track(busId);
      t.onTrip = true;
      t.plateNumber ??= trip.plateNumber;
      t.busName ??= trip.busName;
    }
  }

  private applyBuses(items: Bus[]): void {
    this.buses.clear();
    for (const b of items) this.buses.set(b.id, b);
    this.busesFetchedAt = this.clock.now();
    for (const b of this.buses.values()) {
      const t = this.track(b.id);
      t.plateNumber = b.plateNumber;
      t.busName = b.busName;
      t.internalCode = b.internalCode;
    }
    this.pruneTracks();
    this.inferTimezone([...this.buses.values()].map((b) => b.lastGpsAt));
  }

  /** A bus the fleet list no longer has and no trip names is dropped. */
  private pruneTracks(): void {
    if (this.busesFetchedAt === null) return;
    for (const id of this.tracks.keys()) if (!this.buses.has(id) && !this.tripByBus.has(id)) this.tracks.delete(id);
  }

  private inferTimezone(samples: Iterable<number | null>): void {
    const shift = this.tz.inferFrom(samples, this.clock.now());
    if (shift === 0) return;
    for (const [id, b] of this.buses) this.buses.set(id, shiftBusTimes(b, shift));
    this.trips = this.trips.map((t) => shiftTripTimes(t, shift));
    this.indexTrips();
    for (const t of this.tracks.values()) if (t.gpsAt !== null) t.gpsAt += shift;
    this.tripCache.clear();
  }

  private async refreshStops(routeId: number): Promise<void> {
    const res = await this.call('routeStops', (c) => c.routeStops(routeId));
    this.stopsCache.put(String(routeId), res.data, this.clock.now());
    this.stopsVersion++;
  }

  private async refreshLocation(track: BusTrack): Promise<void> {
    const gen = this.tz.generation;
    try {
      const { data: loc } = await this.call('busLocation', (c) => c.busLocation(track.busId));
      const now = this.clock.now();
      const gpsAt = loc.lastGpsAt === null ? null : loc.lastGpsAt + this.tz.shiftSince(gen);
      const placed = loc.latitude !== null && loc.longitude !== null;
      recordFix(track, { gpsAt, lat: placed ? loc.latitude : null, lon: placed ? loc.longitude : null, speedKmh: loc.speedKmh, heading: loc.heading, accuracy: loc.accuracy }, now);
      Object.assign(track, {
        lastError: null,
        failures: 0,
        retryAt: 0,
        plateNumber: loc.plateNumber ?? track.plateNumber,
        busName: loc.busName ?? track.busName,
        internalCode: loc.internalCode ?? track.internalCode,
      });
      if (placed) {
        this.events.emit('observation', {
          type: 'location',
          busId: track.busId,
          fetchedAt: now,
          gpsAt,
          lat: loc.latitude!,
          lon: loc.longitude!,
          speedKmh: loc.speedKmh,
          heading: loc.heading,
          accuracy: loc.accuracy,
        });
      }
      this.fixes++;
      if (this.fixes <= INFER_EARLY_FIXES || this.fixes % INFER_EVERY_N_FIXES === 0) this.inferTimezone([...this.tracks.values()].map((t) => t.gpsAt));
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      const now = this.clock.now();
      track.lastError = { at: now, status: e.status, message: e.message };
      // fetchedAt keeps the last fetch that brought data, so the bus shows its true age. Its next try waits:
      // a bus the upstream does not know until its parked floor, any other failure doubling from one slot,
      // so a bus whose request always fails cannot take every slot from the rest of the fleet.
      track.failures++;
      const floorMs = this.config.feed.parkedFloorMs;
      track.retryAt = now + (e.status === 404 ? floorMs : Math.min(floorMs, this.budget.pollIntervalMs() * 2 ** Math.min(track.failures, 20)));
    } finally {
      track.inFlight = false;
    }
  }

  // ---------------------------------------------------------------- viewers

  /** A viewer follows this bus: it gets the top location priority for FEED_WATCH_TTL_S. Unknown ids are ignored. */
  watch(busId: number): boolean {
    const t = this.tracks.get(busId);
    if (!t) return false;
    const now = this.clock.now();
    if (t.watchedUntil <= now) {
      t.watchedSince = now;
      this.newWatches.add(busId);
    }
    t.watchedUntil = now + this.config.feed.watchTtlMs;
    return true;
  }

  /** The stored snapshot, rebuilt at most once a second and only re-versioned when its content changed. */
  liveSnapshot(): StoredSnapshot {
    const now = this.clock.now();
    const stored = this.store.read();
    if (stored && now - this.snapshotBuiltAt < SNAPSHOT_MIN_INTERVAL_MS) return stored;
    this.snapshotBuiltAt = now;
    const parts = this.buildSnapshotParts(now);
    const json = JSON.stringify(parts);
    if (stored && json === this.snapshotContent) return stored;
    this.snapshotContent = json;
    this.version++;
    const snapshot: LiveSnapshot = { generatedAt: now, version: this.version, ...parts };
    const next: StoredSnapshot = {
      snapshot,
      body: `{"generatedAt":${now},"version":${this.version},${json.slice(1)}`,
      etag: `W/"${this.generation}-${this.version}"`,
    };
    this.store.write(next);
    return next;
  }

  private buildSnapshotParts(now: number): Omit<LiveSnapshot, 'generatedAt' | 'version'> {
    const thresholds = { lateMin: this.config.delay.lateMin, earlyMin: this.config.delay.earlyMin };
    const vehicles: Vehicle[] = [];
    const ids = [...this.tracks.keys()].sort((a, b) => a - b);
    for (const busId of ids) {
      const t = this.tracks.get(busId)!;
      const bus = this.buses.get(busId);
      const trip = this.tripByBus.get(busId) ?? null;
      vehicles.push({
        busId,
        plateNumber: bus?.plateNumber ?? t.plateNumber ?? trip?.plateNumber ?? null,
        busName: bus?.busName ?? t.busName ?? trip?.busName ?? null,
        internalCode: bus?.internalCode ?? t.internalCode,
        lat: t.lat,
        lon: t.lon,
        heading: t.heading,
        speedKmh: t.speedKmh,
        accuracy: t.accuracy,
        gpsAt: t.gpsAt,
        fetchedAt: t.fetchedAt,
        trip: trip ? vehicleTrip(trip, thresholds) : null,
      });
    }
    const unpositionedTrips: UnpositionedTrip[] = [];
    for (const trip of this.trips) {
      const t = trip.busId === null ? undefined : this.tracks.get(trip.busId);
      if (this.capabilities.locations && t && t.lat !== null && t.lon !== null) continue;
      unpositionedTrips.push({ ...vehicleTrip(trip, thresholds), busId: trip.busId, plateNumber: trip.plateNumber, busName: trip.busName });
    }
    return { vehicles, unpositionedTrips, health: this.health(now), thresholds };
  }

  health(now = this.clock.now()): Health {
    const budget = this.budget.stats();
    const state = this.state(now, budget.pausedUntil);
    return {
      state,
      message: this.message(state, now),
      lastSuccessAt: this.lastSuccessAt,
      lastError: this.lastError,
      plan: this.status?.plan ?? null,
      level: this.status?.level ?? null,
      scopes: this.status?.scopes ?? [],
      capabilities: this.capabilities,
      budget,
      freshness: this.freshness(now),
      timezone: this.tz.health(now),
    };
  }

  private state(now: number, pausedUntil: number | null): Health['state'] {
    if (this.authProblem) return this.authProblem;
    if (pausedUntil !== null) return 'rate-limited';
    if (this.consecutiveFailures >= UNREACHABLE_AFTER_FAILURES) return 'unreachable';
    if (!this.status) return this.lastError ? 'unreachable' : 'starting';
    if (this.lastError && now - this.lastError.at < DEGRADED_WINDOW_MS) return 'degraded';
    return 'ok';
  }

  private message(state: Health['state'], now: number): string {
    switch (state) {
      case 'starting':
        return 'Connecting to the upstream API.';
      case 'unauthorized':
        return 'The upstream API rejected the API key (401); the key is re-checked periodically.';
      case 'forbidden':
        return "The upstream API refused the key's plan (403); the key is re-checked periodically.";
      case 'rate-limited':
        return "The upstream rate limit was hit; every request is paused until the upstream's Retry-After passes.";
      case 'unreachable':
        return `The upstream API ${this.lastError?.kind === 'contract' ? 'answers with data that cannot be read' : 'cannot be reached'} (${this.lastError?.message ?? 'no answer'}); retrying with backoff.`;
      case 'degraded':
        return `Some upstream requests failed ${Math.round((now - this.lastError!.at) / 1000)} s ago (${this.lastError!.message}); data is still flowing.`;
      case 'ok': {
        const missing = (Object.keys(this.capabilities) as (keyof Capabilities)[]).filter((k) => !this.capabilities[k]);
        if (missing.length === 0) return 'Live data is flowing.';
        const noGps = missing.includes('locations') ? ' Bus positions need gps:read on the API Business plan; trips are listed without positions.' : '';
        return `Live data is flowing; this key cannot read ${missing.join(', ')}.${noGps}`;
      }
    }
  }

  private freshness(now: number): Health['freshness'] {
    if (!this.capabilities.locations) return { meanAgeS: null, p95AgeS: null, boundS: null, trackedBuses: 0 };
    const onTrip = [...this.tracks.values()].filter((t) => t.onTrip);
    const tracked = onTrip.length > 0 ? onTrip : [...this.tracks.values()];
    const ages = tracked
      .filter((t) => t.fetchedAt !== null && t.lat !== null)
      .map((t) => (now - t.fetchedAt!) / 1000)
      .sort((a, b) => a - b);
    const otherPolls = this.budget.sentLastMinute((kind, lane) => lane === 'poll' && kind !== 'busLocation');
    const locationPerMinute = Math.max(1, this.budget.pollPerMinute() - otherPolls);
    return {
      meanAgeS: ages.length === 0 ? null : ages.reduce((a, b) => a + b, 0) / ages.length,
      p95AgeS: percentile(ages, 0.95),
      boundS: tracked.length === 0 ? null : (tracked.length / (2 * locationPerMinute)) * 60,
      trackedBuses: tracked.length,
    };
  }

  // ---------------------------------------------------------------- on-demand

  private notReady(op: PartnerOperation, what: string): Failure | null {
    if (this.authProblem === 'unauthorized') return { status: 502, message: 'The upstream API rejected the server’s API key.', correlationId: null };
    if (this.authProblem === 'forbidden') return { status: 502, message: 'The upstream API refused the key’s plan.', correlationId: null };
    if (!this.status) return { status: 503, message: 'The server is still connecting to the upstream API.', correlationId: null };
    if (!this.can(op, this.clock.now())) return { status: 503, message: `The configured API key cannot read ${what}.`, correlationId: null };
    return null;
  }

  private async demand<T>(op: PartnerOperation, what: string, send: (client: PartnerClient) => Promise<PartnerResponse<T>>): Promise<T> {
    const refused = this.notReady(op, what);
    if (refused) throw new UnavailableError(refused);
    await this.budget.acquire(op, 'demand', { maxWaitMs: DEMAND_MAX_WAIT_MS, signal: this.abort.signal });
    return (await this.call(op, send)).data;
  }

  async trip(id: number): Promise<Answer<Trip>> {
    const now = this.clock.now();
    // The active-trips walk already brought it: no request needed while that is fresh.
    if (this.tripsFetchedAt !== null && now - this.tripsFetchedAt < 10_000) {
      const listed = this.trips.find((t) => t.id === id);
      if (listed) return { ok: true, value: listed, fetchedAt: this.tripsFetchedAt };
    }
    return this.tripCache.get(String(id), () => this.demand('trip', 'trips (trips:read)', (c) => c.trip(id)), `Trip ${id} was not found upstream.`);
  }

  async routeStops(routeId: number): Promise<Answer<RouteStops>> {
    const answer = await this.stopsCache.get(
      String(routeId),
      () => this.demand('routeStops', 'route stops (stops:read)', (c) => c.routeStops(routeId)),
      `Route ${routeId} was not found upstream.`,
    );
    if (answer.ok) this.stopsVersion++;
    return answer;
  }

  routesList(): ListResult<RoutesResponse> {
    const refused = this.listRefusal('listRoutes', 'routes (routes:read)');
    if (refused) return { ok: false, failure: refused };
    return { ok: true, value: { routes: this.routes, fetchedAt: this.routesFetchedAt } };
  }

  busesList(): ListResult<BusesResponse> {
    const refused = this.listRefusal('listBuses', 'buses (buses:read)');
    if (refused) return { ok: false, failure: refused };
    const buses = [...this.buses.values()].sort((a, b) => a.id - b.id);
    return { ok: true, value: { buses, fetchedAt: this.busesFetchedAt } };
  }

  /** Lists are served from what the poller holds; only a missing capability is a failure (an empty list is not). */
  private listRefusal(op: ListKind, what: string): Failure | null {
    if (this.status && !this.capabilities[CAPABILITY_OF[op]!]) return { status: 503, message: `The configured API key cannot read ${what}.`, correlationId: null };
    return null;
  }

  networkGeoJson(): NetworkResponse {
    const key = `${this.routesFetchedAt}:${this.stopsVersion}`;
    if (this.network?.key !== key) {
      this.network = { key, value: buildNetwork(this.routesFetchedAt === null ? null : this.routes, (id) => this.stopsCache.peek(String(id))?.value ?? null) };
    }
    return this.network.value;
  }
}

function vehicleTrip(trip: Trip, thresholds: { lateMin: number; earlyMin: number }): VehicleTrip {
  return {
    tripId: trip.id,
    routeId: trip.routeId,
    routeCode: trip.routeCode,
    routeName: trip.routeName,
    direction: trip.direction,
    status: trip.status,
    delayMinutes: trip.delayMinutes,
    delayClass: tripDelayClass(trip.delayMinutes, thresholds),
    plannedDepartureAt: trip.plannedDepartureAt,
    plannedArrivalAt: trip.plannedArrivalAt,
    actualDepartureAt: trip.actualDepartureAt,
    actualArrivalAt: trip.actualArrivalAt,
  };
}

function tripStart(t: Trip): number {
  return t.actualDepartureAt ?? t.plannedDepartureAt ?? Number.NEGATIVE_INFINITY;
}

/** List order is not given by the spec and pages can shift while we walk them: one item per id. */
function dedupeById<T extends { id: number }>(items: T[]): T[] {
  return [...new Map(items.map((i) => [i.id, i])).values()];
}
