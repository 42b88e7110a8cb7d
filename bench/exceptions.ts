// Benchmark: the exception rules over a replayed service day. The replay of benchmark 7 (the simulator's world on a
// simulated clock, the app's location scheduler on the live app's budget, trips and locations read through
// lib/partner) gives what the feed would know; every 5 simulated seconds the rules (lib/exceptions evaluateRules)
// and the engine (hysteresis, ids) run on it as the service runs them. Every 20 simulated minutes the simulator
// gets one incident of each kind (a breakdown, a silent GPS, a bus 500 m off its route, a trip with no bus) for 15
// minutes, on buses with long trips ahead. Figures:
//  - evaluation time per snapshot (rules + engine), at the default 855 buses in the replay, and at 10,000 buses on
//    snapshots built from a 10,000-bus simulator (each bus on a trip with three fixes to start, then its new ones,
//    placed on its route's stops as the feed reads them); at 10,000 buses also the process's CPU time, which a
//    loaded machine does not inflate as it does the wall time;
//  - exceptions opened per rule, scaled to a day;
//  - false positives of stopped, off-route and gps-lost per 1,000 bus-hours on trips: an exception with no
//    incident of its kind on that bus in the truth (for gps-lost, neither the simulator's own GPS losses);
//  - the time from an incident's start to its exception, in location refresh intervals (the mean interval between
//    two fetches of a bus on a trip in the replay), as measured and net of the rule's own threshold.
import { performance } from 'node:perf_hooks';
import { createSimulator, type Incident } from '../lib/sim';
import type { RecentFix } from '../lib/estimate';
import type { ExceptionRule, LiveSnapshot, RouteStop, Trip, UnpositionedTrip, Vehicle, VehicleTrip } from '../lib/model';
import { tripDelayClass } from '../lib/model/delay';
import { ExceptionEngine, type Transition } from '../lib/exceptions/engine';
import { evaluateRules, type RuleInput } from '../lib/exceptions/rules';
import { BusTracks } from '../lib/exceptions/tracks';
import { replayServiceDay, routeStopsOf, type ReplayControl } from './estimation';
import { DAY_START, HOUR_MS, allowServerModules } from './scheduler-replay';
import type { Benchmark, Figure } from './support/report';
import { median, percentile } from './support/stats';

const TICK_MS = 5_000;
const INCIDENT_EVERY_MS = 20 * 60_000;
const INCIDENT_S = 15 * 60;
const OFF_ROUTE_M = 500;
/** Snapshots of the 10,000-bus run left out of its figures (the first projection of every fix, the JIT's warm-up). */
const SCALE_WARMUP = 3;
const RULE_OF: Record<Incident['kind'], ExceptionRule> = { breakdown: 'stopped', 'gps-silent': 'gps-lost', 'off-route': 'off-route', 'no-bus': 'ghost' };

function thresholds() {
  allowServerModules();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the marker is in the cache
  return (require('../lib/exceptions/config') as typeof import('../lib/exceptions/config')).DEFAULT_THRESHOLDS;
}

const vehicleTrip = (t: Trip): VehicleTrip => ({
  tripId: t.id,
  routeId: t.routeId,
  routeCode: t.routeCode,
  routeName: t.routeName,
  direction: t.direction,
  status: t.status,
  delayMinutes: t.delayMinutes,
  delayClass: tripDelayClass(t.delayMinutes),
  plannedDepartureAt: t.plannedDepartureAt,
  plannedArrivalAt: t.plannedArrivalAt,
  actualDepartureAt: t.actualDepartureAt,
  actualArrivalAt: t.actualArrivalAt,
});

const HEALTH: LiveSnapshot['health'] = {
  state: 'ok',
  message: 'Live data is flowing.',
  lastSuccessAt: null,
  meanFixAgeS: null,
  level: 'business',
  locations: true,
  budget: { usedShare: 0.8, pausedUntil: null },
  timezone: { zone: 'America/New_York', offsetMinutes: null },
};
interface Latest {
  fix: RecentFix;
  fetchedAt: number;
}

/** The feed's snapshot from the last walk's trips and each bus's last location answer. */
function snapshotOf(trips: readonly Trip[], latest: ReadonlyMap<number, Latest>): RuleInput['snapshot'] {
  const vehicles: Vehicle[] = [];
  const unpositionedTrips: UnpositionedTrip[] = [];
  for (const t of trips) {
    const l = t.busId === null ? undefined : latest.get(t.busId);
    if (!l || l.fix.lat === null) {
      unpositionedTrips.push({ ...vehicleTrip(t), busId: t.busId, plateNumber: t.plateNumber, busName: t.busName });
      continue;
    }
    vehicles.push({ busId: t.busId!, plateNumber: t.plateNumber, busName: t.busName, internalCode: null, lat: l.fix.lat, lon: l.fix.lon, heading: l.fix.heading, speedKmh: l.fix.speedKmh, accuracy: l.fix.accuracy, gpsAt: l.fix.gpsAt, fetchedAt: l.fetchedAt, trip: vehicleTrip(t) });
  }
  return { vehicles, unpositionedTrips, health: HEALTH };
}

interface DayResult {
  evalMs: number[];
  opened: Transition[];
  incidents: Incident[];
  busHours: number;
  refreshS: number;
  hours: number;
  gpsLostTruth: (busId: number, at: number) => boolean;
}

function replayDay(fromH: number, toH: number): DayResult {
  const t = thresholds();
  const engine = new ExceptionEngine(t);
  const tracks = new BusTracks((t.stoppedMin + 10) * 60_000);
  const latest = new Map<number, Latest>();
  const evalMs: number[] = [];
  const opened: Transition[] = [];
  let sim!: ReturnType<typeof createSimulator>;
  let stops: ReadonlyMap<number, readonly RouteStop[]> = new Map();
  let control!: ReplayControl;
  let tripByBus = new Map<number, number>();
  let nextIncident = DAY_START + fromH * HOUR_MS;
  let busHours = 0;
  let onTripFetches = 0;
  let resumedAt = 0;
  replayServiceDay(fromH, toH, () => {}, DAY_START, {
    tickMs: TICK_MS,
    start: (s, byRoute, c) => {
      sim = s;
      stops = byRoute;
      control = c;
    },
    location: (busId, fix, now) => {
      latest.set(busId, { fix, fetchedAt: now });
      if (tripByBus.has(busId)) onTripFetches++;
      if (fix.gpsAt !== null && fix.lat !== null && fix.lon !== null) tracks.add(busId, { gpsAt: fix.gpsAt, fetchedAt: now, lat: fix.lat, lon: fix.lon, accuracy: fix.accuracy, tripId: tripByBus.get(busId) ?? null });
    },
    tick: (now, trips) => {
      resumedAt ||= now;
      tripByBus = new Map(trips.filter((x) => x.busId !== null).map((x) => [x.busId!, x.id]));
      busHours += (tripByBus.size * TICK_MS) / HOUR_MS;
      if (now >= nextIncident) {
        addIncidents(sim, now);
        nextIncident += INCIDENT_EVERY_MS;
      }
      const snapshot = snapshotOf(trips, latest);
      const began = performance.now();
      const conditions = evaluateRules({ now, snapshot, tracks, stopsByRoute: stops, thresholds: t, ghostAfterS: 300, resumedAt, recorder: 'recording', onSuspect: (busId) => control.watch(busId, now) });
      const transitions = engine.step(now, conditions, false);
      evalMs.push(performance.now() - began);
      for (const x of transitions) if (x.type === 'opened') opened.push(x);
    },
  });
  const hours = toH - fromH;
  return {
    evalMs,
    opened,
    incidents: sim.incidents(),
    busHours,
    refreshS: busHours > 0 ? (busHours * 3600) / onTripFetches : 0,
    hours,
    gpsLostTruth: (busId, at) => {
      const bus = sim.world.bus(busId)!;
      // The simulator's own GPS losses: lost at the fix the exception was opened on, or any time in the minutes before.
      for (let back = 0; back <= 15 * 60_000; back += 30_000) if (sim.world.lastFixMs(bus, at - back)?.lost) return true;
      return false;
    },
  };
}

/** One incident of each kind, on buses whose trips run at least 40 more minutes and that no incident holds. */
function addIncidents(sim: ReturnType<typeof createSimulator>, now: number): void {
  const busy = new Set(sim.incidents().filter((i) => i.endAt > now).map((i) => i.busId));
  const candidates = sim.world
    .activeTrips(now)
    .filter((ref) => ref.s.baseMs + ref.s.arrS[ref.k]! * 1000 - now > 40 * 60_000 && !busy.has(ref.s.busId[ref.k]!))
    .map((ref) => ({ busId: ref.s.busId[ref.k]!, tripId: sim.world.tripId(ref) }));
  // A fixed stride through the list: different routes and buses over the day, the same ones on every run.
  const pick = (i: number) => candidates[Math.floor(((i + 1) * candidates.length) / 5)];
  const [a, b, c, d] = [pick(0), pick(1), pick(2), pick(3)];
  if (a) sim.addIncident({ kind: 'breakdown', busId: a.busId, durationS: INCIDENT_S });
  if (b && sim.world.gpsState(sim.world.bus(b.busId)!, now) === 'ok') sim.addIncident({ kind: 'gps-silent', busId: b.busId, durationS: INCIDENT_S });
  if (c) sim.addIncident({ kind: 'off-route', busId: c.busId, distanceM: OFF_ROUTE_M, durationS: INCIDENT_S });
  if (d) sim.addIncident({ kind: 'no-bus', tripId: d.tripId, durationS: INCIDENT_S });
}

/**
 * Rules and engine on `n` snapshots of a 10,000-bus simulator, 5 s apart: every bus on a trip with three fixes 20 s
 * apart to start, then each new fix. The first snapshots (the first projections of every fix, and the JIT's warm-up)
 * are left out of the figures.
 */
function evalAtScale(buses: number, n: number): { ms: number[]; cpuMs: number[]; vehicles: number } {
  const t = thresholds();
  const startAt = DAY_START + 8 * HOUR_MS;
  let now = startAt;
  const sim = createSimulator({ buses, startAt, now: () => now });
  const world = sim.world;
  const engine = new ExceptionEngine(t);
  const tracks = new BusTracks((t.stoppedMin + 10) * 60_000);
  const stopsByRoute = routeStopsOf(world);
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let vehicles = 0;
  for (let i = 0; i < n; i++) {
    now = startAt + i * TICK_MS;
    const vs: Vehicle[] = [];
    for (const ref of world.activeTrips(now)) {
      const bus = world.bus(ref.s.busId[ref.k]!)!;
      const status = world.tripStatus(ref, now);
      for (const back of i === 0 ? [40_000, 20_000, 0] : [0]) {
        const f = world.fix(bus, now - back);
        if (f) tracks.add(bus.id, { gpsAt: f.atMs, fetchedAt: now - back, lat: f.lat, lon: f.lon, accuracy: f.accuracyM, tripId: world.tripId(ref) });
      }
      const f = world.fix(bus, now);
      const route = world.net.routes[ref.s.route[ref.k]!]!;
      vs.push({
        busId: bus.id,
        plateNumber: null,
        busName: bus.busName,
        internalCode: null,
        lat: f?.lat ?? null,
        lon: f?.lon ?? null,
        heading: null,
        speedKmh: null,
        accuracy: null,
        gpsAt: f?.atMs ?? null,
        fetchedAt: now,
        trip: { tripId: world.tripId(ref), routeId: route.id, routeCode: route.code, routeName: route.name, direction: ref.s.dir[ref.k] === 0 ? 'outbound' : 'inbound', status: status.status, delayMinutes: status.delayMinutes, delayClass: tripDelayClass(status.delayMinutes), plannedDepartureAt: ref.s.baseMs + ref.s.depS[ref.k]! * 1000, plannedArrivalAt: ref.s.baseMs + ref.s.arrS[ref.k]! * 1000, actualDepartureAt: status.actualDepartureMs, actualArrivalAt: null },
      });
    }
    vehicles = vs.length;
    const cpu = process.cpuUsage();
    const began = performance.now();
    const conditions = evaluateRules({ now, snapshot: { vehicles: vs, unpositionedTrips: [], health: HEALTH }, tracks, stopsByRoute, thresholds: t, ghostAfterS: 300, resumedAt: startAt, recorder: 'recording' });
    engine.step(now, conditions, false);
    const wall = performance.now() - began;
    const used = process.cpuUsage(cpu);
    if (i >= SCALE_WARMUP) {
      ms.push(wall);
      cpuMs.push((used.user + used.system) / 1000);
    }
  }
  void sim.close();
  return { ms, cpuMs, vehicles };
}

export const exceptions: Benchmark = {
  name: 'exceptions',
  title: 'Exceptions over a replayed service day',
  needsApp: false,
  async run(ctx) {
    const [fromH, toH] = ctx.quick ? [7, 10] : [6, 22];
    const day = replayDay(fromH, toH);
    const t = thresholds();
    const perDay = 24 / day.hours;
    const rules: ExceptionRule[] = ['late', 'early', 'gps-lost', 'ghost', 'stopped', 'off-route'];
    const counts = Object.fromEntries(rules.map((r) => [r, day.opened.filter((x) => x.exception.rule === r).length]));
    // An exception is explained by an incident of its kind on its subject that held at some time up to its opening.
    const explained = (x: Transition) =>
      day.incidents.some((i) => RULE_OF[i.kind] === x.exception.rule && (i.kind === 'no-bus' ? i.tripId === x.exception.subject.tripId : i.busId === x.exception.subject.busId) && i.startAt <= x.at && x.at <= i.endAt + 10 * 60_000);
    const falsePositives = (rule: ExceptionRule) =>
      day.opened.filter((x) => x.exception.rule === rule && !explained(x) && !(rule === 'gps-lost' && day.gpsLostTruth(x.exception.subject.busId!, x.at))).length;
    const fp = Object.fromEntries((['stopped', 'off-route', 'gps-lost'] as const).map((r) => [r, (falsePositives(r) * 1000) / day.busHours]));
    const threshold: Record<string, number> = { stopped: t.stoppedMin * 60, 'gps-lost': t.gpsLostS, 'off-route': 0, ghost: 0 };
    const latency: Record<string, { raw: number[]; net: number[]; missed: number }> = {};
    for (const i of day.incidents) {
      const rule = RULE_OF[i.kind];
      const x = day.opened.find((o) => o.exception.rule === rule && (i.kind === 'no-bus' ? o.exception.subject.tripId === i.tripId : o.exception.subject.busId === i.busId) && o.at >= i.startAt && o.at <= i.endAt + 10 * 60_000);
      const l = (latency[rule] ??= { raw: [], net: [], missed: 0 });
      if (!x) {
        l.missed++;
        continue;
      }
      const s = (x.at - i.startAt) / 1000;
      l.raw.push(s / day.refreshS);
      l.net.push((s - threshold[rule]!) / day.refreshS);
    }
    const big = evalAtScale(10_000, SCALE_WARMUP + (ctx.quick ? 6 : 24));
    const figures: Figure[] = [
      { metric: 'evaluation per snapshot, 855 buses (median)', unit: 'ms', fleetmap: median(day.evalMs), peer: null, better: 'lower' },
      { metric: 'evaluation per snapshot, 855 buses (p95)', unit: 'ms', fleetmap: percentile(day.evalMs, 0.95), peer: null, better: 'lower' },
      { metric: `evaluation per snapshot, 10,000 buses (${big.vehicles} on trips, median)`, unit: 'ms', fleetmap: median(big.ms), peer: null, better: 'lower' },
      { metric: `evaluation per snapshot, 10,000 buses (${big.vehicles} on trips, CPU median)`, unit: 'ms', fleetmap: median(big.cpuMs), peer: null, better: 'lower' },
      ...(['stopped', 'off-route', 'gps-lost'] as const).map((r): Figure => ({ metric: `false positives of ${r} per 1,000 bus-hours`, unit: '', fleetmap: fp[r]!, peer: null, better: 'lower' })),
      ...(['stopped', 'gps-lost', 'off-route', 'ghost'] as const).map((r): Figure => ({ metric: `incident to ${r} exception, median, net of its threshold`, unit: 'refresh intervals', fleetmap: median(latency[r]?.net ?? []), peer: null, better: 'lower' })),
    ];
    return {
      peer: null,
      conditions: `Replay of Wednesday 4 March 2026 ${fromH}:00–${toH}:00 (New York), 855 buses, the app's budget (240 location slots a minute); rules every ${TICK_MS / 1000} s; one incident of each kind every ${INCIDENT_EVERY_MS / 60_000} min for ${INCIDENT_S / 60} min (off-route ${OFF_ROUTE_M} m); default thresholds; mean location refresh of a bus on a trip ${day.refreshS.toFixed(0)} s`,
      figures,
      details: {
        hours: day.hours,
        busHoursOnTrips: Math.round(day.busHours),
        refreshS: day.refreshS,
        evaluations: day.evalMs.length,
        openedPerRule: counts,
        openedPerRulePerDay: Object.fromEntries(Object.entries(counts).map(([r, n]) => [r, Math.round(n * perDay)])),
        incidents: Object.fromEntries(Object.keys(RULE_OF).map((k) => [k, day.incidents.filter((i) => i.kind === k).length])),
        falsePositives: Object.fromEntries((['stopped', 'off-route', 'gps-lost'] as const).map((r) => [r, falsePositives(r)])),
        falsePositivesPer1000BusHours: fp,
        latencyRefreshIntervals: Object.fromEntries(
          Object.entries(latency).map(([r, l]) => [r, { n: l.raw.length, missed: l.missed, medianRaw: median(l.raw), medianNetOfThreshold: median(l.net), p95Raw: percentile(l.raw, 0.95) }]),
        ),
        scale10k: { vehicles: big.vehicles, snapshots: big.ms.length, medianMs: median(big.ms), maxMs: Math.max(...big.ms), cpuMedianMs: median(big.cpuMs), cpuMaxMs: Math.max(...big.cpuMs) },
        // More than one exception for one incident is a flap (closed and opened again while the incident held).
        exceptionsPerIncident: Object.fromEntries(
          day.incidents.length === 0
            ? []
            : (['stopped', 'gps-lost', 'off-route', 'ghost'] as const).map((r) => {
                const kind = (Object.keys(RULE_OF) as Incident['kind'][]).find((k) => RULE_OF[k] === r)!;
                const of = day.incidents.filter((i) => i.kind === kind).map((i) => day.opened.filter((x) => x.exception.rule === r && (i.kind === 'no-bus' ? x.exception.subject.tripId === i.tripId : x.exception.subject.busId === i.busId) && x.at >= i.startAt && x.at <= i.endAt + 10 * 60_000).length);
                return [r, { max: Math.max(...of), mean: of.reduce((a, b) => a + b, 0) / of.length }];
              }),
        ),
      },
    };
  },
};
