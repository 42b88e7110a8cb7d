// Benchmark 2b: the location scheduler against round robin over a whole service day, without HTTP. Both replay
// the simulator's world (the default Manhattan fleet) on a simulated clock: the same budget of location slots,
// the same active-trips walk every 15 s (its pages take slots from both), the same GPS answers (the last fix
// the bus reported, lost GPS and buses without GPS included). Every 10 s, every bus on a trip is compared with
// what each holds. It isolates the choice of the next bus from network timing, and covers what a 5-minute
// live run cannot: the peaks, the quiet hours, trips starting and ending, parked buses reaching their floor.
import { distanceM } from '../lib/geo/sphere';
import { createSimulator } from '../lib/sim';
import { nextInRotation } from './round-robin';
import type { Benchmark } from './support/report';
import { mean, median, percentile } from './support/stats';

// The scheduler and the configuration are server code: they import the 'server-only' marker, which throws
// outside a server bundle. This process is the server side too, so the marker resolves to its empty module
// before they load.
export function allowServerModules(): void {
  const marker = require.resolve('server-only');
  require.cache[marker] ??= { id: marker, filename: marker, loaded: true, exports: {} } as NodeJS.Module;
}

export function loadServerModules() {
  allowServerModules();
  return {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
    scheduler: require('../lib/fleet/location-scheduler') as typeof import('../lib/fleet/location-scheduler'),
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
    config: require('../lib/config') as typeof import('../lib/config'),
  };
}

export const LIMIT_PER_MINUTE = 300;
export const TRIPS_PER_PAGE = 100;
export const SAMPLE_MS = 10_000;
/** Wednesday 4 March 2026, local midnight in New York (UTC−5). */
export const DAY_START = Date.parse('2026-03-04T05:00:00Z');
export const HOUR_MS = 3_600_000;

interface Held {
  lat: number | null;
  lon: number | null;
  fetchedAt: number | null;
}

interface Contender {
  /** The bus the next location slot goes to, or null for none. */
  pick(now: number): number | null;
  held(busId: number): Held;
  record(busId: number, fix: { gpsAt: number | null; lat: number | null; lon: number | null; speedKmh: number | null; heading: number | null; accuracy: number | null }, now: number): void;
  setOnTrip(ids: ReadonlySet<number>): void;
  ages: number[];
  errors: number[];
  offTripRequests: number;
  requests: number;
}

function tally() {
  return { ages: [] as number[], errors: [] as number[], offTripRequests: 0, requests: 0 };
}

export const schedulerReplay: Benchmark = {
  name: 'scheduler-replay',
  title: '2b. Scheduler over a service day (replay)',
  needsApp: false,
  async run(ctx) {
    const { scheduler: schedulerModule, config } = loadServerModules();
    const { LocationScheduler, newTrack, recordFix } = schedulerModule;
    // Fleetmap's defaults (FEED_BUDGET_SHARE, FEED_TRIPS_INTERVAL_S, FEED_PARKED_FLOOR_S), for both contenders.
    const { budgetShare, tripsIntervalMs, parkedFloorMs } = config.appConfig({}).feed;
    const fromH = ctx.quick ? 7 : 5;
    const toH = ctx.quick ? 9 : 23;
    const warmupMs = 30 * 60_000;
    let now = DAY_START + fromH * HOUR_MS - warmupMs;
    const sim = createSimulator({ startAt: now, now: () => now });
    const world = sim.world;
    const buses = world.fleet.buses;
    const slotMs = 60_000 / Math.floor(budgetShare * LIMIT_PER_MINUTE);

    const tracks = buses.map((b) => newTrack(b.id));
    const scheduler = new LocationScheduler();
    const fleetmap: Contender = {
      ...tally(),
      pick: (t) => scheduler.pick(tracks, t, { parkedFloorMs, watchRefreshMs: 5_000, slotMs })?.busId ?? null,
      held: (id) => tracks[id - 1]!,
      record: (id, fix, t) => recordFix(tracks[id - 1]!, fix, t),
      setOnTrip: (ids) => tracks.forEach((tr) => (tr.onTrip = ids.has(tr.busId))),
    };
    const rrHeld = new Map<number, Held>();
    let rrOnTrip: number[] = [];
    let cursor: number | null = null;
    const roundRobin: Contender = {
      ...tally(),
      pick: () => (cursor = nextInRotation(rrOnTrip, cursor)),
      held: (id) => rrHeld.get(id) ?? { lat: null, lon: null, fetchedAt: null },
      record: (id, fix, t) => rrHeld.set(id, { lat: fix.lat, lon: fix.lon, fetchedAt: t }),
      setOnTrip: (ids) => (rrOnTrip = [...ids].sort((a, b) => a - b)),
    };
    const contenders = [fleetmap, roundRobin];

    const measureFrom = DAY_START + fromH * HOUR_MS;
    const end = DAY_START + toH * HOUR_MS;
    let onTrip = new Set<number>();
    let nextSlot = now;
    let nextTrips = now;
    let nextSample = measureFrom;
    let walkSlotsLeft = 0;
    let onTripSamples = 0;
    let samples = 0;
    let parkedAgeSum = 0;
    let parkedAgeCount = 0;
    ctx.log(`  ${buses.length} buses, ${fromH}:00–${toH}:00 simulated after a ${warmupMs / 60_000} min warm-up, one slot every ${slotMs} ms`);
    while (now < end) {
      now = Math.min(nextSlot, nextTrips, nextSample);
      if (now === nextTrips) {
        // What /trips/active would list now; its pages cost both contenders the same slots.
        onTrip = new Set(buses.filter((b) => world.busState(b, now).onTrip).map((b) => b.id));
        for (const c of contenders) c.setOnTrip(onTrip);
        walkSlotsLeft += Math.max(1, Math.ceil(onTrip.size / TRIPS_PER_PAGE));
        nextTrips += tripsIntervalMs;
      }
      if (now === nextSlot) {
        if (walkSlotsLeft > 0) walkSlotsLeft--;
        else {
          for (const c of contenders) {
            const id = c.pick(now);
            if (id === null) continue;
            const f = world.fix(buses[id - 1]!, now);
            c.record(id, f ? { gpsAt: f.atMs, lat: f.lat, lon: f.lon, speedKmh: f.speedKmh, heading: f.heading, accuracy: f.accuracyM } : { gpsAt: null, lat: null, lon: null, speedKmh: null, heading: null, accuracy: null }, now);
            if (now >= measureFrom) {
              c.requests++;
              if (!onTrip.has(id)) c.offTripRequests++;
            }
          }
        }
        nextSlot += slotMs;
      }
      if (now === nextSample) {
        samples++;
        for (const b of buses) {
          const truth = world.busState(b, now);
          if (!truth.onTrip) {
            const h = fleetmap.held(b.id);
            if (h.fetchedAt !== null) {
              parkedAgeSum += (now - h.fetchedAt) / 1000;
              parkedAgeCount++;
            }
            continue;
          }
          onTripSamples++;
          const held = contenders.map((c) => c.held(b.id));
          // Over the bus-samples where both hold a position, as in the live freshness benchmark.
          if (held.some((h) => h.lat === null || h.lon === null || h.fetchedAt === null)) continue;
          contenders.forEach((c, i) => {
            const h = held[i]!;
            c.ages.push((now - h.fetchedAt!) / 1000);
            c.errors.push(distanceM(h.lon!, h.lat!, truth.lon, truth.lat));
          });
        }
        nextSample += SAMPLE_MS;
      }
    }
    await sim.close();

    const share = (c: Contender) => (c.requests === 0 ? null : (100 * (c.requests - c.offTripRequests)) / c.requests);
    const figure = (metric: string, unit: string, f: (c: Contender) => number | null, better: 'lower' | 'higher') => ({ metric, unit, fleetmap: f(fleetmap), peer: f(roundRobin), better });
    return {
      peer: 'round robin',
      conditions: `replay of the simulator's world on a simulated clock, no HTTP: ${buses.length} buses (default fleet, seed 42), Wednesday ${fromH}:00–${toH}:00 after a ${warmupMs / 60_000} min warm-up, ${Math.floor(budgetShare * LIMIT_PER_MINUTE)} slots/min (share ${budgetShare} of ${LIMIT_PER_MINUTE}) for both, the active-trips walk every ${tripsIntervalMs / 1000} s taking its pages' slots from both; every ${SAMPLE_MS / 1000} s, every bus on a trip (mean ${Math.round(onTripSamples / samples)}) compared with the truth, over the bus-samples where both hold a position`,
      figures: [
        figure('location age, mean', 's', (c) => mean(c.ages), 'lower'),
        // Round robin's mean has a long tail: a bus starting its next trip keeps the fix of its last one until
        // the rotation reaches it again.
        figure('location age, median', 's', (c) => median(c.ages), 'lower'),
        figure('location age, p95', 's', (c) => percentile(c.ages, 0.95), 'lower'),
        figure('position error, mean', 'm', (c) => mean(c.errors), 'lower'),
        figure('position error, p95', 'm', (c) => percentile(c.errors, 0.95), 'lower'),
        figure('share of locations on buses on a trip', '%', share, 'higher'),
        { metric: 'parked buses: age of the position held, mean', unit: 's', fleetmap: parkedAgeCount === 0 ? null : parkedAgeSum / parkedAgeCount, peer: null, better: 'lower' },
      ],
      details: {
        buses: buses.length,
        fromH,
        toH,
        samples,
        busSamplesOnTrip: onTripSamples,
        paired: fleetmap.ages.length,
        requests: { fleetmap: fleetmap.requests, roundRobin: roundRobin.requests },
        offTripRequests: { fleetmap: fleetmap.offTripRequests, roundRobin: roundRobin.offTripRequests },
        busesEverLocated: { fleetmap: tracks.filter((t) => t.fetchedAt !== null).length, roundRobin: rrHeld.size },
      },
    };
  },
};
