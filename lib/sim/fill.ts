import 'server-only';
import { TypedEmitter, type FeedEvents } from '@/lib/fleet';
import type { Trip } from '@/lib/model';
import { tripFromWire } from '@/lib/partner/map';
import { tripSchema } from '@/lib/partner/schemas';
import { createSimulator } from './index';
import type { TripRef } from './world';
import { tripRecord } from './wire';
import { Recorder } from '@/lib/history/recorder';
import type { Store } from '@/lib/history/store';

// Fills a store with simulated days, made by the simulator's clock and written through the recorder exactly as
// the live feed's events would be: location answers spread over the buses at the budget's pace (buses on a trip
// first, parked ones every half hour), a walk of /trips/active every simulated minute, a final answer for each
// trip that leaves it, and a request event per upstream call. For benchmarks and for seeding e2e tests; the
// feed itself is not run (14 days of polling would take 14 days). Several stores can be filled from the one
// stream of events (one recorder each), so the benchmark fills PGlite and PostgreSQL with the same days at the
// simulator's cost of one. The recorders write a batch every `flushEveryMs` of simulated time: what ends up
// stored is the same as with the live feed's batch a second (a trip seen again only moves its last sighting,
// which the newest walk of the batch sets), in far fewer transactions.

export interface FillOptions {
  /** First simulated instant, epoch ms. */
  from: number;
  /** Last simulated instant, epoch ms. */
  to: number;
  buses?: number;
  seed?: number;
  timezone?: string;
  /** Location answers per simulated minute (the feed's share of the key's limit, less the lists). */
  locationsPerMinute?: number;
  /** Simulated ms between two walks of /trips/active. */
  walkEveryMs?: number;
  /** Simulated ms between two batches written (default 15 minutes). */
  flushEveryMs?: number;
  onDay?: (info: { day: number; simNow: number; writtenRows: number }) => void;
}

const MINUTE = 60_000;
const PARKED_FLOOR_MS = 30 * MINUTE;

export interface FillResult {
  /** Rows written per store (trips seen again unchanged count once per batch). */
  writtenRows: number;
  fixes: number;
  walks: number;
  finals: number;
}

export async function fillFromSimulator(stores: Store | readonly Store[], o: FillOptions): Promise<FillResult> {
  const targets = Array.isArray(stores) ? stores : [stores as Store];
  const zone = o.timezone ?? 'America/New_York';
  const rule = { kind: 'zone', zone } as const;
  const sim = createSimulator({ seed: o.seed ?? 42, buses: o.buses, timezone: zone, startAt: o.from, speed: 0 });
  const world = sim.world;
  const events = new TypedEmitter<FeedEvents>();
  let now = o.from;
  const recorders = targets.map((store) => {
    const r = new Recorder({ store: async () => store, now: () => now, flushIntervalMs: 3_600_000, flushRows: Number.MAX_SAFE_INTEGER, maxBufferRows: Number.MAX_SAFE_INTEGER, log: () => {} });
    r.attach(events);
    return r;
  });
  const flushEvery = o.flushEveryMs ?? 15 * MINUTE;
  let nextFlush = o.from + flushEvery;
  const flush = async () => {
    await Promise.all(recorders.map((r) => r.flush()));
    const failing = recorders.find((r) => r.stats.failing);
    if (failing) throw new Error(`fill: the store failed: ${failing.stats.failing!.reason}`);
  };

  const buses = world.fleet.buses;
  const lastFixAt = new Map<number, number>();
  const lastAsked = new Map<number, number>();
  const perMinute = o.locationsPerMinute ?? 225;
  const walkEvery = o.walkEveryMs ?? MINUTE;
  const trip = (ref: TripRef, t: number): Trip => tripFromWire(tripSchema.parse(tripRecord(world, ref, t, { drift: false })), rule);
  let active = new Map<number, TripRef>();
  const tripOfBus = new Map<number, number>();
  let fixes = 0;
  let walks = 0;
  let finals = 0;
  let day = 0;
  let nextWalk = o.from;
  let nextDay = o.from + 86_400_000;

  for (let minute = o.from; minute <= o.to; minute += MINUTE) {
    // Walks of /trips/active within this minute; trips gone since the last one get their final answer.
    for (; nextWalk < minute + MINUTE && nextWalk <= o.to; nextWalk += walkEvery) {
      now = nextWalk;
      const refs = world.activeTrips(now);
      const next = new Map(refs.map((r) => [world.tripId(r), r]));
      const list = refs.map((r) => trip(r, now));
      tripOfBus.clear();
      for (const t of list) if (t.busId !== null) tripOfBus.set(t.busId, t.id);
      events.emit('request', { at: now, kind: 'activeTrips', lane: 'poll', status: 200, ok: true });
      events.emit('trips', { fetchedAt: now, trips: list });
      walks++;
      for (const [id, ref] of active) {
        if (next.has(id)) continue;
        events.emit('request', { at: now, kind: 'finalTrip', lane: 'poll', status: 200, ok: true });
        events.emit('trip-final', { fetchedAt: now, tripId: id, trip: trip(ref, now) });
        finals++;
      }
      active = next;
    }
    // Location answers: parked buses once every half hour, the rest of the minute's budget on buses on a trip,
    // the longest unasked first.
    const onTrip = buses.filter((b) => tripOfBus.has(b.id)).sort((a, b) => (lastAsked.get(a.id) ?? 0) - (lastAsked.get(b.id) ?? 0));
    const parked = buses.filter((b) => !tripOfBus.has(b.id) && minute - (lastAsked.get(b.id) ?? 0) >= PARKED_FLOOR_MS);
    const asked = [...parked.slice(0, Math.floor(perMinute / 10)), ...onTrip].slice(0, perMinute);
    asked.forEach((bus, i) => {
      now = minute + Math.floor((i * MINUTE) / Math.max(1, asked.length));
      lastAsked.set(bus.id, now);
      events.emit('request', { at: now, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
      const fix = world.fix(bus, now);
      if (!fix || lastFixAt.get(bus.id) === fix.atMs) return;
      lastFixAt.set(bus.id, fix.atMs);
      fixes++;
      events.emit('fix', { busId: bus.id, gpsAt: fix.atMs, fetchedAt: now, lat: fix.lat, lon: fix.lon, heading: fix.heading % 360, speedKmh: fix.speedKmh, accuracy: fix.accuracyM, tripId: tripOfBus.get(bus.id) ?? null });
    });
    now = minute + MINUTE - 1;
    if (minute + MINUTE >= nextFlush || minute + MINUTE > o.to) {
      nextFlush += flushEvery;
      await flush();
    }
    if (minute + MINUTE >= nextDay) {
      day++;
      nextDay += 86_400_000;
      await flush();
      o.onDay?.({ day, simNow: now, writtenRows: recorders[0]?.stats.writtenRows ?? 0 });
    }
  }
  await flush();
  await Promise.all(recorders.map((r) => r.close()));
  await sim.close();
  return { writtenRows: recorders[0]?.stats.writtenRows ?? 0, fixes, walks, finals };
}
