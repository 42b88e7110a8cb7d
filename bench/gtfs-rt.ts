// Benchmark 9: encoding the GTFS-Realtime feeds for 10,000 buses, as the server does once per snapshot version
// (lib/gtfs-rt: the messages built from the snapshot and the predictions, then encoded with gtfs-realtime-bindings).
// Synthetic data, no app: 10,000 buses on trips, each trip with 20 remaining stops; times are the median and the
// worst of repeated runs after a warm-up, build and encode together and the encode alone. Then as the server builds,
// with the entity cache across successive versions: a few hundred buses with a new fix per version, and every one.
// Both the process's CPU time and the wall time are given: on a machine other work loads, the wall time measures the
// queue for a core. Last, as the app makes the trip updates of each version: every trip predicted by lib/predictions
// (trip-memo.ts, the server's own path: predictions made from each bus's last fix and kept until it reports again)
// on 300 synthetic routes of 21 stops, then built and encoded through the entity cache; with 250 buses on a new fix
// per version (the steady state), with every bus on a new fix, and cold (nothing kept: a restart's first version).
import { performance } from 'node:perf_hooks';
import type { Vehicle } from '../lib/model';
import type { TripPredictions } from '../lib/model/predictions';
import { feedHeader, tripUpdates, vehiclePositions, type FeedSource } from '../lib/gtfs-rt/build';
import { EntityCache } from '../lib/gtfs-rt/cache';
import { encodeEntities, encodeWithHeader } from '../lib/gtfs-rt/encode';
import { DEFAULT_IDS, gtfsIds } from '../lib/gtfs-rt/ids';
import type { RouteStop, VehicleTrip } from '../lib/model';
import { TripPredictionMemo } from '../lib/predictions/trip-memo';
import { at as metresAt, stopsAlong } from '../lib/testing/estimate-factories';
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

/** As the app: ROUTES straight routes of ROUTE_STOPS stops 400 m apart northwards, side by side 60 m apart. */
const ROUTES = 300;
const ROUTE_STOPS = 21;
const routeStops = new Map<number, RouteStop[]>(
  Array.from({ length: ROUTES }, (_, r) => [r + 1, stopsAlong(Array.from({ length: ROUTE_STOPS }, (_, k) => [r * 60, k * 400] as const), { routeId: r + 1, firstId: 100_000 + r * 100 })]),
);
const ROUTE_M = (ROUTE_STOPS - 1) * 400;
/** Bus i's trip: planned 40 min, left 1–20 min before T0. */
const TRIP_MS = 40 * 60_000;
const departureOf = (i: number) => T0 - (1 + (i % 20)) * 60_000;

/** The moves of bus i by version v of version(): its fix is 10 s newer per move. */
function movesOf(i: number, v: number): number {
  const windows = BUSES / CHANGED;
  const w = Math.floor((i - 1) / CHANGED);
  let moves = 0;
  for (let j = 1; j <= v; j++) if (j % windows === w) moves++;
  return moves;
}

/** Snapshot version v as the app holds it: every vehicle object new, each bus at its last fix along its trip. */
function appVersion(v: number, everyBus: boolean): { at: number; vehicles: Vehicle[] } {
  const vehicles: Vehicle[] = [];
  for (let i = 1; i <= BUSES; i++) {
    const routeId = 1 + (i % ROUTES);
    const dep = departureOf(i);
    const gpsAt = T0 - (i % 120) * 1000 + 10_000 * (everyBus ? v : movesOf(i, v));
    const m = Math.min(ROUTE_M, (ROUTE_M * (gpsAt - dep)) / TRIP_MS);
    const [lon, lat] = metresAt((routeId - 1) * 60, m);
    const trip: VehicleTrip = { tripId: 2_000_000_000 + i, routeId, routeCode: `M${routeId}`, routeName: 'First Av', direction: 'outbound', status: 'started', delayMinutes: i % 7, delayClass: 'on-time', plannedDepartureAt: dep, plannedArrivalAt: dep + TRIP_MS, actualDepartureAt: dep + 30_000, actualArrivalAt: null };
    vehicles.push({ busId: i, plateNumber: `NY-${10_000 + i}`, busName: `Bus ${i}`, internalCode: null, lat, lon, heading: 0, speedKmh: 20, accuracy: 5, gpsAt, fetchedAt: T0 + 10_000 * v - 1000, trip });
  }
  return { at: T0 + 10_000 * v, vehicles };
}

/** The server's work for one version's trip updates: predict every trip (kept ones reused), build, encode. */
function appTripUpdates(memo: TripPredictionMemo, cache: EntityCache, snap: { at: number; vehicles: Vehicle[] }): { predicted: number; rebuilt: number } {
  const predictions = new Map<number, TripPredictions>();
  for (const v of snap.vehicles) {
    const p = memo.predict({ trip: v.trip!, busId: v.busId, busName: v.busName }, routeStops.get(v.trip!.routeId!)!, [{ lat: v.lat, lon: v.lon, gpsAt: v.gpsAt, speedKmh: v.speedKmh, heading: v.heading, accuracy: v.accuracy }], null, snap.at);
    if (p) predictions.set(v.trip!.tripId, p);
  }
  const predicted = memo.sweep();
  const built = cache.tripUpdates({ at: snap.at, vehicles: snap.vehicles, predictions, tripDate: () => '2026-03-04', timeRule: { kind: 'zone', zone: 'America/New_York' }, ids: IDS });
  encodeWithHeader(feedHeader(snap.at), built.entities);
  return { predicted, rebuilt: built.rebuilt };
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
    // As the app: predictions (kept per trip), then the cached build and the encode, per version.
    const appRows: Array<{ changed: string; whole: Timing; predicted: number; rebuilt: number }> = [];
    for (const [changed, everyBus, cold] of [
      [`${CHANGED} of ${BUSES} buses with a new fix`, false, false],
      ['every bus with a new fix', true, false],
      ['cold: nothing kept (a restart’s first version)', false, true],
    ] as const) {
      let memo = new TripPredictionMemo();
      let cache = new EntityCache();
      appTripUpdates(memo, cache, appVersion(0, everyBus));
      let last = { predicted: 0, rebuilt: 0 };
      const whole = time(
        runs,
        (snap: { at: number; vehicles: Vehicle[] }) => {
          if (cold) {
            memo = new TripPredictionMemo();
            cache = new EntityCache();
          }
          last = appTripUpdates(memo, cache, snap);
        },
        (i) => appVersion(i + 1, everyBus),
      );
      appRows.push({ changed, whole, ...last });
      ctx.log(`  trip updates as the app, per version, ${changed}: CPU predict + build + encode median ${whole.median.toFixed(1)} ms (worst ${whole.max.toFixed(1)}; wall ${whole.wallMedian.toFixed(1)}); ${last.predicted} trips predicted and ${last.rebuilt} entities built anew in the last version`);
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
      ).concat(
        appRows.flatMap((r) => [
          { metric: `trip updates as the app (predictions kept per trip), per version, ${r.changed}: predict + build + encode, CPU median`, unit: 'ms', fleetmap: r.whole.median, peer: null, better: 'lower' as const },
          { metric: `trip updates as the app (predictions kept per trip), per version, ${r.changed}: predict + build + encode, CPU worst`, unit: 'ms', fleetmap: r.whole.max, peer: null, better: 'lower' as const },
        ]),
      ),
      details: { buses: BUSES, stopsPerTrip: STOPS, changedPerVersion: CHANGED, runs, bytes: sizes, rows, cachedRows, app: { routes: ROUTES, routeStops: ROUTE_STOPS, rows: appRows } },
    };
  },
};
