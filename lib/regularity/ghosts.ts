// Ghost trips: the ONE definition. The ladder, /api/headways, the dispatcher's trip list and the exceptions
// (lib/exceptions) all ask this module; none keeps a rule of its own. Pure: the browser calls it too.
//
// A ghost is an active trip that no bus can be seen running:
//  - the trip has no bus (`no-bus`); or
//  - its bus has not been located for GHOST_AFTER_S (default 300 s): the silence is counted from the later of
//    the bus's last fix (its GPS time) and the trip's departure (actual, else planned), so a bus the feed had
//    no reason to poll while it was parked is not a ghost the moment its trip starts. A bus with no fix at all
//    is `never-located`, one whose last fix is too old `not-located`.
//  - the silence is counted up to the feed's last look at the bus (its fetch time), not up to now: the feed asks
//    for one bus at a time under the key's limit, and at 10,000 buses it sees each bus on a trip every few
//    minutes. A bus whose fix was fresh when last asked was seen running; only an answer that shows the silence
//    makes a ghost (and an answer with a fresh fix ends it). A bus never asked about is not known to be silent.
// With a key that cannot read locations (API Standard) no bus is ever located: only `no-bus` applies, and the
// other buses are placed by their schedule, marked as such.
import type { EpochMs, GhostReason, GhostTrip, LiveSnapshot, Vehicle, VehicleTrip } from '@/lib/model';

export interface GhostCandidate {
  busId: number | null;
  /** GPS time of the bus's last fix; null when it has none (or none with a time). */
  lastLocatedAt: EpochMs | null;
  /** When the trip left: its actual departure, else its planned one; null when neither is known. */
  departedAt: EpochMs | null;
  /** When the feed last asked for the bus's location (the vehicle's fetchedAt); null when it never has. */
  checkedAt: EpochMs | null;
}

export interface GhostRule {
  ghostAfterS: number;
  /** Whether the key reads locations at all (health.capabilities.locations). */
  locations: boolean;
}

/** Why the trip is a ghost at `now`, or null when it is not one. */
export function ghostReason(c: GhostCandidate, now: EpochMs, rule: GhostRule): GhostReason | null {
  if (c.busId === null) return 'no-bus';
  if (!rule.locations) return null;
  const since = Math.max(c.lastLocatedAt ?? -Infinity, c.departedAt ?? -Infinity);
  const knownUntil = Math.min(now, c.checkedAt ?? -Infinity);
  if (!Number.isFinite(since) || knownUntil - since < rule.ghostAfterS * 1000) return null;
  return c.lastLocatedAt === null ? 'never-located' : 'not-located';
}

/** The trip's departure as the rule counts it. */
export function tripDepartedAt(t: Pick<VehicleTrip, 'actualDepartureAt' | 'plannedDepartureAt'>): EpochMs | null {
  return t.actualDepartureAt ?? t.plannedDepartureAt;
}

const located = (v: Vehicle): EpochMs | null => (v.lat !== null && v.lon !== null && v.gpsAt !== null && Number.isFinite(v.gpsAt) ? v.gpsAt : null);

/** What the rule reads of a trip's bus: its last fix and the feed's last look at it (none without the bus). */
export function busSeen(bus: Vehicle | null | undefined): Pick<GhostCandidate, 'lastLocatedAt' | 'checkedAt'> {
  return bus ? { lastLocatedAt: located(bus), checkedAt: bus.fetchedAt } : { lastLocatedAt: null, checkedAt: null };
}

/**
 * Every ghost among a snapshot's active trips, sorted by trip id. A trip appears once even when it is both a
 * vehicle's trip and listed as unpositioned (a tracked bus with no position yet).
 */
export function ghostTrips(snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>, now: EpochMs, ghostAfterS: number): GhostTrip[] {
  const rule: GhostRule = { ghostAfterS, locations: snapshot.health.locations === true };
  const out: GhostTrip[] = [];
  const seen = new Set<number>();
  // Thousands of trips are asked about on every snapshot and few are ghosts: a trip's record is copied only then.
  for (const v of snapshot.vehicles) {
    const trip = v.trip;
    if (!trip || seen.has(trip.tripId)) continue;
    seen.add(trip.tripId);
    const busState = busSeen(v);
    const reason = ghostReason({ busId: v.busId, departedAt: tripDepartedAt(trip), ...busState }, now, rule);
    if (reason) out.push({ ...trip, busId: v.busId, plateNumber: v.plateNumber, busName: v.busName, reason, lastLocatedAt: busState.lastLocatedAt });
  }
  // The buses by id, for the unpositioned trips alone (most snapshots have few or none).
  let byBus: Map<number, Vehicle> | null = null;
  for (const t of snapshot.unpositionedTrips) {
    if (seen.has(t.tripId)) continue;
    seen.add(t.tripId);
    byBus ??= new Map(snapshot.vehicles.map((v) => [v.busId, v]));
    const bus = t.busId === null ? undefined : byBus.get(t.busId);
    const busState = busSeen(bus);
    const reason = ghostReason({ busId: t.busId, departedAt: tripDepartedAt(t), ...busState }, now, rule);
    if (reason) out.push({ ...t, reason, lastLocatedAt: busState.lastLocatedAt });
  }
  return out.sort((a, b) => a.tripId - b.tripId);
}
