// Where the map draws each bus: its estimate along its route (lib/estimate) or, when asked for last fixes, the
// fix itself. Pure: the dispatcher, the wall, the server's services (headways, exceptions, predictions), the
// benchmarks and the tests place buses with the same rules. A
// guess is never drawn as a fix: every placement carries its basis, and the layers draw each basis its own way.
import { RECENT_FIXES_NEEDED, estimatePosition, pathForTrip, type Estimate, type EstimateBasis, type RecentFix } from '@/lib/estimate';
import { sameVehicleTrip, type EpochMs, type NetworkResponse, type RouteStop, type Vehicle } from '@/lib/model';
import { isStaleAge, locationAgeS } from './ages';
import { busLabel, hasPosition, type BusClass } from './bus';

/** What the map shows: estimated positions (the default) or the last fixes as received. */
export type PositionMode = 'estimates' | 'fixes';
export const POSITION_MODES: readonly PositionMode[] = ['estimates', 'fixes'];

export interface BusPlacement {
  busId: number;
  /** Basis `fix` for a bus drawn at its fix (asked for, or nothing better known). */
  estimate: Estimate;
  cls: BusClass;
  /** The bus's own last fix is older than the stale limit (or of unknown age): drawn faded. */
  stale: boolean;
  label: string;
}

/** A route's stops, all directions, as the network carries them (placed stops only, in stop_order). */
export function routeStopsFromNetwork(network: Pick<NetworkResponse, 'features'> | undefined): Map<number, RouteStop[]> {
  const byRoute = new Map<number, RouteStop[]>();
  if (!network) return byRoute;
  for (const f of network.features) {
    const p = f.properties;
    if (p.kind !== 'stop' || f.geometry.type !== 'Point' || typeof p.routeId !== 'number' || typeof p.stopId !== 'number' || typeof p.stopOrder !== 'number') continue;
    const [longitude, latitude] = f.geometry.coordinates;
    const stops = byRoute.get(p.routeId) ?? [];
    stops.push({
      id: p.stopId,
      routeId: p.routeId,
      stopName: typeof p.name === 'string' ? p.name : '',
      stopOrder: p.stopOrder,
      latitude,
      longitude,
      isStart: p.isStart === true,
      isEnd: p.isEnd === true,
      status: null,
    });
    byRoute.set(p.routeId, stops);
  }
  return byRoute;
}

const fixOf = (v: Vehicle): RecentFix => ({ lat: v.lat, lon: v.lon, gpsAt: v.gpsAt, speedKmh: v.speedKmh, heading: v.heading, accuracy: v.accuracy });

/**
 * The last few distinct fixes of each bus across snapshots (a snapshot holds only the latest): the estimator
 * reads the bus's travel speed from them. Buses that leave the snapshot are forgotten.
 */
export class RecentFixes {
  private readonly byBus = new Map<number, { fixes: RecentFix[]; seen: number }>();
  /** Which record() last saw a bus: the buses not in it are forgotten (a counter, not a set per snapshot). */
  private generation = 0;

  record(vehicles: readonly Vehicle[]): void {
    const generation = ++this.generation;
    for (const v of vehicles) {
      const held = this.byBus.get(v.busId);
      if (held) held.seen = generation;
      if (!hasPosition(v) || v.gpsAt === null) continue;
      const fixes = held?.fixes ?? [];
      const newest = fixes[fixes.length - 1];
      if (newest && newest.gpsAt === v.gpsAt) continue;
      let next: RecentFix[];
      if (!newest || newest.gpsAt! < v.gpsAt) {
        // The usual case, a newer fix: appended, the oldest dropped.
        next = fixes.slice(Math.max(0, fixes.length - RECENT_FIXES_NEEDED + 1));
        next.push(fixOf(v));
      } else {
        next = [...fixes.filter((f) => f.gpsAt !== v.gpsAt), fixOf(v)].sort((a, b) => a.gpsAt! - b.gpsAt!).slice(-RECENT_FIXES_NEEDED);
      }
      if (held) held.fixes = next;
      else this.byBus.set(v.busId, { fixes: next, seen: generation });
    }
    for (const [id, held] of this.byBus) if (held.seen !== generation) this.byBus.delete(id);
  }

  of(v: Vehicle): readonly RecentFix[] {
    return this.byBus.get(v.busId)?.fixes ?? (hasPosition(v) ? [fixOf(v)] : []);
  }
}

/**
 * The last placement of each bus and what it was made from: a bus whose fix, trip and look did not change since is
 * not estimated again (a poll brings new fixes for a few dozen buses of hundreds). An estimate is a function of
 * time, so the old one still places the bus now, up to its validUntil.
 */
export class PlacementCache {
  private byBus = new Map<number, { vehicle: Vehicle; mode: PositionMode; stale: boolean; placement: BusPlacement }>();
  private stops: ReadonlyMap<number, readonly RouteStop[]> | null = null;

  /** The cached placement of `v`, or undefined; a new set of route stops empties the cache. */
  get(v: Vehicle, mode: PositionMode, stale: boolean, stopsByRoute: PlaceOptions['stopsByRoute'], now: EpochMs): BusPlacement | undefined {
    if (stopsByRoute !== this.stops) {
      this.byBus = new Map();
      this.stops = stopsByRoute;
    }
    const hit = this.byBus.get(v.busId);
    if (!hit || hit.mode !== mode || hit.stale !== stale || !sameInputs(v, hit.vehicle)) return undefined;
    const until = hit.placement.estimate.validUntil;
    return until === null || now < until ? hit.placement : undefined;
  }

  set(vehicle: Vehicle, mode: PositionMode, stale: boolean, placement: BusPlacement) {
    this.byBus.set(placement.busId, { vehicle, mode, stale, placement });
  }
}

/**
 * Whether a placement made from `b` still holds for `a`: the same fix, the same trip as the estimator reads it and
 * the same label. Compared field by field: building a key string of floats for every bus on every snapshot cost
 * more than the estimates it saved at 10,000 buses.
 */
function sameInputs(a: Vehicle, b: Vehicle): boolean {
  if (a === b) return true;
  if (a.lat !== b.lat || a.lon !== b.lon || a.gpsAt !== b.gpsAt || a.heading !== b.heading || a.speedKmh !== b.speedKmh || a.accuracy !== b.accuracy) return false;
  return a.busName === b.busName && a.plateNumber === b.plateNumber && sameVehicleTrip(a.trip, b.trip);
}

export interface PlaceOptions {
  mode: PositionMode;
  /** Route stops by route id (routeStopsFromNetwork); empty until the network is known. */
  stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>;
  recent: Pick<RecentFixes, 'of'>;
  now: EpochMs;
  staleAfterS: number;
  /** Reuse the placements of buses that did not change (the map's per-poll updates); none: place every bus. */
  cache?: PlacementCache;
}

/**
 * Every bus the map can place: at its estimate (or its fix in `fixes` mode), in the order of `vehicles`. A bus with
 * no fix is placed only by its trip's schedule; one with neither is not drawn.
 */
export function placeBuses(vehicles: readonly Vehicle[], o: PlaceOptions): BusPlacement[] {
  const out: BusPlacement[] = [];
  for (const v of vehicles) {
    // The fix's own age decides staleness; a bus with no fix has nothing to go stale (its basis says so).
    const stale = hasPosition(v) && isStaleAge(locationAgeS(v.gpsAt, o.now), o.staleAfterS);
    const cached = o.cache?.get(v, o.mode, stale, o.stopsByRoute, o.now);
    if (cached) {
      out.push(cached);
      continue;
    }
    const fixes = o.recent.of(v);
    let estimate: Estimate | null;
    if (o.mode === 'fixes' || !v.trip) {
      estimate = hasPosition(v) ? estimatePosition({ path: null, trip: null, fixes: [fixOf(v)], now: o.now }) : null;
    } else {
      const stops = v.trip.routeId === null ? undefined : o.stopsByRoute.get(v.trip.routeId);
      const path = stops ? pathForTrip(stops, v.trip.direction) : null;
      estimate = estimatePosition({ path: path?.ok ? path.path : null, trip: v.trip, fixes: hasPosition(v) ? fixes : [], now: o.now });
    }
    // A position without a GPS time is still drawn, where it was reported and stale (its age is unknown).
    if (!estimate && hasPosition(v)) estimate = undatedFix(v, o.now);
    if (!estimate) continue;
    const placement: BusPlacement = { busId: v.busId, estimate, cls: v.trip ? v.trip.delayClass : 'none', stale, label: busLabel(v) };
    o.cache?.set(v, o.mode, stale, placement);
    out.push(placement);
  }
  return out;
}

/**
 * Each vehicle's placement (undefined for a bus not placed), from placeBuses's answer for these vehicles: it keeps
 * their order, so one walk pairs them without a map by bus id; placements in another order are looked up by id.
 */
export function placementsOf(vehicles: readonly Pick<Vehicle, 'busId'>[], placements: readonly BusPlacement[]): (BusPlacement | undefined)[] {
  const out: (BusPlacement | undefined)[] = new Array(vehicles.length);
  let j = 0;
  for (let i = 0; i < vehicles.length; i++) {
    const p = placements[j];
    if (p !== undefined && p.busId === vehicles[i]!.busId) {
      out[i] = p;
      j++;
    } else out[i] = undefined;
  }
  if (j === placements.length) return out;
  const byBus = new Map<number, BusPlacement>();
  for (const p of placements) byBus.set(p.busId, p);
  return vehicles.map((v) => byBus.get(v.busId));
}

function undatedFix(v: Vehicle & { lat: number; lon: number }, now: EpochMs): Estimate {
  const baseM = v.accuracy ?? 0;
  return {
    basis: 'fix',
    reason: 'no-route',
    at: now,
    lon: v.lon,
    lat: v.lat,
    heading: v.heading,
    radiusM: baseM,
    progressM: null,
    fix: null,
    motion: null,
    radius: { kind: 'growing', baseM, growthMps: 0, fromAt: now },
    validUntil: null,
  };
}

/** How many placements are estimates (not fixes), by basis: the status bar's count. */
export function estimateCounts(placements: readonly BusPlacement[]): Record<EstimateBasis, number> {
  const counts: Record<EstimateBasis, number> = { fix: 0, 'gps-estimate': 0, 'schedule-estimate': 0 };
  for (const p of placements) counts[p.estimate.basis]++;
  return counts;
}

/** The panel's words for a placement: "estimated from a fix 40 s old", "estimated from the schedule", or none. */
export function basisPhrase(e: Pick<Estimate, 'basis' | 'fix'>, now: EpochMs, formatDuration: (s: number) => string): string | null {
  if (e.basis === 'gps-estimate') {
    const age = e.fix ? locationAgeS(e.fix.gpsAt, now) : null;
    return age === null ? 'estimated from a fix of unknown age' : `estimated from a fix ${formatDuration(age)} old`;
  }
  if (e.basis === 'schedule-estimate') return 'estimated from the schedule';
  return null;
}
