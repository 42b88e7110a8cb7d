import 'server-only';
import type { AppConfig } from '@/lib/config';
import { FINAL_TRIP_EVERY_N_SLOTS, type FinalTrips } from './final-trips';
import type { FleetState } from './fleet-state';
import type { UpstreamGateway } from './gateway';
import { LocationScheduler, type BusTrack } from './location-scheduler';
import type { RateBudget } from './rate-budget';
import { WatchRegistry } from './watches';

// What the poller sends in its next slot. In order: /status when due (nothing else while the key is refused);
// a bus a viewer has just opened (as every watched bus, at most every other slot: the slot after a watched bus
// goes to the fleet, on every path, list walks included); the next page of a walk under way, else a list whose
// interval has passed and that is not being walked (never two list pages in a row while locations wait); a route's stops every few slots while some are missing or due; a trip that left
// /trips/active at most once every FINAL_TRIP_EVERY_N_SLOTS slots, unless the scheduler's pick is a watched
// bus; then the location scheduler's pick; whatever list or stops remain when no location may be asked.
//
// Bus locations keep at least 70 % of the poller's requests actually sent, at any fleet size and hour: every other
// kind together is held to OTHER_KINDS_MAX_SHARE of the last minute's. The lists' and the final lookups' paces
// count the slots actually sent (RateBudget.pollSentPerMinute), not the nominal ones; the lists' shares add up to
// 22 %; final lookups (low priority) yield first, taking only what the lists, stops and /status leave under the cap;
// should the others still reach the cap (answers so slow that fewer than half the nominal requests go out, every
// route's stops loading), the trips walk's next start and the background stops wait for locations next.

export const LIST_KINDS = ['activeTrips', 'listBuses', 'listRoutes'] as const;
export type ListKind = (typeof LIST_KINDS)[number];
const isListKind = (kind: string): kind is ListKind => (LIST_KINDS as readonly string[]).includes(kind);

export type Job =
  | { kind: 'status' }
  /** continues: the next page of the walk under way (false: a new walk's first page). */
  | { kind: ListKind; continues: boolean }
  | { kind: 'routeStops'; routeId: number }
  | { kind: 'busLocation'; track: BusTrack }
  | { kind: 'finalTrip'; tripId: number };

/**
 * Share of the poller's requests actually sent that each list may take at most: a list of more pages than its share
 * allows at its configured interval is walked less often (listIntervalMs). This is how the split adapts to the fleet's
 * size. The default fleet (855 buses, 240/min) walks /trips/active in 6 pages every 15 s, well inside its share;
 * 10,000 buses at rush hour on a 1,200/min key walk 67 pages about every 30 s instead of every 15 s, so that bus
 * locations keep at least 70 % of the requests with the final-trip lookups counted (lib/fleet/budget-split.test.ts;
 * bench/scale-budget.ts measures what the longer walk costs in the age of delay_minutes).
 */
const LIST_SLOT_SHARE: Record<ListKind, number> = { activeTrips: 0.15, listBuses: 0.05, listRoutes: 0.02 };
/** Every kind but bus locations, together, at most this share of the poller's requests sent in the last minute. */
export const OTHER_KINDS_MAX_SHARE = 0.3;
/**
 * A final lookup goes only while the other kinds stay this far under their cap: the pages of a walk come in a burst
 * between two lookups, so lookups that filled the cap to the brim would let each walk overshoot it.
 */
const FINAL_TRIP_CAP_MARGIN = 0.02;
/** Paces follow the requests actually sent, but never as if fewer than this share of the nominal ones went out. */
const SENT_RATE_FLOOR_SHARE = 0.5;
/** Background stops loading takes every Nth slot while routes lack stops. */
const STOPS_EVERY_N_SLOTS = 6;
/** A route whose stops failed to load is not tried again for this long. */
const STOPS_RETRY_MS = 60_000;
/** Stops change far less often than the route list: reload each route's stops every few route refreshes. */
const STOPS_REFRESH_ROUTE_INTERVALS = 6;
/** A watched bus is asked again once its fix is this old, or two slots old when slots are slower. */
const WATCH_REFRESH_MIN_MS = 5_000;

export interface PickerSources {
  config: AppConfig['feed'];
  gateway: UpstreamGateway;
  state: FleetState;
  budget: RateBudget;
  finalTrips: FinalTrips;
  /** When a route's stops were last loaded (null: never). */
  stopsFetchedAt: (routeId: number) => number | null;
}

export class JobPicker {
  /** Slots the poller has used since start (locations started between list pages included). */
  slotCount = 0;
  private readonly scheduler = new LocationScheduler();
  private readonly nextListAt: Record<ListKind, number> = { activeTrips: 0, listBuses: 0, listRoutes: 0 };
  /** Pages each list took at its last walk: a long list is walked less often. */
  private readonly listPages: Record<ListKind, number> = { activeTrips: 1, listBuses: 1, listRoutes: 1 };
  private readonly stopsAttemptAt = new Map<number, number>();
  /** Buses a viewer just started watching, not located since: served before anything else. */
  private readonly newWatches = new Set<number>();
  private readonly watches: WatchRegistry;
  /** Lists whose walk is under way (started, not ended): one walk of a list at a time. */
  private readonly walking = new Set<ListKind>();
  /** Walks under way whose next page waits for a slot. */
  private readonly pageWaiting = new Set<ListKind>();
  /** Whether /trips/active has been walked once (complete or not). */
  private tripsWalked = false;
  private lastJobWasList = false;
  private nextFinalTripAt = 0;

  constructor(private readonly s: PickerSources) {
    this.watches = new WatchRegistry(s.config.watchTtlMs);
  }

  /** Whether any job may be due now; `inFlight` location requests are already out. */
  hasWork(now: number, inFlight: number): boolean {
    const { gateway, state } = this.s;
    if (gateway.statusDue(now)) return true;
    if (!gateway.ready) return false;
    if (this.pageWaiting.size > 0 || LIST_KINDS.some((k) => this.listDue(k, now))) return true;
    if (gateway.can('busLocation', now) && state.tracks.size > inFlight) return true;
    return this.stopsTarget(now) !== null || this.finalTripDue(now);
  }

  pick(now: number): Job | null {
    if (this.s.gateway.statusDue(now)) return { kind: 'status' };
    if (!this.s.gateway.ready) return null;
    const job = this.pickFleetJob(now);
    this.lastJobWasList = job !== null && isListKind(job.kind);
    if (job && job.kind !== 'busLocation') this.scheduler.lastWasWatched = false;
    return job;
  }

  /** A bus a viewer just opened, else the scheduler's pick; null when no location may or need be asked. */
  pickLocation(now: number): BusTrack | null {
    if (!this.s.gateway.can('busLocation', now)) return null;
    return this.takeNewWatch(now) ?? this.scheduler.pick(this.s.state.tracks.values(), now, this.schedulerTiming());
  }

  /**
   * `client` follows this bus: it gets the top location priority for FEED_WATCH_TTL_S. False for an unknown bus
   * or when the watch is refused (the client's or the feed's bound, lib/fleet/watches.ts).
   */
  watch(busId: number, client: string, now: number): boolean {
    const { tracks } = this.s.state;
    const t = tracks.get(busId);
    if (!t) return false;
    const r = this.watches.add(client, busId, now);
    for (const id of r.dropped) {
      const d = tracks.get(id);
      if (d) d.watchedUntil = 0;
      this.newWatches.delete(id);
    }
    if (r.outcome === 'refused') return false;
    if (t.watchedUntil <= now) {
      t.watchedSince = now;
      this.newWatches.add(busId);
    }
    t.watchedUntil = this.watches.watchedUntil(busId, now);
    return true;
  }

  /** Distinct buses watched now. */
  watchedBuses(now: number): number {
    return this.watches.distinctBuses(now);
  }

  /** A list walk starts now: it is next due one interval later, and not before this one has ended. */
  listStarted(kind: ListKind, now: number): void {
    this.nextListAt[kind] = now + this.listIntervalMs(kind);
    this.walking.add(kind);
  }

  /** The walk under way asks for its next page's slot. */
  pageWanted(kind: ListKind): void {
    if (this.walking.has(kind)) this.pageWaiting.add(kind);
  }

  /** The walk has ended (every page read, cut short, failed or cancelled). */
  walkEnded(kind: ListKind): void {
    this.walking.delete(kind);
    this.pageWaiting.delete(kind);
  }

  listWalked(kind: ListKind, pages: number): void {
    if (kind === 'activeTrips') this.tripsWalked = true;
    this.listPages[kind] = Math.max(1, pages);
  }

  stopsStarted(routeId: number, now: number): void {
    this.stopsAttemptAt.set(routeId, now);
  }

  private pickFleetJob(now: number): Job | null {
    const watched = this.takeNewWatch(now);
    if (watched) return { kind: 'busLocation', track: watched };
    // List pages (the next page of a walk under way first, then a walk falling due; after a fault, all three
    // overdue) alternate with locations, so positions keep flowing while they walk.
    const waiting = LIST_KINDS.find((kind) => this.pageWaiting.has(kind));
    const due = LIST_KINDS.filter((kind) => this.listDue(kind, now));
    // Over the cap (answers slow, stops loading), the trips walk and the background stops wait for locations: the
    // walk stretches. Its first walk goes (a starting feed needs its trips), and the other lists, short, go.
    const othersShare = this.otherKindsShare();
    const overCap = othersShare >= OTHER_KINDS_MAX_SHARE;
    const list = due.find((kind) => !(overCap && kind === 'activeTrips' && this.tripsWalked));
    if (waiting && !this.lastJobWasList) return this.nextPage(waiting);
    if (list && !this.lastJobWasList) return { kind: list, continues: false };
    const stops = this.stopsTarget(now);
    if (stops !== null && !overCap && this.slotCount % STOPS_EVERY_N_SLOTS === 0) return { kind: 'routeStops', routeId: stops };
    const track = this.pickLocation(now);
    // A trip that ended may take this slot unless the scheduler picked a watched bus; the bus it picked is
    // picked again next slot (nothing was sent for it).
    if (this.finalTripDue(now, othersShare) && !(track && track.watchedUntil > now)) {
      const tripId = this.s.finalTrips.take();
      if (tripId !== null) {
        this.nextFinalTripAt = now + FINAL_TRIP_EVERY_N_SLOTS * this.sentSlotMs();
        return { kind: 'finalTrip', tripId };
      }
    }
    if (track) return { kind: 'busLocation', track };
    if (waiting) return this.nextPage(waiting);
    if (due.length > 0) return { kind: due[0]!, continues: false };
    return stops !== null ? { kind: 'routeStops', routeId: stops } : null;
  }

  private listDue(kind: ListKind, now: number): boolean {
    return !this.walking.has(kind) && this.s.gateway.can(kind, now) && now >= this.nextListAt[kind];
  }

  private nextPage(kind: ListKind): Job {
    this.pageWaiting.delete(kind);
    return { kind, continues: true };
  }

  /** `othersShare`: otherKindsShare() when the caller has it already (it reads the whole send log). */
  private finalTripDue(now: number, othersShare?: number): boolean {
    return this.s.finalTrips.ready > 0 && now >= this.nextFinalTripAt && this.s.gateway.can('trip', now) && (othersShare ?? this.otherKindsShare()) < OTHER_KINDS_MAX_SHARE - FINAL_TRIP_CAP_MARGIN;
  }

  /**
   * Share of the poller's requests in the last minute that were not bus locations (0 before any). /status is left
   * out: one a minute at most while the key works, and the only request while it is refused, after which the
   * overdue lists must go.
   */
  private otherKindsShare(): number {
    const { budget } = this.s;
    const sent = budget.sentLastMinute((kind, lane) => lane === 'poll' && kind !== 'status');
    return sent === 0 ? 0 : budget.sentLastMinute((kind, lane) => lane === 'poll' && kind !== 'status' && kind !== 'busLocation') / sent;
  }

  /** Time between two of the poller's requests as they actually go out. */
  private sentSlotMs(): number {
    return 60_000 / this.s.budget.pollSentPerMinute(SENT_RATE_FLOOR_SHARE);
  }

  /** A bus a viewer just opened, unless the last slot already went to a watched bus. */
  private takeNewWatch(now: number): BusTrack | null {
    if (this.scheduler.lastWasWatched || !this.s.gateway.can('busLocation', now)) return null;
    for (const busId of this.newWatches) {
      const t = this.s.state.tracks.get(busId);
      if (t?.inFlight) continue;
      this.newWatches.delete(busId);
      if (t && t.watchedUntil > now && (t.fetchedAt === null || t.fetchedAt < t.watchedSince)) {
        this.scheduler.lastWasWatched = true;
        return t;
      }
    }
    return null;
  }

  private schedulerTiming() {
    const slotMs = this.s.budget.pollIntervalMs();
    return { parkedFloorMs: this.s.config.parkedFloorMs, watchRefreshMs: Math.max(WATCH_REFRESH_MIN_MS, 2 * slotMs), slotMs };
  }

  private listIntervalMs(kind: ListKind): number {
    const { config } = this.s;
    const configured = kind === 'activeTrips' ? config.tripsIntervalMs : kind === 'listBuses' ? config.busesIntervalMs : config.routesIntervalMs;
    return Math.max(configured, (this.listPages[kind] * this.sentSlotMs()) / LIST_SLOT_SHARE[kind]);
  }

  /** A route whose stops are missing (first) or due for a reload, not tried in the last minute. */
  private stopsTarget(now: number): number | null {
    const { gateway, state, config } = this.s;
    if (!gateway.can('routeStops', now) || state.routes.length === 0) return null;
    let best: number | null = null;
    let bestAt = Number.POSITIVE_INFINITY;
    for (const r of state.routes) {
      if (now - (this.stopsAttemptAt.get(r.id) ?? Number.NEGATIVE_INFINITY) < STOPS_RETRY_MS) continue;
      const at = this.s.stopsFetchedAt(r.id) ?? Number.NEGATIVE_INFINITY;
      if (now - at < STOPS_REFRESH_ROUTE_INTERVALS * config.routesIntervalMs) continue;
      if (at < bestAt) {
        best = r.id;
        bestAt = at;
      }
    }
    return best;
  }
}
