import 'server-only';
import { pathForTrip, RECENT_FIXES_NEEDED, type RecentFix, type RoutePath } from '@/lib/estimate';
import { wallClockInZone } from '@/lib/time/zone';
import type { Answer, Feed, FixEvent } from '@/lib/fleet';
import { DEFAULT_DELAY_THRESHOLDS, type EpochMs, type LiveSnapshot, type NetworkResponse, type RouteStop, type Vehicle, type VehicleTrip } from '@/lib/model';
import { vehicleTrip } from '@/lib/fleet/snapshot-builder';
import type { PredictedTrip, StopArrival, StopArrivalsResponse, TripPredictions } from '@/lib/model/predictions';
import { routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { groupPlaces, type Places } from './places';
import { PaceLearner, passOf } from './pace-profile';
import { predictTrip } from './predict';
import { TripPredictionMemo, tripPredictions, type ActiveTrip } from './trip-memo';
import { seedPaceProfiles, type SeedReport } from './pace-seed';
import { recordedRuns } from '@/lib/history/pace-history';
import type { Store } from '@/lib/history/store';
import { logger } from '@/lib/log';

// Predictions as the server serves them: every active trip of the newest snapshot, looked at once per snapshot
// version and predicted again only when what they rest on changed (trip-memo.ts: a new fix, a new trip record), from the route stops the feed has loaded (no upstream request of its own) and
// the recent fixes the feed announced. Routes read it; the feed never knows it exists.

/** Arrivals listed at a place at most (the soonest). */
const MAX_ARRIVALS = 40;

export interface PredictionSet {
  /** The snapshot's epoch-version these were made for. */
  key: string;
  at: EpochMs;
  /** By trip id, every active trip that could be predicted. */
  trips: Map<number, TripPredictions>;
  places: Places;
  pendingRoutes: number;
  /** The snapshot version they were made from. */
  snapshot: LiveSnapshot;
}

type Active = ActiveTrip & { vehicle: Vehicle | null };

export class PredictionService {
  private readonly recent = new Map<number, RecentFix[]>();
  private current: PredictionSet | null = null;
  private placesFor: { network: NetworkResponse; stopsByRoute: Map<number, RouteStop[]>; places: Places } | null = null;
  /** Each active trip's predictions, kept while nothing they rest on changes (trip-memo.ts). */
  private readonly memo = new TripPredictionMemo();
  private readonly unsubscribe: () => void;
  /** Pace profiles learnt from the trips this server watched run (pace-profile.ts). */
  readonly learner: PaceLearner;
  /** The passes of each active trip so far, handed to the learner once the trip leaves the active trips. */
  private readonly passes = new Map<number, { trip: VehicleTrip; path: RoutePath; points: { m: number; t: number }[]; lastFixAt: number | null }>();

  constructor(readonly feed: Feed) {
    const offFix = feed.events.on('fix', (f) => this.noteFix(f));
    const offShift = feed.events.on('time-shift', ({ shiftMs }) => this.shiftTimes(shiftMs));
    this.unsubscribe = () => {
      offFix();
      offShift();
    };
    // The zone's hour by quarter hour (zones change their offset only on one): the learner asks it per trip and version.
    const hours = new Map<string, number>();
    this.learner = new PaceLearner((t) => {
      const rule = feed.timeRule();
      if (rule.kind !== 'zone') return new Date(t + rule.minutes * 60_000).getUTCHours();
      const quarter = Math.floor(t / 900_000) * 900_000;
      const key = `${rule.zone}|${quarter}`;
      let h = hours.get(key);
      if (h === undefined) {
        if (hours.size > 10_000) hours.clear();
        hours.set(key, (h = wallClockInZone(quarter, rule.zone).hour));
      }
      return h;
    });
  }

  private closed = false;
  /** The pace profiles' seed from the recorder (seedFromStore): null when none was asked; its report once done. */
  seeding: Promise<SeedReport | null> | null = null;

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  /**
   * Seeds the pace profiles from the trips the recorder kept (pace-seed.ts), in the background `delayMs` after start:
   * the map and the feeds are served meanwhile, with the flat plan until a route's profile is known.
   */
  seedFromStore(open: () => Promise<Store>, delayMs: number): void {
    const log = logger();
    this.seeding = (async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, delayMs).unref?.());
      if (this.closed) return null;
      const store = await open();
      const started = Date.now();
      const report = await seedPaceProfiles(
        this.learner,
        { read: (q) => recordedRuns(store.db, q), routeStops: () => this.placesOf(this.feed.networkGeoJson()).stopsByRoute },
        this.feed.liveSnapshot().snapshot.generatedAt,
        () => this.closed,
      );
      log.info({ ...report, ms: Date.now() - started }, 'pace profiles seeded from the recorded trips');
      return report;
    })().catch((e: unknown) => {
      log.warn({ error: e instanceof Error ? e.message : String(e) }, 'pace profiles could not be seeded from the recorder: flat plans until trips are watched');
      return null;
    });
  }

  /** The feed now reads upstream times `ms` later (lib/fleet/events.ts TimeShiftEvent): the held fix times follow. */
  private shiftTimes(ms: number): void {
    for (const held of this.recent.values()) for (const f of held) if (f.gpsAt !== null) f.gpsAt += ms;
    for (const p of this.passes.values()) {
      for (const point of p.points) point.t += ms;
      if (p.lastFixAt !== null) p.lastFixAt += ms;
    }
  }

  private noteFix(f: FixEvent): void {
    if (f.gpsAt === null) return;
    const held = (this.recent.get(f.busId) ?? []).filter((x) => x.gpsAt !== f.gpsAt);
    held.push({ lat: f.lat, lon: f.lon, gpsAt: f.gpsAt, speedKmh: f.speedKmh, heading: f.heading, accuracy: f.accuracy });
    held.sort((a, b) => a.gpsAt! - b.gpsAt!);
    this.recent.set(f.busId, held.slice(-RECENT_FIXES_NEEDED));
  }

  /** The bus's recent fixes, with the snapshot's own (a following instance hears no fix events). */
  private fixesOf(v: Vehicle | null): RecentFix[] {
    if (!v || v.lat === null || v.lon === null || v.gpsAt === null) return [];
    const held = this.recent.get(v.busId) ?? [];
    if (held.some((f) => f.gpsAt === v.gpsAt)) return held;
    return [...held, { lat: v.lat, lon: v.lon, gpsAt: v.gpsAt, speedKmh: v.speedKmh, heading: v.heading, accuracy: v.accuracy }].slice(-RECENT_FIXES_NEEDED);
  }

  /** Predictions for every active trip of the newest snapshot (made once per version). */
  predictionSet(): PredictionSet {
    const stored = this.feed.liveSnapshot();
    const snap = stored.snapshot;
    const key = `${snap.epoch}-${snap.version}`;
    if (this.current?.key === key) return this.current;
    const network = this.feed.networkGeoJson();
    const { stopsByRoute, places } = this.placesOf(network);
    const active: Active[] = [
      ...snap.vehicles.filter((v) => v.trip).map((v) => ({ trip: v.trip!, busId: v.busId, busName: v.busName, vehicle: v })),
      ...snap.unpositionedTrips.map((t) => ({ trip: t, busId: t.busId, busName: t.busName, vehicle: null })),
    ];
    const trips = new Map<number, TripPredictions>();
    const seen = new Set<number>();
    for (const a of active) {
      const stops = a.trip.routeId === null ? undefined : stopsByRoute.get(a.trip.routeId);
      if (!stops) continue;
      seen.add(a.trip.tripId);
      const fixes = this.fixesOf(a.vehicle);
      const path = pathForTrip(stops, a.trip.direction);
      if (path.ok) this.notePass(a.trip, path.path, fixes);
      const profile = path.ok && a.trip.routeId !== null && a.trip.plannedDepartureAt !== null ? this.learner.profileFor(a.trip.routeId, a.trip.direction, a.trip.plannedDepartureAt, path.path.line.cum.length) : null;
      const p = this.memo.predict(a, stops, fixes, profile, snap.generatedAt);
      if (p) trips.set(a.trip.tripId, p);
    }
    this.memo.sweep();
    // Trips that left the active ones ran their course: what they showed is learnt.
    for (const [id, t] of this.passes) {
      if (seen.has(id)) continue;
      this.passes.delete(id);
      const { routeId, direction, plannedDepartureAt, plannedArrivalAt } = t.trip;
      if (routeId !== null && plannedDepartureAt !== null && plannedArrivalAt !== null) this.learner.add({ routeId, direction, plannedDepartureAt, plannedArrivalAt, path: t.path, points: t.points });
    }
    // Forget the fixes of buses that left the feed.
    if (this.recent.size > snap.vehicles.length) {
      const known = new Set(snap.vehicles.map((v) => v.busId));
      for (const id of this.recent.keys()) if (!known.has(id)) this.recent.delete(id);
    }
    this.current = { key, at: snap.generatedAt, trips, places, pendingRoutes: network.pendingRoutes, snapshot: snap };
    return this.current;
  }

  private notePass(trip: VehicleTrip, path: RoutePath, fixes: readonly RecentFix[]): void {
    const held0 = this.passes.get(trip.tripId);
    // No fix since the last pass noted: nothing new to place.
    const newest = fixes.reduce<number | null>((a, f) => (f.gpsAt !== null && (a === null || f.gpsAt > a) ? f.gpsAt : a), null);
    if (newest === null || (held0?.path === path && held0.lastFixAt === newest)) return;
    if (held0?.path === path) held0.lastFixAt = newest;
    const pass = passOf(path, trip, fixes);
    if (!pass) return;
    let held = this.passes.get(trip.tripId);
    if (!held || held.path !== path) this.passes.set(trip.tripId, (held = { trip, path, points: [], lastFixAt: newest }));
    held.trip = trip;
    const last = held.points[held.points.length - 1];
    if (!last || pass.t > last.t) held.points.push(pass);
  }

  /** The route stops the network lists and their places, made once per network (pathForTrip keeps paths by stops). */
  private placesOf(network: NetworkResponse): { stopsByRoute: Map<number, RouteStop[]>; places: Places } {
    if (this.placesFor?.network === network) return this.placesFor;
    const stopsByRoute = routeStopsFromNetwork(network);
    const info = new Map<number, { code: string | null; name: string | null }>();
    for (const f of network.features) {
      const p = f.properties;
      if (p.kind === 'route' && typeof p.routeId === 'number') info.set(p.routeId, { code: typeof p.code === 'string' ? p.code : null, name: typeof p.name === 'string' ? p.name : null });
    }
    const places = groupPlaces(stopsByRoute, (id) => info.get(id) ?? { code: null, name: null });
    this.placesFor = { network, stopsByRoute, places };
    return this.placesFor;
  }

  /**
   * One trip's predictions: an active trip's from the newest set; any other trip the upstream knows (a trip not yet
   * or no longer active) from its schedule, its route's stops asked on demand for `client` when not loaded.
   */
  async forTrip(tripId: number, client: string): Promise<Answer<TripPredictions>> {
    const set = this.predictionSet();
    const hit = set.trips.get(tripId);
    if (hit) return { ok: true, value: hit, fetchedAt: set.at };
    const answer = await this.feed.trip(tripId, client);
    if (!answer.ok) return answer;
    const trip = answer.value;
    if (trip.routeId === null) return { ok: false, failure: { status: 404, message: `Trip ${tripId} has no route: its stops are not known.`, correlationId: null } };
    const stops = await this.feed.routeStops(trip.routeId, client);
    if (!stops.ok) return stops;
    const now = this.feed.liveSnapshot().snapshot.generatedAt;
    // The service is not given the configured delay thresholds, and predictions do not read the class: it claims none.
    const vt: VehicleTrip = { ...vehicleTrip(trip, DEFAULT_DELAY_THRESHOLDS), delayClass: 'unknown' };
    const p = predictTrip({ trip: vt, routeStops: stops.value.stops, fixes: [], now });
    if (!p.ok) return { ok: false, failure: { status: 404, message: p.reason === 'no-path' ? `Trip ${tripId}'s direction cannot be placed on its route's stops.` : `Trip ${tripId} has no planned departure and arrival.`, correlationId: null } };
    return { ok: true, value: tripPredictions({ trip: vt, busId: trip.busId, busName: trip.busName }, p), fetchedAt: answer.fetchedAt };
  }

  /** The next arrivals at the place of route stop `stopId`, soonest first; 404 for a stop no loaded route lists. */
  arrivalsAt(stopId: number): Answer<StopArrivalsResponse> {
    const set = this.predictionSet();
    const place = set.places.of(stopId);
    if (!place) return { ok: false, failure: { status: 404, message: `Stop ${stopId} is not a stop of any route the server has loaded.`, correlationId: null } };
    const ids = new Set(place.stopIds);
    const arrivals: StopArrival[] = [];
    for (const t of set.trips.values()) {
      for (const s of t.stops) {
        if (!ids.has(s.stopId)) continue;
        arrivals.push({
          ...predictedTrip(t),
          stopId: s.stopId,
          arrivalAt: s.arrivalAt,
          earliestAt: s.earliestAt,
          latestAt: s.latestAt,
          basis: t.basis,
        });
      }
    }
    arrivals.sort((a, b) => a.arrivalAt - b.arrivalAt || a.tripId - b.tripId);
    return { ok: true, value: { place, arrivals: arrivals.slice(0, MAX_ARRIVALS), at: set.at, pendingRoutes: set.pendingRoutes }, fetchedAt: set.at };
  }
}

/** The trip and bus a set of predictions names, without the rest. */
function predictedTrip(t: PredictedTrip): PredictedTrip {
  const { tripId, routeId, routeCode, routeName, direction, headsign, busId, busName } = t;
  return { tripId, routeId, routeCode, routeName, direction, headsign, busId, busName };
}
