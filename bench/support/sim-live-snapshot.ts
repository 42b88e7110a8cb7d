import { tripFromWire } from '../../lib/partner/map';
import { tripSchema } from '../../lib/partner/schemas';
import { createSimulator } from '../../lib/sim';
import { tripRecord } from '../../lib/sim/wire';
import { vehicleTrip } from '../../lib/fleet/snapshot-builder';
import type { LiveSnapshot, UnpositionedTrip, Vehicle } from '../../lib/model';
import { seededStream } from '../../lib/sim/random';

// A live snapshot as the feed would hold it at one instant of a simulated weekday, made from the simulator's world
// without running the feed (which needs minutes of polling to place 10,000 buses): every bus listed, each with the
// fix it had when it was last asked for its location (buses on a trip asked every few minutes as the key's budget
// allows, parked ones every half hour), and the active trips as /trips/active lists them. For measuring the sizes of
// /api/live's answers (bench/live-columns.ts: run with tsx --conditions=react-server, as it reads server modules); the
// scale benchmark measures the running app's own answers.

const MINUTE = 60_000;

export interface SimSnapshotOptions {
  buses: number;
  /** Sim instant, epoch ms. */
  at: number;
  seed?: number;
  /** Location answers per minute the feed spends (its share of the key's limit). */
  locationsPerMinute?: number;
  /**
   * The share of buses placed, as early in a fill when the feed has not asked every bus yet (buses off a trip are
   * asked last); every bus the simulator locates when absent.
   */
  placedShare?: number;
}

export function simulatedLiveSnapshot(o: SimSnapshotOptions): LiveSnapshot {
  const zone = 'America/New_York';
  const rule = { kind: 'zone', zone } as const;
  const sim = createSimulator({ seed: o.seed ?? 42, buses: o.buses, timezone: zone, startAt: o.at, speed: 0 });
  const world = sim.world;
  const thresholds = { lateMin: 5, earlyMin: 1 };
  const rand = seededStream((o.seed ?? 42) ^ 0x5a5a);
  const refs = world.activeTrips(o.at);
  const trips = refs.map((r) => tripFromWire(tripSchema.parse(tripRecord(world, r, o.at, { drift: false })), rule));
  const tripByBus = new Map(trips.filter((t) => t.busId !== null).map((t) => [t.busId!, t]));
  const onTrip = tripByBus.size;
  // Minutes between two answers for a bus on a trip, at the feed's pace.
  const revisitMs = Math.max(MINUTE / 4, (onTrip / (o.locationsPerMinute ?? 1_000)) * MINUTE);
  const vehicles: Vehicle[] = [];
  const buses = world.fleet.buses;
  // Buses off a trip not asked yet, each with this chance, for the share placed asked.
  const offTrip = buses.length - onTrip;
  const unasked = o.placedShare === undefined || offTrip === 0 ? 0 : Math.min(1, ((1 - o.placedShare) * buses.length) / offTrip);
  for (const bus of buses) {
    const trip = tripByBus.get(bus.id);
    const asked = trip !== undefined || rand() >= unasked;
    const fetchedAt = asked ? o.at - Math.floor(rand() * (trip ? revisitMs : 30 * MINUTE)) : null;
    const fix = fetchedAt === null ? null : world.fix(bus, fetchedAt);
    vehicles.push({
      busId: bus.id,
      plateNumber: bus.plateNumber,
      busName: bus.busName,
      internalCode: bus.internalCode,
      lat: fix?.lat ?? null,
      lon: fix?.lon ?? null,
      heading: fix ? fix.heading % 360 : null,
      speedKmh: fix?.speedKmh ?? null,
      accuracy: fix?.accuracyM ?? null,
      gpsAt: fix?.atMs ?? null,
      fetchedAt,
      trip: trip ? vehicleTrip(trip, thresholds) : null,
    });
  }
  const placed = new Set(vehicles.filter((v) => v.lat !== null).map((v) => v.busId));
  const unpositionedTrips: UnpositionedTrip[] = trips
    .filter((t) => t.busId === null || !placed.has(t.busId))
    .map((t) => ({ ...vehicleTrip(t, thresholds), busId: t.busId, plateNumber: t.plateNumber, busName: t.busName }))
    .sort((a, b) => a.tripId - b.tripId);
  void sim.close();
  return {
    generatedAt: o.at,
    epoch: 'sim',
    version: 1,
    vehicles,
    unpositionedTrips,
    health: { state: 'ok', message: 'Live.', lastSuccessAt: o.at - 1_000, meanFixAgeS: Math.round(revisitMs / 2_000), level: 'business', locations: true, budget: { usedShare: 0.97, pausedUntil: null }, timezone: { zone, offsetMinutes: -300 } },
    thresholds,
  };
}
