import { expect, it } from 'vitest';
import type { AppConfig } from '@/lib/config';
import { Feed } from '@/lib/fleet';
import { systemClock, type Clock } from '@/lib/fleet/clock';
import type { ExceptionRule, FleetException } from '@/lib/model';
import { pathForTrip } from '@/lib/estimate';
import { createPartnerClient } from '@/lib/partner';
import { createSimulator, DEMO_BUSINESS_KEY, zoneAtLocalHour, type Incident, type Simulator } from '@/lib/sim';
import { describeEachStore } from '@/lib/testing/store';
import { routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { DEFAULT_THRESHOLDS, type ExceptionsConfig } from './config';
import type { Transition } from './engine';
import { offRouteVerdict, placeOnPath } from './rules';
import { ExceptionService } from './service';

// The rules end to end: the simulator's incidents (a breakdown, a silent GPS, a bus off its route, a trip with no
// bus) through the real client and feed into the exception service and the store, on PGlite and on PostgreSQL.
// The simulator runs 10x faster than real time and the feed's clock follows it, so every threshold keeps its
// default meaning in simulated time. Each rule must open within one refresh of the data it needs after its
// threshold and hold have passed, and resolve after the incident ends. Every wait is on the simulator's clock.

const SPEED = 10;
const ZONE = zoneAtLocalHour(11);
const LIMIT = 300;
const CONFIG: AppConfig = {
  feed: { budgetShare: 0.8, tripsIntervalMs: 15_000, busesIntervalMs: 180_000, routesIntervalMs: 600_000, parkedFloorMs: 1_800_000, watchTtlMs: 30_000 },
  delay: { lateMin: 5, earlyMin: 1 },
  staleAfterS: 120,
};
const EXCEPTIONS: ExceptionsConfig = { thresholds: DEFAULT_THRESHOLDS, webhooks: [] };
/** How long each rule is given to open, in simulated seconds. */
const INCIDENT_S = 900;
/**
 * How long the incidents last unless ended: well past the time the rules are given, so that none has ended (and its
 * exception resolved) when the store is read, on a machine slow enough that the last rule opens just in time. The
 * test ends them itself once it has read the store.
 */
const INCIDENT_LASTS_S = 4 * INCIDENT_S;
const MIN = 60_000;

/** A fetch of a bus's location as a snapshot showed it. */
interface Fetch {
  fetchedAt: number;
  gpsAt: number;
  lat: number | null;
  lon: number | null;
  routeId: number | null;
  direction: string | null;
  accuracy: number | null;
}

const realSleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Buses on trips that run at least 40 more simulated minutes (an incident must not outlast the trip), GPS reporting. */
function longTrips(sim: Simulator, n: number): { busId: number; tripId: number }[] {
  const now = sim.now();
  const out: { busId: number; tripId: number }[] = [];
  for (const ref of sim.world.activeTrips(now)) {
    const busId = ref.s.busId[ref.k]!;
    const arrival = ref.s.baseMs + ref.s.arrS[ref.k]! * 1000;
    if (arrival - now < 40 * MIN || sim.world.gpsState(sim.world.bus(busId)!, now) !== 'ok') continue;
    out.push({ busId, tripId: sim.world.tripId(ref) });
    if (out.length === n) break;
  }
  return out;
}

describeEachStore('exceptions from the simulator’s incidents', (target) => {
  it('opens each rule’s exception within one refresh after its threshold, and resolves it after the incident ends', async () => {
    const store = await target.open();
    const sim = createSimulator({ seed: 5, buses: 120, speed: SPEED, timezone: ZONE, rateLimit: LIMIT, rateWindowMs: 60_000 / SPEED, admin: true });
    const clock: Clock = { now: () => sim.now(), sleep: (ms, signal) => systemClock.sleep(ms / SPEED, signal) };
    const { baseUrl } = await sim.listen(0, '127.0.0.1');
    const feed = new Feed({ config: CONFIG, timezone: ZONE, clock, client: (timeRule) => createPartnerClient({ baseUrl, apiKey: DEMO_BUSINESS_KEY, timeRule, timeoutMs: 5_000 }), log: () => {} });
    const service = new ExceptionService({ feed, db: async () => store.db, config: EXCEPTIONS, ghostAfterS: 300, recorder: () => 'recording', now: clock.now, log: () => {} });
    const transitions: Transition[] = [];
    let evaluating: ReturnType<typeof setInterval> | undefined;
    try {
      feed.start();
      await incidentsEndToEnd();
    } finally {
      clearInterval(evaluating);
      await service.close();
      await feed.stop();
      await sim.close();
    }

    async function incidentsEndToEnd() {
      // The network's stops place buses along their routes (stopped, off-route): wait for every route's.
      while (!(feed.networkGeoJson().routesListed && feed.networkGeoJson().pendingRoutes === 0)) await realSleep(100);
      // Every fetch of each bus's location as the snapshots show it (its fetched and GPS times), and every walk of the
      // active trips: when the data each rule needs came in.
      const fetches = new Map<number, Fetch[]>();
      const walks: number[] = [];
      feed.events.on('trips', (w) => walks.push(w.fetchedAt));
    // Health changes: while the upstream gives no fresh data (a 429 or a timeout on a loaded machine) the rules about
    // buses are held, and start a fresh hold after it; such a spell adds to the time a rule may take.
    const health: { at: number; to: string }[] = [];
    feed.events.on('health', (h) => health.push({ at: h.at, to: h.to }));
      const tick = async () => {
        for (const v of feed.liveSnapshot().snapshot.vehicles) {
          if (v.fetchedAt === null || v.gpsAt === null) continue;
          const list = fetches.get(v.busId) ?? fetches.set(v.busId, []).get(v.busId)!;
          if (list[list.length - 1]?.fetchedAt !== v.fetchedAt) list.push({ fetchedAt: v.fetchedAt, gpsAt: v.gpsAt, lat: v.lat, lon: v.lon, routeId: v.trip?.routeId ?? null, direction: v.trip?.direction ?? null, accuracy: v.accuracy });
        }
        transitions.push(...(await service.evaluate()));
      };
      evaluating = setInterval(() => void tick(), 2_000 / SPEED);

      // Let the feed learn every bus's fixes first (a false exception before the incidents would show here too).
      const warm = sim.now() + 5 * MIN;
      while (sim.now() < warm) await realSleep(100);
      const before = transitions.filter((t) => t.type === 'opened').map((t) => `${t.exception.rule} ${t.exception.subject.busId}`);

      const [a, b, c, d] = longTrips(sim, 4);
      expect(d, 'four buses on long trips').toBeDefined();
      const incidents: Record<string, Incident> = {
        stopped: sim.addIncident({ kind: 'breakdown', busId: a!.busId, durationS: INCIDENT_LASTS_S }),
        'gps-lost': sim.addIncident({ kind: 'gps-silent', busId: b!.busId, durationS: INCIDENT_LASTS_S }),
        'off-route': sim.addIncident({ kind: 'off-route', busId: c!.busId, distanceM: 600, durationS: INCIDENT_LASTS_S }),
        ghost: sim.addIncident({ kind: 'no-bus', tripId: d!.tripId, durationS: INCIDENT_LASTS_S }),
      };
      const subjectOf = (rule: string, e: FleetException) => (rule === 'ghost' ? e.subject.tripId === incidents.ghost!.tripId : e.subject.busId === incidents[rule]!.busId);
      const opened = (rule: ExceptionRule) => transitions.find((t) => t.type === 'opened' && t.exception.rule === rule && subjectOf(rule, t.exception));
      const resolved = (rule: ExceptionRule) => transitions.find((t) => t.type === 'resolved' && t.exception.rule === rule && subjectOf(rule, t.exception));
      const rules: ExceptionRule[] = ['stopped', 'gps-lost', 'off-route', 'ghost'];
      const start = incidents.stopped!.startAt;
      while (sim.now() < start + INCIDENT_S * 1000 && !rules.every(opened)) await realSleep(100);

      // When the data each rule needs was in: stopped, the first fix five minutes (GPS time) after the first fix of the
      // breakdown; gps-lost, the first fetch that found the fix ALERT_GPS_LOST_S old; off-route, the second fix in a row
      // off the route as rules.ts judges one (beyond ALERT_OFF_ROUTE_M and its accuracy, off the terminal segments); ghost, the first walk of the active trips after the trip lost its bus. Each opens at most its hold
      // later, at the next evaluation (every 2 simulated seconds, later on a loaded machine); stopped may open sooner,
      // when the bus already stood at a stop as it broke down.
      const t = EXCEPTIONS.thresholds;
      const after = (busId: number) => (fetches.get(busId) ?? []).filter((f) => f.fetchedAt >= start);
      const fixesAfter = (busId: number) => after(busId).filter((f, i, all) => f.gpsAt >= start && (i === 0 || all[i - 1]!.gpsAt !== f.gpsAt));
      // Off route as the rule measures it (lib/estimate's routeProgress against the trip's path): a point offset from
    // its way can come near another part of the same line, so not every fix of the incident lies far from it.
    const stops = routeStopsFromNetwork(feed.networkGeoJson());
    const beyond = (f: Fetch) => {
      const path = f.routeId === null ? null : pathForTrip(stops.get(f.routeId) ?? [], f.direction);
      const placed = path?.ok && f.lat !== null && f.lon !== null ? placeOnPath(path.path, f.lon, f.lat) : null;
      return placed !== null && offRouteVerdict(placed, f.accuracy, t.offRouteM) === 'beyond';
    };
    const secondOffRoute = (fixes: Fetch[]) => {
      for (let i = 1; i < fixes.length; i++) if (beyond(fixes[i - 1]!) && beyond(fixes[i]!)) return fixes[i]!.fetchedAt;
      return undefined;
    };
    const firstStanding = fixesAfter(incidents.stopped!.busId!)[0];
      const dataIn: Record<string, number | undefined> = {
        stopped: firstStanding && fixesAfter(incidents.stopped!.busId!).find((f) => f.gpsAt - firstStanding.gpsAt >= t.stoppedMin * MIN)?.fetchedAt,
        'gps-lost': after(incidents['gps-lost']!.busId!).find((f) => f.fetchedAt - f.gpsAt >= t.gpsLostS * 1000)?.fetchedAt,
        'off-route': secondOffRoute(fixesAfter(incidents['off-route']!.busId!)),
        ghost: walks.find((w) => w >= start),
      };
      const DOWN = new Set(['starting', 'unreachable', 'unauthorized', 'forbidden', 'rate-limited']);
    /** Time held (down, plus a fresh hold after each spell) between two instants. */
    const heldFor = (from: number, to: number) => {
      let held = 0;
      for (let i = 0; i < health.length; i++) {
        if (!DOWN.has(health[i]!.to)) continue;
        const end = health[i + 1]?.at ?? to;
        if (end < from || health[i]!.at > to) continue;
        held += Math.min(end, to) - Math.max(health[i]!.at, from) + t.holdS * 1000;
      }
      return held;
    };
    const latency: Record<string, number> = {};
      for (const rule of rules) {
        const o = opened(rule);
        expect(o, `${rule} opened`).toBeDefined();
        expect(dataIn[rule], `${rule}'s data came in`).toBeDefined();
        latency[rule] = o!.at - dataIn[rule]!;
        expect(latency[rule], `${rule} opened ${latency[rule]} ms after its data (health: ${JSON.stringify(health)})`).toBeLessThanOrEqual(t.holdS * 1000 + 30_000 + heldFor(dataIn[rule]!, o!.at));
        expect(o!.exception.since).toBeGreaterThanOrEqual(start);
      }
      const stored = await service.exceptionStore();
      for (const rule of rules) {
        const id = opened(rule)!.exception.id;
        const state = (await stored.byId(id))?.state;
        // An off-route bus's fix may come near another part of its own line (above), and the rule then rightly
        // resolves its exception while the incident lasts: the store must say what the engine said, which the
        // engine reports right after it has written it.
        if (rule === 'off-route' && state === 'resolved') {
          await expect.poll(() => transitions.some((t) => t.type === 'resolved' && t.exception.id === id), { timeout: 60_000 }).toBe(true);
          continue;
        }
        expect(state, `${rule} stored as open while its incident lasts`).toBe('open');
      }

      sim.endIncidents();
      const ended = sim.now();
      while (sim.now() < ended + 15 * MIN && !rules.every(resolved)) await realSleep(100);
      for (const rule of rules) expect(resolved(rule), `${rule} resolved`).toBeDefined();
      for (const rule of rules) expect((await stored.byId(opened(rule)!.exception.id))?.state).toBe('resolved');
      console.info(JSON.stringify({ msg: 'incidents', store: target.name, afterDataS: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, v / 1000])), afterStartS: Object.fromEntries(rules.map((r) => [r, (opened(r)!.at - start) / 1000])), before, health }));
      // Nothing about these buses opened before their incidents.
      for (const rule of rules) expect(before).not.toContain(`${rule} ${incidents[rule]!.busId}`);
    }
  }, 900_000);
});
