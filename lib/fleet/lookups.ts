import 'server-only';
import type { BusesResponse, NetworkResponse, RouteStops, RoutesResponse, Trip } from '@/lib/model';
import type { PartnerClient, PartnerOperation, PartnerResponse } from '@/lib/partner';
import type { Clock } from './clock';
import { UnavailableError, type Failure } from './failure';
import type { FleetState } from './fleet-state';
import type { UpstreamGateway } from './gateway';
import { buildNetwork } from './network';
import { ClientQuota } from './client-quota';
import { OnDemandCache, type Answer } from './on-demand-cache';
import type { RateBudget } from './rate-budget';

// What route handlers ask of the feed besides the snapshot: one trip or one route's stops (asked upstream on
// demand, within the budget's headroom, cached and shared by every viewer), the lists the poller holds, and the
// network as GeoJSON. The stops cache is also where the poller's background loading puts each route's stops.
// Viewers choose the ids, so two things keep a sweep of valid but unknown ids from hurting anyone else: each
// client's lookups that reach the upstream are bounded (client-quota.ts), and what the feed knows (stops of
// listed routes, trips it has seen on /trips/active) is cached apart from viewers' misses, so misses can only
// evict misses and /api/network keeps every listed route's stops.

export type ListResult<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/**
 * A trip is served without a new request this long after the answer that brought it: the active-trips walk
 * (every FEED_TRIPS_INTERVAL_S) or an on-demand lookup. Short, because a trip's delay changes by the minute.
 */
export const TRIP_FRESH_MS = 10_000;
/** An upstream 404 (unknown trip or route) is remembered this long. */
const NOT_FOUND_MEMORY_MS = 60_000;
/** Any other failure is remembered this long, so a broken upstream is not asked once per viewer. */
const FAILURE_MEMORY_MS = 5_000;
/** A trip older than this is no longer served in place of a failure. */
const TRIP_STALE_MAX_MS = 30 * 60_000;
/** A route's stops change rarely: served for minutes, and a day old rather than not at all. */
const STOPS_FRESH_MS = 10 * 60_000;
const STOPS_STALE_MAX_MS = 24 * 60 * 60_000;
/** How long an on-demand request may wait for a slot in the budget's headroom before it answers 503. */
const DEMAND_MAX_WAIT_MS = 5_000;
/** Answers about ids the feed does not know, kept apart: a sweep churns this one only. */
const MISSES_MAX_ENTRIES = 1_000;
/** Trip ids seen on /trips/active remembered as known (a day's trips of a large network). */
const KNOWN_TRIPS_MAX = 20_000;

export interface LookupSources {
  clock: Clock;
  budget: RateBudget;
  gateway: UpstreamGateway;
  state: FleetState;
  /** Aborts requests waiting for a slot when the feed stops. */
  signal: AbortSignal;
}

export class Lookups {
  private readonly tripCache: OnDemandCache<Trip>;
  private readonly stopsCache: OnDemandCache<RouteStops>;
  private readonly tripMisses: OnDemandCache<Trip>;
  private readonly stopsMisses: OnDemandCache<RouteStops>;
  /** Trip ids the active-trips walks have listed, oldest first. */
  private readonly knownTrips = new Set<number>();
  private readonly quota = new ClientQuota();
  private knownTripsAt: number | null = null;
  private stopsVersion = 0;
  private network: { key: string; value: NetworkResponse } | null = null;

  constructor(private readonly s: LookupSources) {
    const tripTtl = { okMs: TRIP_FRESH_MS, notFoundMs: NOT_FOUND_MEMORY_MS, errorMs: FAILURE_MEMORY_MS, staleMaxMs: TRIP_STALE_MAX_MS };
    const stopsTtl = { okMs: STOPS_FRESH_MS, notFoundMs: NOT_FOUND_MEMORY_MS, errorMs: FAILURE_MEMORY_MS, staleMaxMs: STOPS_STALE_MAX_MS };
    this.tripCache = new OnDemandCache(s.clock, tripTtl);
    this.stopsCache = new OnDemandCache(s.clock, stopsTtl);
    this.tripMisses = new OnDemandCache(s.clock, tripTtl, MISSES_MAX_ENTRIES);
    this.stopsMisses = new OnDemandCache(s.clock, stopsTtl, MISSES_MAX_ENTRIES);
    // Cached trips were read under the old rule.
    s.state.onTimeShift(() => {
      this.tripCache.clear();
      this.tripMisses.clear();
    });
  }

  /** One trip for `client` (lib/http's clientKey), whose lookups that reach the upstream are bounded. */
  async trip(id: number, client: string): Promise<Answer<Trip>> {
    const { state } = this.s;
    const now = this.s.clock.now();
    this.noteListedTrips();
    // The active-trips walk already brought it: no request needed while that is fresh.
    if (state.tripsFetchedAt !== null && now - state.tripsFetchedAt < TRIP_FRESH_MS) {
      const listed = state.trips.find((t) => t.id === id);
      if (listed) return { ok: true, value: listed, fetchedAt: state.tripsFetchedAt };
    }
    const cache = this.knownTrips.has(id) ? this.tripCache : this.tripMisses;
    return cache.get(String(id), () => this.demand('trip', 'trips (trips:read)', (c) => c.trip(id)), `Trip ${id} was not found upstream.`, () => this.admit(client));
  }

  /** A route's stops for `client`; a listed route's are kept with the background loads, any other apart. */
  async routeStops(routeId: number, client: string): Promise<Answer<RouteStops>> {
    const listed = this.s.state.routes.some((r) => r.id === routeId);
    const answer = await (listed ? this.stopsCache : this.stopsMisses).get(
      String(routeId),
      () => this.demand('routeStops', 'route stops (stops:read)', (c) => c.routeStops(routeId)),
      `Route ${routeId} was not found upstream.`,
      () => this.admit(client),
    );
    if (answer.ok && listed) this.stopsVersion++;
    return answer;
  }

  /** When this route's stops were last loaded, by the poller or on demand; null when never. */
  stopsFetchedAt(routeId: number): number | null {
    return this.stopsCache.peek(String(routeId))?.fetchedAt ?? null;
  }

  /** The poller's background load of a route's stops. */
  putStops(routeId: number, stops: RouteStops, fetchedAt: number): void {
    this.stopsCache.put(String(routeId), stops, fetchedAt);
    this.stopsVersion++;
  }

  routesList(): ListResult<RoutesResponse> {
    const refused = this.s.gateway.listRefusal('listRoutes', 'routes (routes:read)');
    if (refused) return { ok: false, failure: refused };
    return { ok: true, value: { routes: this.s.state.routes, fetchedAt: this.s.state.routesFetchedAt } };
  }

  busesList(): ListResult<BusesResponse> {
    const refused = this.s.gateway.listRefusal('listBuses', 'buses (buses:read)');
    if (refused) return { ok: false, failure: refused };
    const buses = [...this.s.state.buses.values()].sort((a, b) => a.id - b.id);
    return { ok: true, value: { buses, fetchedAt: this.s.state.busesFetchedAt } };
  }

  networkGeoJson(): NetworkResponse {
    const { routes, routesFetchedAt } = this.s.state;
    const key = `${routesFetchedAt}:${this.stopsVersion}`;
    if (this.network?.key !== key) {
      this.network = { key, value: buildNetwork(routesFetchedAt === null ? null : routes, (id) => this.stopsCache.peek(String(id))?.value ?? null) };
    }
    return this.network.value;
  }

  private admit(client: string) {
    const q = this.quota.take(client, this.s.clock.now());
    return q.ok ? null : { status: 429 as const, message: `Too many lookups from this client; try again in ${q.retryInS} s.`, correlationId: null };
  }

  /** Remembers the ids of the trips the last walk listed, once per walk. */
  private noteListedTrips(): void {
    const { tripsFetchedAt, trips } = this.s.state;
    if (tripsFetchedAt === this.knownTripsAt) return;
    this.knownTripsAt = tripsFetchedAt;
    for (const t of trips) {
      this.knownTrips.delete(t.id);
      this.knownTrips.add(t.id);
    }
    for (const id of this.knownTrips) {
      if (this.knownTrips.size <= KNOWN_TRIPS_MAX) break;
      this.knownTrips.delete(id);
    }
  }

  /** One on-demand request: refused at once when the key cannot make it, else sent in the demand lane. */
  private async demand<T>(op: PartnerOperation, what: string, send: (client: PartnerClient) => Promise<PartnerResponse<T>>): Promise<T> {
    const { gateway, budget, clock, signal } = this.s;
    const refused = gateway.refusal(op, what, clock.now());
    if (refused) throw new UnavailableError(refused);
    await budget.acquire(op, 'demand', { maxWaitMs: DEMAND_MAX_WAIT_MS, signal });
    return (await gateway.call(op, { lane: 'demand' }, send)).data;
  }
}
