// Live headways: THE definition (docs/regularity.md says the same in words). Pure: the server's service, the
// benchmark and the tests call the same function.
//
// For each route and direction, the buses on trips are ordered by their route-snapped progress, the place
// lib/estimate gives the map (placeBuses), never a projection of our own. For each bus behind another:
//   headway h = the distance along the route from the follower to its leader's place now
//               ÷ the follower's recent pace (its own progress over the last PACE_WINDOW_MS up to now, or since its
//                 trip's actual departure from the first stop when that is later), or its trip's planned pace (the
//                 direction's length over the planned trip time) when it has no recent pace;
//   scheduled headway h_sched = the follower's planned departure − the leader's planned departure;
//   r = h / h_sched: bunched when r ≤ HEADWAY_BUNCHED_RATIO (0.5), gapped when r ≥ HEADWAY_GAPPED_RATIO (1.5).
// Ghost trips (ghosts.ts) are not in the order: no bus is seen running them, so the gap they leave shows. Buses
// at a terminal between trips (not departed, or arrived) are laying over, not on the line.
import { directionRuns, estimatePosition, pathForTrip, plannedProgressM, progressAt, runIndexOf, type Estimate, type RoutePath } from '@/lib/estimate';
import type {
  DirectionHeadways,
  EpochMs,
  HeadwayBus,
  HeadwayClass,
  HeadwayGap,
  LadderStop,
  LiveSnapshot,
  RegularityConfig,
  RouteHeadways,
  RouteStop,
  Vehicle,
  VehicleTrip,
} from '@/lib/model';
import { placementsOf, type BusPlacement } from '@/lib/placement/bus-placement';
import { ghostTrips } from './ghosts';

/** The follower's recent pace is its progress over at most this long before its last fix... */
export const PACE_WINDOW_MS = 10 * 60_000;
/** ...and over at least this long: two fixes a minute apart may both fall in one dwell. */
export const PACE_MIN_SPAN_MS = 2 * 60_000;
/**
 * Slower than this (1.8 km/h) a bus has stood still over the window (held, in traffic): how fast it stood says
 * nothing of how long it needs to cover the gap, so the planned pace is used.
 */
export const PACE_MIN_MPS = 0.5;
/** Faster than any bus in town (lib/estimate's bound). */
const PACE_MAX_MPS = 25;

export function headwayClass(ratio: number | null, config: Pick<RegularityConfig, 'bunchedRatio' | 'gappedRatio'>): HeadwayClass {
  if (ratio === null || !Number.isFinite(ratio)) return 'unknown';
  if (ratio <= config.bunchedRatio) return 'bunched';
  if (ratio >= config.gappedRatio) return 'gapped';
  return 'regular';
}

interface PaceSample {
  at: EpochMs;
  m: number;
}

interface HeldPace {
  tripId: number;
  samples: PaceSample[];
  /** The trip's actual departure is among the samples (progress 0 at the first stop then). */
  departed: boolean;
  /** How many of the samples are fixes: a departure alone is no pace of the bus's own. */
  fixes: number;
  seen: number;
}

/**
 * Each bus's progress on its current trip, for its recent pace: at its fixes (fed with every placement made: a
 * placement's fix, snapped by lib/estimate, the start of its motion or the fix of a bus standing still), and 0 at
 * the trip's actual departure from its first stop. A trip that left a few minutes ago, its bus located once since,
 * has a pace from the departure on: its first fixes alone would span too little time.
 */
export class RecentPace {
  private readonly byBus = new Map<number, HeldPace>();
  /** Which record() last saw a bus: the buses not in it are forgotten (a counter, not a set per snapshot). */
  private generation = 0;

  /** `placed[i]` is the placement of `vehicles[i]` (placementsOf), undefined for a bus not placed. */
  record(vehicles: readonly Pick<Vehicle, 'trip'>[], placed: readonly (BusPlacement | undefined)[]): void {
    const generation = ++this.generation;
    for (let i = 0; i < vehicles.length; i++) {
      const p = placed[i];
      const trip = vehicles[i]!.trip;
      if (p === undefined || trip === null) continue;
      const tripId = trip.tripId;
      let held = this.byBus.get(p.busId);
      if (!held || held.tripId !== tripId) this.byBus.set(p.busId, (held = { tripId, samples: [], departed: false, fixes: 0, seen: generation }));
      held.seen = generation;
      if (!held.departed && trip.actualDepartureAt !== null) departure(held, trip.actualDepartureAt);
      const e = p.estimate;
      const at = fixAt(e);
      if (at === null) continue;
      const last = held.samples[held.samples.length - 1];
      if (last && last.at >= at) continue;
      held.samples.push({ at, m: fixM(e)! });
      held.fixes++;
      const cut = at - PACE_WINDOW_MS;
      while (held.samples.length > 2 && held.samples[1]!.at <= cut) held.samples.shift();
    }
    for (const [id, held] of this.byBus) if (held.seen !== generation) this.byBus.delete(id);
  }

  /**
   * m/s over the last PACE_WINDOW_MS on this trip; null when too short a span or standing still. With `at` (where
   * the estimate has the bus now) the window ends now, as a rider's wait does; without it, at the last fix.
   */
  of(busId: number, tripId: number, at?: PaceSample): number | null {
    const held = this.byBus.get(busId);
    if (!held || held.tripId !== tripId || held.fixes === 0 || held.samples.length < (at ? 1 : 2)) return null;
    const samples = held.samples;
    const newest = samples[samples.length - 1]!;
    const last = at && at.at > newest.at ? at : newest;
    const from = last.at - PACE_WINDOW_MS;
    // The progress at the window's start, between the fixes either side of it (the first fix when none is older).
    let after = 0;
    while (after < samples.length && samples[after]!.at < from) after++;
    const b = samples[after === samples.length ? samples.length - 1 : after]!;
    const a = after > 0 && after < samples.length ? samples[after - 1]! : null;
    const firstAt = a && b.at > a.at ? from : b.at;
    const firstM = a && b.at > a.at ? a.m + ((b.m - a.m) * (from - a.at)) / (b.at - a.at) : b.m;
    const span = last.at - firstAt;
    if (span < PACE_MIN_SPAN_MS) return null;
    const pace = (last.m - firstM) / (span / 1000);
    return pace >= PACE_MIN_MPS ? Math.min(PACE_MAX_MPS, pace) : null;
  }
}

/** The trip's departure as a sample, in its place among the fixes (a fix at that very instant stands). */
function departure(held: HeldPace, at: EpochMs): void {
  held.departed = true;
  const samples = held.samples;
  let i = 0;
  while (i < samples.length && samples[i]!.at < at) i++;
  if (i < samples.length && samples[i]!.at === at) return;
  samples.splice(i, 0, { at, m: 0 });
}

/** The GPS time of the fix an estimate stands on, where fixM has its progress; null for a schedule's estimate. */
function fixAt(e: Estimate): EpochMs | null {
  if (e.basis === 'gps-estimate' && e.motion) return e.motion.fromAt;
  if (e.basis === 'fix' && e.progressM !== null && e.fix) return e.fix.gpsAt;
  return null;
}

function fixM(e: Estimate): number | null {
  return e.basis === 'gps-estimate' && e.motion ? e.motion.fromM : e.progressM;
}

export interface HeadwayInputs {
  snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>;
  /** placeBuses's answer for the snapshot's vehicles at `now` (estimates mode): the map's own placements. */
  placements: readonly BusPlacement[];
  /** Route stops by route id, all directions (routeStopsFromNetwork). */
  stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>;
  /** Route codes and names by id; a route known only from its trips takes theirs. */
  routeNames: ReadonlyMap<number, { code: string | null; name: string | null }>;
  pace: Pick<RecentPace, 'of'>;
  now: EpochMs;
  config: RegularityConfig;
  /** Only these routes; every route with stops or trips when absent. */
  routeIds?: ReadonlySet<number>;
}

const DIRECTIONS = ['outbound', 'inbound'] as const;
/** Route codes in the order people read them (M2 before M15); one collator, not one per comparison. */
const ROUTE_CODE_ORDER = new Intl.Collator('en', { numeric: true });

/** Where the timetable puts a trip now (departure to arrival at the planned pace, no delay), metres along `path`. */
function timetableM(path: RoutePath, trip: VehicleTrip, now: EpochMs): number | null {
  return plannedProgressM(path.line.lengthM, trip.plannedDepartureAt, trip.plannedArrivalAt, now);
}

/** Where the schedule (moved by the trip's delay) places a trip with no bus to see: the map's schedule estimate. */
function scheduleM(path: RoutePath, trip: VehicleTrip, now: EpochMs): number | null {
  return estimatePosition({ path, trip, fixes: [], now })?.progressM ?? null;
}

function layoverOf(e: Estimate, trip: VehicleTrip): 'start' | 'end' | null {
  if (trip.actualArrivalAt !== null || e.reason === 'arrived') return 'end';
  if (e.reason === 'not-departed') return 'start';
  if (e.basis === 'schedule-estimate' && !e.motion) return e.progressM === 0 ? 'start' : 'end';
  return null;
}

function busOf(v: Vehicle & { trip: VehicleTrip }, p: BusPlacement, path: RoutePath, now: EpochMs): HeadwayBus {
  const e = p.estimate;
  const layover = layoverOf(e, v.trip);
  return {
    busId: v.busId,
    tripId: v.trip.tripId,
    // The map labels a bus by its route; on a route's own ladder the bus's name tells them apart.
    label: v.busName ?? v.plateNumber ?? `#${v.busId}`,
    delayMinutes: v.trip.delayMinutes,
    delayClass: v.trip.delayClass,
    basis: e.basis,
    stale: p.stale,
    gpsAt: v.lat !== null && v.lon !== null ? v.gpsAt : null,
    // Where the estimate has the bus now: a placement may come from the cache, made at an earlier snapshot, and its
    // progressM is where the bus was then (the map moves it along its motion the same way).
    progressM: layover ? (layover === 'start' ? 0 : path.line.lengthM) : progressAt(e, now),
    motion: !layover && e.motion ? { fromM: e.motion.fromM, fromAt: e.motion.fromAt, speedMps: e.motion.speedMps, toM: e.motion.toM } : null,
    scheduledM: timetableM(path, v.trip, now),
    layover,
    plannedDepartureAt: v.trip.plannedDepartureAt,
  };
}

/** A bus on the line with what its gap needs: its place (the sort key) and its trip's planned pace. */
interface OnLine {
  m: number;
  busId: number;
  bus: HeadwayBus;
  plannedMps: number | null;
}

interface DirectionWork {
  direction: (typeof DIRECTIONS)[number];
  path: RoutePath;
  stops: LadderStop[];
  toward: string | null;
  onLine: OnLine[];
  layover: HeadwayBus[];
  offLine: HeadwayBus[];
  ghosts: DirectionHeadways['ghosts'];
}

interface DirectionShape {
  direction: (typeof DIRECTIONS)[number];
  path: RoutePath;
  stops: LadderStop[];
  toward: string | null;
}

/** Each route's directions by its stops array: cut once, not on every snapshot. */
const shapes = new WeakMap<readonly RouteStop[], DirectionShape[]>();

/** The route's directions as lib/estimate cuts them, each with its path and its stops' places along it. */
function directionsOf(stops: readonly RouteStop[]): DirectionWork[] {
  let cut = shapes.get(stops);
  if (!cut) {
    cut = [];
    const runs = directionRuns(stops);
    for (let i = 0; i < Math.min(runs.length, DIRECTIONS.length); i++) {
      const direction = DIRECTIONS[i]!;
      const tp = pathForTrip(stops, direction);
      if (!tp.ok) continue;
      // The path's vertex k is its k-th placed stop (path.ts).
      const placed = tp.path.stops;
      const ladderStops = placed.map((s, k) => ({ stopId: s.id, name: s.stopName, stopOrder: s.stopOrder, m: tp.path.line.cum[k]! }));
      cut.push({ direction, path: tp.path, stops: ladderStops, toward: placed[placed.length - 1]?.stopName ?? null });
    }
    shapes.set(stops, cut);
  }
  return cut.map((shape) => ({ ...shape, onLine: [], layover: [], offLine: [], ghosts: [] }));
}

/** runIndexOf by direction value: a handful of values, read once each rather than once per bus. */
const runIndexes = new Map<string | null, ReturnType<typeof runIndexOf>>();

function directionFor(dirs: readonly DirectionWork[], trip: Pick<VehicleTrip, 'direction'>): DirectionWork | undefined {
  let index = runIndexes.get(trip.direction);
  if (index === undefined) {
    index = runIndexOf(trip.direction);
    // Values come from the upstream: keep the memo small whatever it sends.
    if (runIndexes.size >= 64) runIndexes.clear();
    runIndexes.set(trip.direction, index);
  }
  if (index === null) return undefined;
  if (index === 'any') return dirs.length === 1 ? dirs[0] : undefined;
  return dirs.find((d) => d.direction === DIRECTIONS[index]);
}

/** The trip's planned pace over the direction (its length over the planned trip time), or null. */
function plannedPace(path: RoutePath, trip: VehicleTrip): number | null {
  const plannedS = trip.plannedDepartureAt !== null && trip.plannedArrivalAt !== null ? (trip.plannedArrivalAt - trip.plannedDepartureAt) / 1000 : null;
  return plannedS !== null && plannedS > 0 ? path.line.lengthM / plannedS : null;
}

function gapsOf(d: DirectionWork, pace: HeadwayInputs['pace'], config: RegularityConfig, now: EpochMs): HeadwayGap[] {
  const gaps: HeadwayGap[] = [];
  for (let i = 1; i < d.onLine.length; i++) {
    const leader = d.onLine[i - 1]!.bus;
    const { bus: follower, plannedMps: planned } = d.onLine[i]!;
    const distanceM = Math.max(0, leader.progressM! - follower.progressM!);
    const recent = pace.of(follower.busId, follower.tripId, { at: now, m: follower.progressM! });
    const paceMps = recent ?? planned;
    if (paceMps === null) continue;
    const headwayS = distanceM / paceMps;
    const sched = leader.plannedDepartureAt !== null && follower.plannedDepartureAt !== null ? (follower.plannedDepartureAt - leader.plannedDepartureAt) / 1000 : null;
    const scheduledS = sched !== null && sched > 0 ? sched : null;
    const ratio = scheduledS === null ? null : headwayS / scheduledS;
    gaps.push({
      leaderTripId: leader.tripId,
      followerTripId: follower.tripId,
      distanceM,
      headwayS,
      paceMps,
      paceSource: recent !== null ? 'recent' : 'scheduled',
      scheduledS,
      ratio,
      cls: headwayClass(ratio, config),
    });
  }
  return gaps;
}

/** Every route's directions with their buses in order, the gaps between them, layovers and ghosts. */
export function computeHeadways(input: HeadwayInputs): RouteHeadways[] {
  const { snapshot, now, config } = input;
  const byRoute = new Map<number, DirectionWork[]>();
  const work = (routeId: number): DirectionWork[] | undefined => {
    if (input.routeIds && !input.routeIds.has(routeId)) return undefined;
    let dirs = byRoute.get(routeId);
    if (!dirs) {
      const stops = input.stopsByRoute.get(routeId);
      dirs = stops ? directionsOf(stops) : [];
      byRoute.set(routeId, dirs);
    }
    return dirs;
  };
  const names = new Map(input.routeNames);
  for (const id of input.stopsByRoute.keys()) work(id);

  const ghosts = ghostTrips(snapshot, now, config.ghostAfterS);
  const ghostIds = new Set(ghosts.map((g) => g.tripId));
  const placed = placementsOf(snapshot.vehicles, input.placements);
  for (let i = 0; i < snapshot.vehicles.length; i++) {
    const v = snapshot.vehicles[i]!;
    const trip = v.trip;
    if (!trip || trip.routeId === null || ghostIds.has(trip.tripId)) continue;
    if (!names.has(trip.routeId)) names.set(trip.routeId, { code: trip.routeCode, name: trip.routeName });
    const dirs = work(trip.routeId);
    const d = dirs && directionFor(dirs, trip);
    const p = placed[i];
    if (!d || !p) continue;
    const bus = busOf(v as Vehicle & { trip: VehicleTrip }, p, d.path, now);
    if (bus.layover) d.layover.push(bus);
    else if (bus.progressM === null) d.offLine.push(bus);
    else d.onLine.push({ m: bus.progressM, busId: bus.busId, bus, plannedMps: plannedPace(d.path, trip) });
  }
  for (const g of ghosts) {
    if (g.routeId === null) continue;
    if (!names.has(g.routeId)) names.set(g.routeId, { code: g.routeCode, name: g.routeName });
    const dirs = work(g.routeId);
    const d = dirs && directionFor(dirs, g);
    if (d) d.ghosts.push({ ...g, scheduledM: scheduleM(d.path, g, now) });
  }

  const out: RouteHeadways[] = [];
  for (const [routeId, dirs] of byRoute) {
    const directions = dirs.map((d): DirectionHeadways => {
      // Furthest along first; a tie (two buses at one place) by bus id, so the order is stable between answers.
      d.onLine.sort((a, b) => b.m - a.m || a.busId - b.busId);
      return {
        direction: d.direction,
        toward: d.toward,
        lengthM: d.path.line.lengthM,
        stops: d.stops,
        buses: d.onLine.map((x) => x.bus),
        gaps: gapsOf(d, input.pace, config, now),
        layover: d.layover.sort((a, b) => (a.plannedDepartureAt ?? 0) - (b.plannedDepartureAt ?? 0) || a.busId - b.busId),
        offLine: d.offLine.sort((a, b) => a.busId - b.busId),
        ghosts: d.ghosts,
      };
    });
    const name = names.get(routeId);
    out.push({ routeId, routeCode: name?.code ?? null, routeName: name?.name ?? null, directions });
  }
  return out.sort((a, b) => ROUTE_CODE_ORDER.compare(a.routeCode ?? '', b.routeCode ?? '') || a.routeId - b.routeId);
}
