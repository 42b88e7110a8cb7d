import 'server-only';
import { logLine } from '@/lib/log';
import type { AppConfig } from '@/lib/config';
import type { BusesResponse, Health, LiveChanges, NetworkResponse, RouteStops, RoutesResponse, Trip, UpstreamRecord } from '@/lib/model';
import type { PartnerClient, TimeRule } from '@/lib/partner';
import { systemClock, type Clock } from './clock';
import { TypedEmitter, type FeedEvents, type WarmState } from './events';
import { FinalTrips } from './final-trips';
import { FleetState } from './fleet-state';
import { UpstreamGateway } from './gateway';
import { FeedHealth } from './health';
import { JobPicker } from './job-picker';
import { Lookups, type ListResult } from './lookups';
import type { Answer } from './on-demand-cache';
import { MAX_IN_FLIGHT } from './in-flight';
import { Poller } from './poller';
import { RateBudget, type SharedBudget } from './rate-budget';
import { SnapshotBuilder } from './snapshot-builder';
import { MemorySnapshotStore, type SnapshotStore, type StoredSnapshot } from './snapshot-store';
import { FeedTimezone } from './timezone';
import { UpstreamRecorder } from './upstream-record';

// The feed as route handlers and server start see it: one object that polls the upstream and answers from what
// it holds. It only assembles the rooms that do the work:
//   gateway.ts         every upstream call, failure bookkeeping, what the key may do (/status)
//   poller.ts          the loop that spends the poll lane, with job-picker.ts choosing each slot's job
//   fleet-state.ts     buses, routes, trips and tracks, and the rules that apply answers to them
//   final-trips.ts     the trips that left /trips/active, waiting for their one lookup
//   snapshot-builder.ts, health.ts, lookups.ts   what viewers read: the snapshot, the health, on-demand answers
//   upstream-record.ts the last hour of requests, errors and health changes, for the status page
//   events.ts          what the feed announces (`events`), for subscribers wired at server start (index.ts)

export interface FeedOptions {
  config: AppConfig;
  /** Builds the upstream client; the feed hands it the time rule it infers. */
  client: (timeRule: () => TimeRule) => PartnerClient;
  /** PARTNER_TIMEZONE, or null to infer the offset from the data. */
  timezone: string | null;
  clock?: Clock;
  random?: () => number;
  /** Where snapshots are kept; in memory by default (a shared store lets several instances serve one). */
  store?: SnapshotStore;
  /** One structured line per upstream error. */
  log?: (line: Record<string, unknown>) => void;
  /**
   * Poll requests allowed in flight at once, at most (default MAX_IN_FLIGHT): below it the cap follows the answers'
   * latency (in-flight.ts); the budget still spaces their start.
   */
  maxInFlight?: number;
  /** A per-minute counter shared with other instances on the same key: every request also takes a permit there. */
  sharedBudget?: SharedBudget;
}

/**
 * Where a feed that follows another instance (lib/cluster's leader) gets what it would otherwise ask upstream
 * itself: its snapshot store holds the leader's versions, and these answer the rest. A list not known yet
 * (null) is answered from this feed's own (empty) state.
 */
export interface FollowSource {
  trip(id: number, client: string): Promise<Answer<Trip>>;
  routeStops(routeId: number, client: string): Promise<Answer<RouteStops>>;
  watch(busId: number, client: string): boolean;
  routesList(): ListResult<RoutesResponse> | null;
  busesList(): ListResult<BusesResponse> | null;
  networkGeoJson(): NetworkResponse | null;
}

export class Feed {
  readonly events = new TypedEmitter<FeedEvents>();
  readonly budget: RateBudget;
  private readonly clock: Clock;
  private readonly abort = new AbortController();
  private readonly state: FleetState;
  private readonly picker: JobPicker;
  private readonly poller: Poller;
  private readonly lookups: Lookups;
  private readonly healthReport: FeedHealth;
  private readonly snapshots: SnapshotBuilder;
  private readonly lastHour: UpstreamRecorder;
  private readonly store: SnapshotStore;
  private started = false;
  private restored = false;
  private following: FollowSource | null = null;
  private readonly healthNotes = new Set<() => string | null>();
  private readonly timeRuleOf: () => TimeRule;

  constructor(opts: FeedOptions) {
    const config = opts.config.feed;
    const clock = (this.clock = opts.clock ?? systemClock);
    const log = opts.log ?? logLine('warn');
    const signal = this.abort.signal;
    const budget = (this.budget = new RateBudget({ clock, share: config.budgetShare, random: opts.random, maxBackoffMs: config.tripsIntervalMs, shared: opts.sharedBudget }));
    const tz = new FeedTimezone(opts.timezone);
    const state = (this.state = new FleetState(tz));
    const events = this.events;
    state.onTimeShift((shiftMs) => events.emit('time-shift', { at: clock.now(), shiftMs }));
    const gateway = new UpstreamGateway({ clock, budget, makeClient: opts.client, timeRule: tz.rule, tripsIntervalMs: config.tripsIntervalMs, log, events, onRecovered: () => state.forgiveFailures() });
    const lookups = (this.lookups = new Lookups({ clock, budget, gateway, state, signal }));
    const finalTrips = new FinalTrips(log);
    const picker = (this.picker = new JobPicker({ config, gateway, state, budget, finalTrips, stopsFetchedAt: (id) => lookups.stopsFetchedAt(id) }));
    const maxInFlight = opts.maxInFlight ?? MAX_IN_FLIGHT;
    const active = () => this.following === null;
    this.poller = new Poller({ clock, config, budget, gateway, state, picker, lookups, finalTrips, maxInFlight, log, events, signal, active });
    this.timeRuleOf = tz.rule;
    const notes = () => [...this.healthNotes].map((note) => note()).filter((n): n is string => n !== null);
    const health = (this.healthReport = new FeedHealth({ gateway, budget, state, finalTrips, events, notes, degradedWindowMs: config.degradedWindowMs }));
    this.lastHour = new UpstreamRecorder(events);
    const store = (this.store = opts.store ?? new MemorySnapshotStore());
    this.snapshots = new SnapshotBuilder({
      state,
      store,
      thresholds: { lateMin: opts.config.delay.lateMin, earlyMin: opts.config.delay.earlyMin },
      locations: () => gateway.capabilities.locations,
      health: (now) => health.report(now),
    });
  }

  /**
   * What a restarted server knew before the stop (lib/history keeps it): served at once with its true ages, the
   * oldest fixes asked first, the trips until the next complete walk replaces them. Once, before start(); a
   * following feed may restore again before it leads (what the leader it replaces left).
   */
  restore(warm: WarmState): void {
    if (this.following === null && (this.started || this.restored)) throw new Error('Feed.restore is called once, before start() (or while following).');
    this.restored = true;
    this.state.restore(warm);
  }

  /**
   * `source`: another instance polls, and this feed follows it: it sends nothing upstream, builds no snapshot
   * (its store holds the leader's), and answers lookups, watches and lists through `source`. null: this feed
   * leads (the default), polling from the next slot on.
   */
  follow(source: FollowSource | null): void {
    this.following = source;
  }

  /** Whether this feed polls (it is not following another instance). */
  get leading(): boolean {
    return this.following === null;
  }

  start(): void {
    this.started = true;
    this.poller.start();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.poller.stopped();
  }

  /**
   * A viewer (`client`: lib/http's clientKey) follows this bus: it gets the top location priority for
   * FEED_WATCH_TTL_S. False for an unknown bus or a watch past the client's or the feed's bound.
   */
  watch(busId: number, client: string): boolean {
    if (this.following) return this.following.watch(busId, client);
    return this.picker.watch(busId, client, this.clock.now());
  }

  /**
   * The stored snapshot, rebuilt at most once a second and only re-versioned when its content changed. A
   * following feed serves the store's (the leader's), and before the first one a version 0 of its own.
   */
  liveSnapshot(): StoredSnapshot {
    if (this.following) return this.store.read() ?? this.snapshots.unstored(this.clock.now());
    return this.snapshots.live(this.clock.now());
  }

  /**
   * The step changes from that version to the newest stored one (call liveSnapshot() first), oldest first;
   * null when only a full snapshot can answer (another epoch, or older than the store keeps).
   */
  liveChangesSince(epoch: string, version: number): LiveChanges[] | null {
    return this.store.changesSince(epoch, version);
  }

  /** The upstream's health as this feed sees it; a following feed reports the leader's (its newest snapshot's). */
  health(now = this.clock.now()): Health {
    const followed = this.following ? this.store.read() : null;
    if (followed) return followed.health;
    return this.healthReport.report(now);
  }

  /** The last hour of upstream requests, errors and health changes, as this process saw them. */
  upstreamRecord(now = this.clock.now()): UpstreamRecord {
    return this.lastHour.record(now);
  }

  /**
   * A room beside the feed (the recorder) adds a sentence to the health and every snapshot while `note` returns
   * one (null: nothing to say). The note is read on every health report, so it must be cheap and must not read
   * the health itself. Returns the function that removes it.
   */
  addHealthNote(note: () => string | null): () => void {
    this.healthNotes.add(note);
    return () => this.healthNotes.delete(note);
  }

  /** The rule the feed reads upstream times with (PARTNER_TIMEZONE, or the inferred offset): the agency's clock. */
  timeRule(): TimeRule {
    return this.timeRuleOf();
  }

  /** One trip, asked upstream on demand when needed; `client` (lib/http's clientKey) bounds its lookups. */
  trip(id: number, client: string): Promise<Answer<Trip>> {
    if (this.following) return this.following.trip(id, client);
    return this.lookups.trip(id, client);
  }

  routeStops(routeId: number, client: string): Promise<Answer<RouteStops>> {
    if (this.following) return this.following.routeStops(routeId, client);
    return this.lookups.routeStops(routeId, client);
  }

  routesList(): ListResult<RoutesResponse> {
    return this.following?.routesList() ?? this.lookups.routesList();
  }

  busesList(): ListResult<BusesResponse> {
    return this.following?.busesList() ?? this.lookups.busesList();
  }

  networkGeoJson(): NetworkResponse {
    return this.following?.networkGeoJson() ?? this.lookups.networkGeoJson();
  }
}
