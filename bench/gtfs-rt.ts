// Benchmark 9: encoding the GTFS-Realtime feeds for 10,000 buses, as the server does once per snapshot version
// (lib/gtfs-rt: the messages built from the snapshot and the predictions, then encoded with gtfs-realtime-bindings).
// Synthetic data, no app: 10,000 buses on trips, each trip with 20 remaining stops; times are the median and the
// worst of repeated runs after a warm-up, build and encode together and the encode alone. Both the process's CPU
// time and the wall time are given: on a machine other work loads, the wall time measures the queue for a core.
import { performance } from 'node:perf_hooks';
import type { Vehicle } from '../lib/model';
import type { TripPredictions } from '../lib/model/predictions';
import { tripUpdates, vehiclePositions, type FeedSource } from '../lib/gtfs-rt/build';
import { encodeEntities, encodeWithHeader } from '../lib/gtfs-rt/encode';
import { DEFAULT_IDS, gtfsIds } from '../lib/gtfs-rt/ids';
import type { Benchmark } from './support/report';
import { median } from './support/stats';

const BUSES = 10_000;
const STOPS = 20;
const T0 = Date.parse('2026-03-04T17:00:00Z');

function source(): FeedSource {
  const vehicles: Vehicle[] = [];
  const predictions = new Map<number, TripPredictions>();
  for (let i = 1; i <= BUSES; i++) {
    const tripId = 2_000_000_000 + i;
    vehicles.push({
      busId: i,
      plateNumber: `NY-${10_000 + i}`,
      busName: `Bus ${i}`,
      internalCode: null,
      lat: 40.7 + (i % 100) / 1000,
      lon: -74 + (i % 97) / 1000,
      heading: (i * 37) % 360,
      speedKmh: (i % 50) + 0.5,
      accuracy: 5,
      gpsAt: T0 - (i % 120) * 1000,
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
      at: T0,
      stops: Array.from({ length: STOPS }, (_, k) => ({ stopId: 100_000 + i * 40 + k, stopName: `Stop ${k}`, stopOrder: k + 5, lat: 40.7, lon: -74, alongM: 300 * k, arrivalAt: T0 + (k + 1) * 75_000, earliestAt: T0 + (k + 1) * 70_000, latestAt: T0 + (k + 1) * 85_000, plannedAt: null })),
    });
  }
  return { at: T0, vehicles, predictions, tripDate: () => '2026-03-04', timeRule: { kind: 'zone', zone: 'America/New_York' }, ids: gtfsIds(DEFAULT_IDS) };
}

interface Timing {
  /** CPU time of this process (user + system), ms. */
  median: number;
  max: number;
  wallMedian: number;
}

function time(runs: number, f: () => void): Timing {
  for (let i = 0; i < 3; i++) f();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    f();
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
    return {
      peer: null,
      conditions: `${BUSES} buses on trips with ${STOPS} remaining stops each (synthetic), median and worst CPU time (user + system) of ${runs} runs after 3 warm-up runs, and the median wall time, one process`,
      figures: rows.flatMap((r) => [
        { metric: `${r.feed}: encode, CPU median`, unit: 'ms', fleetmap: r.encode.median, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, CPU median`, unit: 'ms', fleetmap: r.whole.median, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, CPU worst`, unit: 'ms', fleetmap: r.whole.max, peer: null, better: 'lower' as const },
        { metric: `${r.feed}: build + encode, wall median`, unit: 'ms', fleetmap: r.whole.wallMedian, peer: null, better: 'lower' as const },
      ]),
      details: { buses: BUSES, stopsPerTrip: STOPS, runs, bytes: sizes, rows },
    };
  },
};
