// Benchmark 9: encoding the GTFS-Realtime feeds for 10,000 buses, as the server does once per snapshot version
// (lib/gtfs-rt: the messages built from the snapshot and the predictions, then encoded with gtfs-realtime-bindings).
// Synthetic data, no app: 10,000 buses on trips, each trip with 20 remaining stops; times are the median and the
// worst of repeated runs after a warm-up, build and encode together and the encode alone. Then as the server builds,
// with the entity cache across successive versions: a few hundred buses with a new fix per version, and every one.
// Both the process's CPU time and the wall time are given: on a machine other work loads, the wall time measures the
// queue for a core.
import { performance } from 'node:perf_hooks';
import type { Vehicle } from '../lib/model';
import type { TripPredictions } from '../lib/model/predictions';
import { feedHeader, tripUpdates, vehiclePositions, type FeedSource } from '../lib/gtfs-rt/build';
import { EntityCache } from '../lib/gtfs-rt/cache';
import { encodeEntities, encodeWithHeader } from '../lib/gtfs-rt/encode';
import { DEFAULT_IDS, gtfsIds } from '../lib/gtfs-rt/ids';
import type { Benchmark } from './support/report';
import { median } from './support/stats';

const BUSES = 10_000;
const STOPS = 20;
const T0 = Date.parse('2026-03-04T17:00:00Z');

/** Buses whose fix is new in each version of the cached rows: a few hundred of 10,000. */
const CHANGED = 250;
const IDS = gtfsIds(DEFAULT_IDS);

/**
 * One snapshot version, every object new as the app makes them: bus i's fix and its trip's predictions `shiftOf(i)`
 * seconds after version 0's, the snapshot `atShift` seconds after.
 */
function source(shiftOf: (i: number) => number = () => 0, atShift = 0): FeedSource {
  const vehicles: Vehicle[] = [];
  const predictions = new Map<number, TripPredictions>();
  for (let i = 1; i <= BUSES; i++) {
    const tripId = 2_000_000_000 + i;
    const d = shiftOf(i) * 1000;
    vehicles.push({
      busId: i,
      plateNumber: `NY-${10_000 + i}`,
      busName: `Bus ${i}`,
      internalCode: null,
      lat: 40.7 + (i % 100) / 1000 + d / 1e9,
      lon: -74 + (i % 97) / 1000,
      heading: (i * 37) % 360,
      speedKmh: (i % 50) + 0.5,
      accuracy: 5,
      gpsAt: T0 - (i % 120) * 1000 + d,
      fetchedAt: T0 - 1000,
      trip: { tripId, routeId: 1 + (i % 300), routeCode: 'M15', routeName: 'First Av', direction: i % 2 ? 'outbound' : 'inbound', status: 'started', delayMinutes: i % 7, delayClass: 'on-time', plannedDepartureAt: T0 - 600_000, plannedArrivalAt: T0 + 1_800_000, actualDepartureAt: T0 - 590_000, actualArrivalAt: null },
    });
    predictions.set(tripId, {
      tripId,
      routeId: 1 + (i % 300),
      routeCode: 'M15',
      routeName: 'First Av',
      direction: 'outbound',
      headsign: 'South Ferry',
      busId: i,
      busName: `Bus ${i}`,
      basis: 'gps',
      scheduleReason: null,
      note: '',
      delayMinutes: i % 7,
      plannedDepartureAt: T0 - 600_000,
      at: T0 + d,
      stops: Array.from({ length: STOPS }, (_, k) => ({ stopId: 100_000 + i * 40 + k, stopName: `Stop ${k}`, stopOrder: k + 5, lat: 40.7, lon: -74, alongM: 300 * k, arrivalAt: T0 + d + (k + 1) * 75_000, earliestAt: T0 + d + (k + 1) * 70_000, latestAt: T0 + d + (k + 1) * 85_000, plannedAt: null })),
    });
  }
  return { at: T0 + atShift * 1000, vehicles, predictions, tripDate: () => '2026-03-04', timeRule: { kind: 'zone', zone: 'America/New_York' }, ids: IDS };
}

interface Timing {
  /** CPU time of this process (user + system), ms. */
  median: number;
  max: number;
  wallMedian: number;
}

/** `f` timed `runs` times after 3 warm-up runs; `setup(i)` makes run i's input, untimed. */
/** Version v: each version, the next CHANGED buses (in turn) get a fix 10 s after their last. */
function version(v: number): FeedSource {
  const windows = BUSES / CHANGED;
  return source((i) => {
    const w = Math.floor((i - 1) / CHANGED);
    let moves = 0;
    for (let j = 1; j <= v; j++) if (j % windows === w) moves++;
    return 10 * moves;
  }, 10 * v);
}

function time<T>(runs: number, f: (input: T) => void, setup: (i: number) => T = () => undefined as T): Timing {
  for (let i = 0; i < 3; i++) f(setup(i));
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const input = setup(3 + i);
    const c = process.cpuUsage();
    const t = performance.now();
    f(input);
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { median: median(cpu)!, max: Math.max(...cpu), wallMedian: median(wall)! };
}

export const gtfsRt: Benchmark = {
  name: 'gtfs-rt',
  title: '9. GTFS-Realtime encoding, 10,000 buses',
  needsApp: false,
  async run(ctx) {
    const runs = ctx.quick ? 5 : 20;
    const s = source();
    const sizes: Record<string, number> = {};
    const rows: Array<{ feed: string; whole: Timing; encode: Timing }> = [];
    for (const [feed, build] of [
      ['vehicle positions', vehiclePositions],
      ['trip updates', tripUpdates],
    ] as const) {
      const built = build(s);
      const whole = time(runs, () => {
        const b = build(s);
        encodeWithHeader(b.message.header!, encodeEntities(b.message));
      });
      const encode = time(runs, () => encodeWithHeader(built.message.header!, encodeEntities(built.message)));
      sizes[feed] = encodeWithHeader(built.message.header!, encodeEntities(built.message)).length;
      rows.push({ feed, whole, encode });
      ctx.log(`  ${feed}: CPU build + encode median ${whole.median.toFixed(1)} ms (worst ${whole.max.toFixed(1)}; wall ${whole.wallMedian.toFixed(1)}), encode alone ${encode.median.toFixed(1)} ms (wall ${encode.wallMedian.toFixed(1)}); ${(sizes[feed]! / 1024).toFixed(0)} KiB`);
    }
    // As the server builds: the entity cache (lib/gtfs-rt/cache.ts) across successive snapshot versions.
    const cachedRows: Array<{ feed: string; changed: string; whole: Timing; rebuilt: number }> = [];
    for (const feed of ['vehicle positions', 'trip updates'] as const) {
      const everyOne = (v: number) => source(() => 10 * v, 10 * v);
      for (const [changed, make, cached] of [
        [`${CHANGED} of ${BUSES} buses with a new fix`, version, true],
        ['every bus and trip changed', everyOne, true],
        ['every bus and trip changed, without the cache', everyOne, false],
      ] as const) {
        const cache = new EntityCache();
        const fresh = (x: FeedSource) => {
          const b = (feed === 'vehicle positions' ? vehiclePositions : tripUpdates)(x);
          return { entities: encodeEntities(b.message), rebuilt: b.message.entity.length };
        };
        const build = (x: FeedSource) => (!cached ? fresh(x) : feed === 'vehicle positions' ? cache.vehiclePositions(x) : cache.tripUpdates(x));
        build(make(0));
        let rebuilt = 0;
        const whole = time(
          runs,
          (x: FeedSource) => {
            const b = build(x);
            rebuilt = b.rebuilt;
            encodeWithHeader(feedHeader(x.at), b.entities);
          },
          (i) => make(i + 1),
        );
        cachedRows.push({ feed, changed, whole, rebuilt });
        ctx.log(`  ${feed}, per version, ${changed}: CPU build + encode median ${whole.median.toFixed(1)} ms (worst ${whole.max.toFixed(1)}; wall ${whole.wallMedian.toFixed(1)}); ${rebuilt} entities built anew in the last version`);
      }
    }
    return {
      peer: null,
      conditions: `${BUSES} buses on trips with ${STOPS} remaining stops each (synthetic), median and worst CPU time (user + system) of ${runs} runs after 3 warm-up runs, and the median wall time, one process`,
      figures: rows.flatMap((r) => [
        { metric: `${r.feed}: encode, CPU median`, unit: 'ms', fleetmap: r.encode.median, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, CPU median`, unit: 'ms', fleetmap: r.whole.median, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, CPU worst`, unit: 'ms', fleetmap: r.whole.max, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, wall median`, unit: 'ms', fleetmap: r.whole.wallMedian, peer: null, better: 'lower' as const },
      ]).concat(
        cachedRows.flatMap((r) => [
          { metric: `${r.feed}, per version, ${r.changed}: build + encode, CPU median`, unit: 'ms', fleetmap: r.whole.median, peer: null, better: 'lower' as const },
          { metric: `${r.feed}, per version, ${r.changed}: build + encode, CPU worst`, unit: 'ms', fleetmap: r.whole.max, peer: null, better: 'lower' as const },
        ]),
      ),
      details: { buses: BUSES, stopsPerTrip: STOPS, changedPerVersion: CHANGED, runs, bytes: sizes, rows, cachedRows },
    };
  },
};
