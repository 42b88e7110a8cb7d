// The estimates of the live freshness run (benchmark 2): every sample, every bus on an active trip that Fleetmap
// holds a fix of is compared with the simulator's truth three ways, as in the service-day replay of benchmark 7:
// (1) Fleetmap's last fix, (2) the GPS-based estimate the browser draws (lib/placement/bus-placement over the fixes a
// browser polling every 5 s has seen, the routes' stops from /api/network), (3) the schedule-only estimate (the
// same module with no fix, as a Standard-plan key sees it). Errors overall and by the fix's age.
import { estimatePosition, pathForTrip } from '../lib/estimate';
import { distanceM } from '../lib/geo/sphere';
import type { LiveSnapshot, NetworkResponse, RouteStop, Vehicle } from '../lib/model';
import { RecentFixes, placeBuses, routeStopsFromNetwork } from '../lib/placement/bus-placement';
import { ageBucket } from './estimation';
import type { TruthBus } from './support/app-stack';
import { mean, median, percentile } from './support/stats';

const summary = (xs: number[]) => ({ n: xs.length, mean: mean(xs), p50: median(xs), p95: percentile(xs, 0.95) });

interface Errors {
  fix: number[];
  gps: number[];
  schedule: number[];
}

const errors = (): Errors => ({ fix: [], gps: [], schedule: [] });

export class LiveEstimates {
  private readonly recent = new RecentFixes();
  private stopsByRoute: Map<number, RouteStop[]> = new Map();
  private readonly all = errors();
  private readonly byAge = new Map<string, Errors>();
  private readonly bases = new Map<string, number>();
  /** Bus-samples with a fix but no estimate along the route (no path for the trip's direction). */
  private unplacedOnRoute = 0;

  setNetwork(network: NetworkResponse) {
    this.stopsByRoute = routeStopsFromNetwork(network);
  }

  /** One sample: the snapshot as a browser received it at `at`, and the truth of the buses on a trip. */
  sample(live: Pick<LiveSnapshot, 'vehicles'>, onTrip: readonly TruthBus[], at: number) {
    const vehicles: Vehicle[] = live.vehicles;
    this.recent.record(vehicles);
    const placed = new Map(placeBuses(vehicles, { mode: 'estimates', stopsByRoute: this.stopsByRoute, recent: this.recent, now: at, staleAfterS: 120 }).map((p) => [p.busId, p]));
    const byId = new Map(vehicles.map((v) => [v.busId, v]));
    for (const truth of onTrip) {
      const v = byId.get(truth.id);
      if (!v || v.lat === null || v.lon === null || v.gpsAt === null || !v.trip) continue;
      const p = placed.get(v.busId);
      if (!p) continue;
      if (p.estimate.basis === 'fix' && p.estimate.reason === 'no-route') this.unplacedOnRoute++;
      this.bases.set(`${p.estimate.basis} (${p.estimate.reason})`, (this.bases.get(`${p.estimate.basis} (${p.estimate.reason})`) ?? 0) + 1);
      const stops = v.trip.routeId === null ? undefined : this.stopsByRoute.get(v.trip.routeId);
      const path = stops ? pathForTrip(stops, v.trip.direction) : null;
      const schedule = estimatePosition({ path: path?.ok ? path.path : null, trip: v.trip, fixes: [], now: at });
      const fixErr = distanceM(v.lon, v.lat, truth.lon, truth.lat);
      const gpsErr = distanceM(p.estimate.lon, p.estimate.lat, truth.lon, truth.lat);
      const bucket = ageBucket((at - v.gpsAt) / 1000);
      const a = this.byAge.get(bucket) ?? errors();
      this.byAge.set(bucket, a);
      for (const e of [this.all, a]) {
        e.fix.push(fixErr);
        e.gps.push(gpsErr);
        if (schedule) e.schedule.push(distanceM(schedule.lon, schedule.lat, truth.lon, truth.lat));
      }
    }
  }

  result() {
    return {
      lastFix: summary(this.all.fix),
      gpsBased: summary(this.all.gps),
      scheduleOnly: summary(this.all.schedule),
      byAge: [...this.byAge.entries()]
        .sort((a, b) => parseFloat(a[0]) - parseFloat(b[0]))
        .map(([bucket, e]) => ({ bucket, n: e.fix.length, fix: summary(e.fix), gps: summary(e.gps), schedule: summary(e.schedule) })),
      byBasis: Object.fromEntries([...this.bases].sort((a, b) => b[1] - a[1])),
      busSamplesWithoutRoute: this.unplacedOnRoute,
      routesWithStops: this.stopsByRoute.size,
    };
  }
}
