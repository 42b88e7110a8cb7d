// Benchmark 8: what the fleet table's own work costs for 10,000 buses, without a browser: building the rows from
// the bus list and a snapshot (done again with each new answer and at most every 5 s between, components/fleet/fleet-view.tsx), filtering and sorting them (by plate, the
// default, and by GPS time), and writing the CSV export. The DOM holds only the rows in view (virtualized), so
// these are what grows with the fleet. Synthetic fleet: half the buses located, a third on trips, 40 routes.
import type { Bus, LiveSnapshot, Route } from '../lib/model';
import { filterFleet, fleetCsv, fleetRows, NO_FLEET_FILTERS, sortFleet } from '../lib/view/fleet-table';
import type { Benchmark, Figure } from './support/report';
import { median } from './support/stats';

const BUSES = 10_000;

function syntheticFleet(now: number) {
  const routes: Route[] = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `Route ${i + 1}`, code: `M${i + 1}`, startName: null, endName: null, distanceEstimate: null, durationEstimate: null, status: 'active' }));
  const buses: Bus[] = Array.from({ length: BUSES }, (_, i) => ({
    id: i + 1,
    plateNumber: `BA${String((i * 7919) % BUSES).padStart(5, '0')}`,
    internalCode: `MB-${i + 1}`,
    busName: `#${i + 1}`,
    seatsCount: 40,
    brand: i % 2 ? 'Nova Bus' : 'New Flyer',
    model: i % 3 ? 'LFS' : 'XD40',
    year: 2010 + (i % 15),
    currentStatus: i % 3 ? 'layover' : 'in_service',
    status: i % 50 ? 'active' : 'maintenance',
    currentRouteId: (i % 40) + 1,
    lastGpsAt: i % 97 ? now - (i % 900) * 1000 : null,
  }));
  const snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips'> = {
    vehicles: buses
      .filter((b) => b.id % 2 === 0)
      .map((b) => ({
        busId: b.id,
        plateNumber: b.plateNumber,
        busName: b.busName,
        internalCode: b.internalCode,
        lat: 40.75,
        lon: -73.98,
        heading: 90,
        speedKmh: 15,
        accuracy: 5,
        gpsAt: b.lastGpsAt,
        fetchedAt: now - 5_000,
        trip:
          b.id % 3 === 0
            ? { tripId: 1_000_000 + b.id, routeId: b.currentRouteId, routeCode: `M${b.currentRouteId}`, routeName: null, direction: 'outbound', status: 'started', delayMinutes: 2, delayClass: 'on-time', plannedDepartureAt: null, plannedArrivalAt: null, actualDepartureAt: null, actualArrivalAt: null }
            : null,
      })),
    unpositionedTrips: [],
  };
  return { routes, buses, snapshot };
}

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export const fleetTable: Benchmark = {
  name: 'fleet-table',
  title: '8. Fleet table, 10,000 buses',
  needsApp: false,
  async run(ctx) {
    const runs = ctx.quick ? 3 : 15;
    const now = Date.UTC(2026, 10, 25, 10, 0, 0);
    const { routes, buses, snapshot } = syntheticFleet(now);
    const build = () => fleetRows(buses, snapshot, routes, { recorded: false }, { now, staleAfterS: 120 });
    const rows = build();
    const state = { filters: NO_FLEET_FILTERS, sort: 'plate' as const, dir: 'asc' as const };
    const samples = { rows: [] as number[], plate: [] as number[], gpsAt: [] as number[], csv: [] as number[] };
    // One warm-up of each, not counted (the JIT, Intl's formatters).
    build();
    sortFleet(rows, 'plate', 'asc');
    fleetCsv(rows, { zone: 'UTC-05:00', now, staleAfterS: 120, dataAt: now, exportedAt: now, zoneName: 'agency time, UTC-05:00', state });
    for (let i = 0; i < runs; i++) {
      samples.rows.push(time(build));
      samples.plate.push(time(() => sortFleet(filterFleet(rows, NO_FLEET_FILTERS), 'plate', 'asc')));
      samples.gpsAt.push(time(() => sortFleet(filterFleet(rows, { ...NO_FLEET_FILTERS, gps: ['fresh', 'stale'] }), 'gpsAt', 'desc')));
      samples.csv.push(time(() => fleetCsv(rows, { zone: 'UTC-05:00', now, staleAfterS: 120, dataAt: now, exportedAt: now, zoneName: 'agency time, UTC-05:00', state })));
    }
    const figures: Figure[] = [
      { metric: 'rows from bus list + snapshot, median', unit: 'ms', fleetmap: median(samples.rows), peer: null, better: 'lower' },
      { metric: 'filter + sort by plate, median', unit: 'ms', fleetmap: median(samples.plate), peer: null, better: 'lower' },
      { metric: 'filter by GPS health + sort by GPS time, median', unit: 'ms', fleetmap: median(samples.gpsAt), peer: null, better: 'lower' },
      { metric: 'CSV export of every row, median', unit: 'ms', fleetmap: median(samples.csv), peer: null, better: 'lower' },
    ];
    return {
      peer: null,
      conditions: `${BUSES} synthetic buses (half located, a third of those on trips, 40 routes), Node.js, no browser; ${runs} timed runs after one warm-up; the page repeats the rows, filter and sort with each new answer and at most every 5 s between (ages in the drawn rows follow the one-second clock), the CSV once per export`,
      figures,
      details: samples,
    };
  },
};
