import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@/lib/config';
import { pathForTrip } from '@/lib/estimate';
import { Feed } from '@/lib/fleet';
import { projectOnto } from '@/lib/geo/polyline';
import { DEFAULT_REGULARITY, type DirectionHeadways, type RouteHeadways } from '@/lib/model';
import { createPartnerClient } from '@/lib/partner';
import { createSimulator, DEMO_BUSINESS_KEY } from '@/lib/sim';
import { routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { headwayClass } from './headways';
import { HeadwayService } from './service';

// The truth test of live headways: the simulator's clock is frozen (speed 0) at 08:30 on a Wednesday in New York, the
// morning peak, so every bus stands where /__admin/truth says while the feed polls the whole fleet over real HTTP.
// Then, route by route and direction by direction, Fleetmap's answer (/api/headways's service, at the simulator's instant) must
// agree with the simulator's true positions, bus for bus:
//  - the buses on the line, in Fleetmap's order, are in the order of their true progress (true positions projected
//    on the same path through the stops); a pair closer in truth than the estimator's error (TIE_M) may come either
//    way round, and how many such pairs there were is printed;
//  - every bus the simulator has running a trip, with a working GPS and out of its terminals, is on the line;
//  - every ghost is a trip with no bus or a bus whose GPS the simulator says is lost or absent, and every trip of a
//    bus that never reports, running for GHOST_AFTER_S, is a ghost;
//  - every gap's class (bunched, regular, gapped) equals the class of the true distance at the same pace and the same
//    scheduled headway, except where the true ratio lies within TIE_M of a class boundary.
// With the clock frozen each bus is seen at one instant: its pace runs from its trip's departure to that fix, or is
// its trip's planned pace; both sides divide by the pace Fleetmap used.

/** How far apart (m) two buses must truly be for their order to be claimed: the GPS noise plus half a minute's travel. */
const TIE_M = 120;
const LIMIT = 6_000;

const CONFIG: AppConfig = {
  feed: { budgetShare: 0.9, tripsIntervalMs: 15_000, busesIntervalMs: 180_000, routesIntervalMs: 600_000, parkedFloorMs: 1_800_000, watchTtlMs: 30_000 },
  delay: { lateMin: 5, earlyMin: 1 },
  staleAfterS: 120,
};

const realSleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live headways against the simulator’s truth', () => {
  it('orders buses, finds ghosts and classes gaps as the true positions do, bus for bus', async () => {
    // A fixed instant: with the clock frozen every answer of the simulator, and so every estimate, is the same on
    // every run (a bus asked twice gives the same fix).
    const zone = 'America/New_York';
    const startAt = Date.parse('2026-03-04T08:30:00-05:00');
    const sim = createSimulator({ seed: 29, speed: 0, startAt, timezone: zone, rateLimit: LIMIT });
    const { baseUrl } = await sim.listen(0, '127.0.0.1');
    const feed = new Feed({ config: CONFIG, timezone: zone, client: (timeRule) => createPartnerClient({ baseUrl, apiKey: DEMO_BUSINESS_KEY, timeRule, timeoutMs: 10_000 }), log: () => {} });
    const service = new HeadwayService(feed, { config: DEFAULT_REGULARITY, staleAfterS: CONFIG.staleAfterS, now: () => sim.now() });
    try {
      feed.start();
      const now = sim.now();
      const truth = sim.truth();
      const trueBus = new Map(truth.buses.map((b) => [b.id, b]));
      // Wait (on the feed, not on a deadline) until every route's stops are in and every bus on a trip with a
      // working GPS has been located at this frozen instant.
      const reporting = truth.buses.filter((b) => b.onTrip && b.gps === 'ok').map((b) => b.id);
      for (;;) {
        const net = feed.networkGeoJson();
        const located = new Set(feed.liveSnapshot().snapshot.vehicles.filter((v) => v.gpsAt !== null && v.lat !== null).map((v) => v.busId));
        if (net.routesListed && net.pendingRoutes === 0 && reporting.every((id) => located.has(id))) break;
        await realSleep(500);
      }
      const stopsByRoute = routeStopsFromNetwork(feed.networkGeoJson());
      const answer = service.answer(null, null);

      /** The true progress of a bus along its direction's path, projected near where its schedule puts it. */
      const trueProgress = (route: RouteHeadways, d: DirectionHeadways, busId: number, nearM: number): number | null => {
        const tp = pathForTrip(stopsByRoute.get(route.routeId)!, d.direction);
        const b = trueBus.get(busId);
        if (!tp.ok || !b) return null;
        const half = Math.max(1_000, 0.35 * tp.path.line.lengthM);
        return (projectOnto(tp.path.line, b.lon, b.lat, nearM - half, nearM + half) ?? projectOnto(tp.path.line, b.lon, b.lat))?.alongM ?? null;
      };

      const misordered: string[] = [];
      const missing: string[] = [];
      const wrongGhosts: string[] = [];
      const classMismatch: string[] = [];
      let pairs = 0;
      let ties = 0;
      let gapsCompared = 0;
      let borderline = 0;
      let bunched = 0;
      const errorsM: number[] = [];
      for (const route of answer.routes) {
        for (const d of route.directions) {
          const truthM = new Map<number, number>();
          for (const bus of d.buses) {
            const m = trueProgress(route, d, bus.busId, bus.progressM!);
            if (m !== null) {
              truthM.set(bus.tripId, m);
              errorsM.push(Math.abs(m - bus.progressM!));
            }
          }
          for (let i = 1; i < d.buses.length; i++) {
            const a = truthM.get(d.buses[i - 1]!.tripId);
            const b = truthM.get(d.buses[i]!.tripId);
            if (a === undefined || b === undefined) continue;
            pairs++;
            if (Math.abs(a - b) < TIE_M) ties++;
            else if (a < b) misordered.push(`${route.routeCode} ${d.direction}: bus ${d.buses[i - 1]!.busId} (${Math.round(a)} m) ahead of bus ${d.buses[i]!.busId} (${Math.round(b)} m)`);
          }
          for (const gap of d.gaps) {
            const a = truthM.get(gap.leaderTripId);
            const b = truthM.get(gap.followerTripId);
            if (a === undefined || b === undefined || gap.scheduledS === null) continue;
            gapsCompared++;
            if (gap.cls === 'bunched') bunched++;
            const trueRatio = Math.max(0, a - b) / gap.paceMps / gap.scheduledS;
            const slack = TIE_M / gap.paceMps / gap.scheduledS;
            const near = [DEFAULT_REGULARITY.bunchedRatio, DEFAULT_REGULARITY.gappedRatio].some((edge) => Math.abs(trueRatio - edge) < slack);
            if (near) borderline++;
            else if (headwayClass(trueRatio, DEFAULT_REGULARITY) !== gap.cls) classMismatch.push(`${route.routeCode} ${d.direction} trip ${gap.followerTripId}: ${gap.cls}, truth ${headwayClass(trueRatio, DEFAULT_REGULARITY)} (r ${trueRatio.toFixed(2)})`);
          }
          for (const g of d.ghosts) {
            const bus = g.busId === null ? undefined : trueBus.get(g.busId);
            if (g.reason !== 'no-bus' && bus?.gps === 'ok') wrongGhosts.push(`${route.routeCode} trip ${g.tripId}: a ghost, but the bus ${g.busId} reports`);
          }
        }
      }
      // The converse, from the simulator's own trips: running buses with a working GPS are on the line, and trips of
      // buses that never report, running for GHOST_AFTER_S, are ghosts.
      const onLine = new Set(answer.routes.flatMap((r) => r.directions.flatMap((d) => d.buses.map((b) => b.tripId))));
      const ghosts = new Set(answer.routes.flatMap((r) => r.directions.flatMap((d) => d.ghosts.map((g) => g.tripId))));
      const atTerminal = new Set(answer.routes.flatMap((r) => r.directions.flatMap((d) => [...d.layover, ...d.offLine].map((b) => b.tripId))));
      let neverReporting = 0;
      for (const ref of sim.world.activeTrips(now)) {
        const tripId = sim.world.tripId(ref);
        const state = sim.world.tripStatus(ref, now);
        const bus = sim.world.tripBus(ref, now);
        const t = bus ? trueBus.get(bus.id) : undefined;
        if (!t) continue;
        if (t.gps === 'none' && state.actualDepartureMs !== null && now - state.actualDepartureMs >= DEFAULT_REGULARITY.ghostAfterS * 1000) {
          neverReporting++;
          if (!ghosts.has(tripId)) wrongGhosts.push(`trip ${tripId}: its bus ${bus!.id} never reports, and it is not a ghost`);
        }
        if (t.gps === 'ok' && t.onTrip && !onLine.has(tripId) && !atTerminal.has(tripId)) missing.push(`trip ${tripId} (bus ${bus!.id}) is running and reporting but not on its ladder`);
      }
      errorsM.sort((a, b) => a - b);
      console.info(
        JSON.stringify({
          msg: 'headway truth test',
          routes: answer.routes.length,
          busesOnLines: onLine.size,
          pairs,
          pairsWithinTie: ties,
          gapsCompared,
          gapsBorderline: borderline,
          bunchedGaps: bunched,
          ghosts: ghosts.size,
          neverReporting,
          progressErrorM: { median: Math.round(errorsM[errorsM.length >> 1] ?? 0), p95: Math.round(errorsM[Math.floor(errorsM.length * 0.95)] ?? 0), max: Math.round(errorsM[errorsM.length - 1] ?? 0) },
        }),
      );
      expect(pairs).toBeGreaterThan(100);
      expect(bunched).toBeGreaterThan(0);
      expect(misordered).toEqual([]);
      expect(missing).toEqual([]);
      expect(wrongGhosts).toEqual([]);
      expect(classMismatch).toEqual([]);
    } finally {
      service.close();
      await feed.stop();
      await sim.close();
    }
  }, 600_000);
});
