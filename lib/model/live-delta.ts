// Deltas of the live snapshot, shared by the server (which computes and composes them) and the browser (which
// applies them to the snapshot it holds). Pure functions: a chain of deltas applied to version k must give
// exactly the full snapshot of the last version, byte for byte once serialised.
import type { LiveChanges, LiveDelta, LiveSnapshot, UnpositionedTrip, Vehicle, VehicleTrip } from './live';

/** `<epoch>-<version>`, the value of `since` and the opaque part of the ETag. */
export function liveVersionTag(epoch: string, version: number): string {
  return `${epoch}-${version}`;
}

const VERSION_TAG = /^([0-9a-z]{1,32})-([1-9][0-9]{0,15})$/;

/** Reads a `since` value; null when it is not one this server could have written. */
export function parseLiveVersionTag(tag: string): { epoch: string; version: number } | null {
  const m = VERSION_TAG.exec(tag);
  if (!m) return null;
  const version = Number(m[2]);
  return Number.isSafeInteger(version) ? { epoch: m[1]!, version } : null;
}

export const NO_CHANGES: LiveChanges = Object.freeze({ vehicles: [], removedBusIds: [], unpositionedTrips: [], removedTripIds: [] }) as LiveChanges;

function diffByKey<T>(prev: readonly T[], next: readonly T[], key: (t: T) => number): { changed: T[]; removed: number[] } {
  const before = new Map<number, T>();
  for (const p of prev) before.set(key(p), p);
  const changed: T[] = [];
  for (const n of next) {
    const k = key(n);
    const p = before.get(k);
    before.delete(k);
    if (p === undefined || JSON.stringify(p) !== JSON.stringify(n)) changed.push(n);
  }
  return { changed, removed: [...before.keys()].sort((a, b) => a - b) };
}

/**
 * Whether two records of a trip say the same in every field the snapshot carries: what the caches of work made from
 * a trip (a bus's placement, a trip's predictions) compare, since each version of the snapshot builds its records anew.
 */
export function sameVehicleTrip(a: VehicleTrip | null, b: VehicleTrip | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return (
    a.tripId === b.tripId &&
    a.routeId === b.routeId &&
    a.routeCode === b.routeCode &&
    a.routeName === b.routeName &&
    a.direction === b.direction &&
    a.status === b.status &&
    a.delayMinutes === b.delayMinutes &&
    a.delayClass === b.delayClass &&
    a.plannedDepartureAt === b.plannedDepartureAt &&
    a.plannedArrivalAt === b.plannedArrivalAt &&
    a.actualDepartureAt === b.actualDepartureAt &&
    a.actualArrivalAt === b.actualArrivalAt
  );
}

const busKey = (v: Vehicle) => v.busId;
const tripKey = (t: UnpositionedTrip) => t.tripId;

/** What changed from `prev` to `next` (two versions of one epoch). */
export function liveChanges(prev: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'>, next: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'>): LiveChanges {
  const v = diffByKey(prev.vehicles, next.vehicles, busKey);
  const t = diffByKey(prev.unpositionedTrips, next.unpositionedTrips, tripKey);
  return { vehicles: v.changed, removedBusIds: v.removed, unpositionedTrips: t.changed, removedTripIds: t.removed };
}

function mergeByKey<T>(steps: readonly { changed: readonly T[]; removed: readonly number[] }[], key: (t: T) => number): { changed: T[]; removed: number[] } {
  const changed = new Map<number, T>();
  const removed = new Set<number>();
  for (const s of steps) {
    for (const id of s.removed) {
      changed.delete(id);
      removed.add(id);
    }
    for (const item of s.changed) {
      const k = key(item);
      removed.delete(k);
      changed.set(k, item);
    }
  }
  return {
    changed: [...changed.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]),
    removed: [...removed].sort((a, b) => a - b),
  };
}

/** The steps k→k+1→…→n as one change k→n (the last word on each item wins). */
export function mergeLiveChanges(steps: readonly LiveChanges[]): LiveChanges {
  if (steps.length === 1) return steps[0]!;
  const v = mergeByKey(steps.map((s) => ({ changed: s.vehicles, removed: s.removedBusIds })), busKey);
  const t = mergeByKey(steps.map((s) => ({ changed: s.unpositionedTrips, removed: s.removedTripIds })), tripKey);
  return { vehicles: v.changed, removedBusIds: v.removed, unpositionedTrips: t.changed, removedTripIds: t.removed };
}

function applyByKey<T>(base: readonly T[], changed: readonly T[], removed: readonly number[], key: (t: T) => number): T[] {
  if (changed.length === 0 && removed.length === 0) return base as T[];
  const gone = new Set(removed);
  const incoming = new Map<number, T>();
  for (const c of changed) incoming.set(key(c), c);
  const out: T[] = [];
  // Unchanged items keep their identity, so memoised views of them do not recompute.
  for (const b of base) {
    const k = key(b);
    if (gone.has(k)) continue;
    const c = incoming.get(k);
    if (c === undefined) out.push(b);
    else {
      out.push(c);
      incoming.delete(k);
    }
  }
  if (incoming.size > 0) {
    out.push(...incoming.values());
    out.sort((a, b) => key(a) - key(b));
  }
  return out;
}

/**
 * `base` moved on by `delta`; null when the delta was computed from another version than the one `base` is (the
 * caller then asks for a full snapshot).
 */
export function applyLiveDelta(base: LiveSnapshot, delta: LiveDelta): LiveSnapshot | null {
  if (delta.epoch !== base.epoch || delta.since !== base.version) return null;
  return {
    generatedAt: delta.generatedAt,
    epoch: delta.epoch,
    version: delta.version,
    vehicles: applyByKey(base.vehicles, delta.vehicles, delta.removedBusIds, busKey),
    unpositionedTrips: applyByKey(base.unpositionedTrips, delta.unpositionedTrips, delta.removedTripIds, tripKey),
    health: delta.health,
    thresholds: delta.thresholds,
    ...(delta.fullHealth ? { fullHealth: delta.fullHealth } : {}),
  };
}
