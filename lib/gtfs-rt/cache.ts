// The feeds' entity bytes, kept from one snapshot version to the next: a bus or trip whose inputs are what they were
// at the last build keeps its bytes, and only the others are built and encoded again (build.ts, then encode.ts, one
// entity at a time: an entity's bytes are the same alone or among others, protobuf fields concatenate). An entry is
// reused when every input its entity is written from is equal (the object itself, or the same values in a new one):
// the identity of a vehicle or predictions object alone would not do, because each snapshot version is built anew.
// The ids and the time rule are the whole cache's inputs: when either changes, nothing is reused. Which buses are
// published (the fix rules, against the snapshot's time) is decided anew on every build.
import type { Vehicle } from '@/lib/model';
import type { TripPredictions } from '@/lib/model/predictions';
import type { TimeRule } from '@/lib/partner/time';
import { tripEntity, tripsInOrder, vehicleEntity, vehicleFate, type FeedSource } from './build';
import { encodeEntities } from './encode';
import type { GtfsIds } from './ids';

export interface CachedBuild {
  /** The entity fields, encoded (as encodeEntities writes the whole message's). */
  entities: Uint8Array;
  leftOut: number;
  /** Entities built and encoded anew (the others' bytes were reused). */
  rebuilt: number;
}

interface VehicleEntry {
  v: Vehicle;
  tripDate: string | null;
  nextOrder: number | undefined;
  nextStop: number | undefined;
  bytes: Uint8Array;
}

interface TripEntry {
  p: TripPredictions;
  plate: string | null;
  tripDate: string | null;
  /** null: nothing to publish (no stop left, or stop times out of order: `broken`). */
  bytes: Uint8Array | null;
  broken: boolean;
}

const sameTrip = (a: Vehicle['trip'], b: Vehicle['trip']) =>
  a === b || (a !== null && b !== null && a.tripId === b.tripId && a.routeId === b.routeId && a.direction === b.direction && a.plannedDepartureAt === b.plannedDepartureAt);

/** The fields of a Vehicle that its VehiclePosition is written from. */
function sameVehicle(a: Vehicle, b: Vehicle): boolean {
  return (
    a === b ||
    (a.busId === b.busId && a.busName === b.busName && a.plateNumber === b.plateNumber && a.lat === b.lat && a.lon === b.lon && a.heading === b.heading && a.speedKmh === b.speedKmh && a.gpsAt === b.gpsAt && sameTrip(a.trip, b.trip))
  );
}

/** The fields of TripPredictions that its TripUpdate is written from. */
function samePredictions(a: TripPredictions, b: TripPredictions): boolean {
  if (a === b) return true;
  if (a.tripId !== b.tripId || a.at !== b.at || a.routeId !== b.routeId || a.direction !== b.direction || a.plannedDepartureAt !== b.plannedDepartureAt) return false;
  if (a.busId !== b.busId || a.busName !== b.busName || a.delayMinutes !== b.delayMinutes || a.stops.length !== b.stops.length) return false;
  for (let i = 0; i < a.stops.length; i++) {
    const x = a.stops[i]!;
    const y = b.stops[i]!;
    if (x !== y && (x.arrivalAt !== y.arrivalAt || x.earliestAt !== y.earliestAt || x.latestAt !== y.latestAt || x.stopId !== y.stopId || x.stopOrder !== y.stopOrder)) return false;
  }
  return true;
}

const sameRule = (a: TimeRule, b: TimeRule) => (a.kind === 'zone' ? b.kind === 'zone' && a.zone === b.zone : b.kind === 'offset' && a.minutes === b.minutes);

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  return Buffer.concat(parts, total);
}

/** One feed's cache: VehiclePositions by bus, or TripUpdates by trip. */
export class EntityCache {
  private vehicles = new Map<number, VehicleEntry>();
  private trips = new Map<number, TripEntry>();
  private context: { ids: GtfsIds; timeRule: TimeRule } | null = null;

  /** Forgets everything when the ids or the time rule are not the last build's. */
  private checkContext(s: FeedSource): void {
    const c = this.context;
    if (c && c.ids === s.ids && sameRule(c.timeRule, s.timeRule)) return;
    this.vehicles.clear();
    this.trips.clear();
    this.context = { ids: s.ids, timeRule: s.timeRule };
  }

  /** VehiclePositions' entities: the bytes encodeEntities(vehiclePositions(s).message) gives. */
  vehiclePositions(s: FeedSource): CachedBuild {
    this.checkContext(s);
    const kept = new Map<number, VehicleEntry>();
    const parts: Uint8Array[] = [];
    let total = 0;
    let leftOut = 0;
    let rebuilt = 0;
    for (const v of s.vehicles) {
      const fate = vehicleFate(v, s.at);
      if (fate === 'broken') leftOut++;
      if (fate !== 'ok') continue;
      const tripDate = v.trip ? s.tripDate(v.trip.tripId) : null;
      const next = v.trip ? s.predictions.get(v.trip.tripId)?.stops[0] : undefined;
      let e = this.vehicles.get(v.busId);
      if (!e || !sameVehicle(e.v, v) || e.tripDate !== tripDate || e.nextOrder !== next?.stopOrder || e.nextStop !== next?.stopId) {
        e = { v, tripDate, nextOrder: next?.stopOrder, nextStop: next?.stopId, bytes: encodeEntities({ entity: [vehicleEntity(v, s)] }) };
        rebuilt++;
      }
      kept.set(v.busId, e);
      parts.push(e.bytes);
      total += e.bytes.length;
    }
    this.vehicles = kept;
    return { entities: concat(parts, total), leftOut, rebuilt };
  }

  /** TripUpdates' entities: the bytes encodeEntities(tripUpdates(s).message) gives. */
  tripUpdates(s: FeedSource): CachedBuild {
    this.checkContext(s);
    const kept = new Map<number, TripEntry>();
    const parts: Uint8Array[] = [];
    let total = 0;
    let leftOut = 0;
    let rebuilt = 0;
    for (const { p, v } of tripsInOrder(s)) {
      const plate = v?.plateNumber ?? null;
      const tripDate = s.tripDate(p.tripId);
      let e = this.trips.get(p.tripId);
      if (!e || !samePredictions(e.p, p) || e.plate !== plate || e.tripDate !== tripDate) {
        const built = tripEntity(p, v, s);
        const bytes = built === null || built === 'broken' ? null : encodeEntities({ entity: [built] });
        e = { p, plate, tripDate, bytes, broken: built === 'broken' };
        rebuilt++;
      }
      kept.set(p.tripId, e);
      if (e.broken) leftOut++;
      if (e.bytes) {
        parts.push(e.bytes);
        total += e.bytes.length;
      }
    }
    this.trips = kept;
    return { entities: concat(parts, total), leftOut, rebuilt };
  }
}
