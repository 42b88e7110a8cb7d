import { pathForTrip, routeProgress, type RoutePath } from '@/lib/estimate';
import type {
  EpochMs,
  ExceptionFigures,
  ExceptionRule,
  ExceptionSeverity,
  ExceptionSubject,
  LiveSnapshot,
  RecorderStatus,
  RouteStop,
  UnpositionedTrip,
  UpstreamState,
  Vehicle,
  VehicleTrip,
} from '@/lib/model';
import { INTEGRATION_RULES } from '@/lib/model/exceptions';
import { busSeen, ghostReason, tripDepartedAt } from '@/lib/regularity/ghosts';
import type { RuleThresholds } from './config';
import type { BusTracks, OffRouteState, TrackFix } from './tracks';

// One function per rule: from what the feed knows now to the conditions that hold now. Pure; the engine
// (engine.ts) turns conditions into exceptions with hysteresis. Rules about buses and trips read the feed's
// snapshot and each bus's recent fixes; where a bus is along its route comes from lib/estimate; ghosts are
// lib/regularity's one definition.

/** A condition that holds now. `key` names what it is about, the same on every evaluation and every instance. */
export interface Condition {
  rule: ExceptionRule;
  key: string;
  severity: ExceptionSeverity;
  subject: ExceptionSubject;
  figures: ExceptionFigures;
  message: string;
}

export const SEVERITY: Record<ExceptionRule, ExceptionSeverity> = {
  late: 'warning',
  early: 'info',
  'gps-lost': 'warning',
  ghost: 'critical',
  stopped: 'critical',
  'off-route': 'warning',
  bunched: 'info',
  gapped: 'warning',
  upstream: 'critical',
  budget: 'warning',
  recorder: 'warning',
  coordination: 'critical',
};

/** stopped: moved no more than this (the issue's figure; GPS noise is a few metres). */
export const STOPPED_RADIUS_M = 50;
/** stopped: within this of either end of its path is at a terminal, where buses stand by design. */
export const TERMINAL_M = 150;

/** States in which the upstream gives no fresh data: rules about buses and trips are held (suppression). */
const DOWN: ReadonlySet<UpstreamState> = new Set(['starting', 'unreachable', 'unauthorized', 'forbidden', 'rate-limited']);
/** States that open the `upstream` integration exception once they last the hold time. */
const TROUBLE: ReadonlySet<UpstreamState> = new Set(['degraded', 'unreachable', 'unauthorized', 'forbidden', 'rate-limited']);

/** A headway as lib/regularity measures it live (follower's trip, h / h_sched). */
export interface LiveHeadway {
  tripId: number;
  busId: number | null;
  routeId: number | null;
  routeCode: string | null;
  ratio: number;
  class: 'bunched' | 'gapped' | 'regular';
}

export interface RuleInput {
  now: EpochMs;
  snapshot: Pick<LiveSnapshot, 'vehicles' | 'unpositionedTrips' | 'health'>;
  tracks: BusTracks;
  /** Route stops by route id (all directions), for the trip's path. */
  stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>;
  thresholds: RuleThresholds;
  ghostAfterS: number;
  /** When fresh data came back after the last outage (or the feed first answered): silences count from then. */
  resumedAt: EpochMs;
  recorder: RecorderStatus['state'] | null;
  /** Live headways, when lib/regularity serves them. */
  headways?: readonly LiveHeadway[];
  /** A bus whose newest fix lies off its route, not yet confirmed: the caller may ask for its next fix sooner. */
  onSuspect?: (busId: number) => void;
  /**
   * A condition the rules cannot judge now, by its key: its subject has no fresh data since resumedAt, or too little
   * of it (a bus standing since before its oldest fix held). Not holding is then no evidence that it cleared: the
   * engine leaves its exception as it is (after an outage every bus waits for its next fix, minutes at 855 buses on
   * the default key, and resolving meanwhile would reopen the same exception, unacknowledged, under a new id).
   */
  onUndecided?: (key: string) => void;
}

/** Whether rules about buses and trips are held now (the upstream gives no fresh data). */
export function suppressed(snapshot: Pick<LiveSnapshot, 'health'>): boolean {
  return DOWN.has(snapshot.health.state) || snapshot.health.coordination !== undefined;
}

export const isIntegrationRule = (rule: ExceptionRule) => INTEGRATION_RULES.includes(rule);

const tripSubject = (t: VehicleTrip, busId: number | null, busName: string | null): ExceptionSubject => ({
  busId,
  tripId: t.tripId,
  routeId: t.routeId,
  routeCode: t.routeCode,
  busName,
});

const NO_SUBJECT: ExceptionSubject = { busId: null, tripId: null, routeId: null, routeCode: null, busName: null };

const named = (s: ExceptionSubject) => {
  const bus = s.busName ?? (s.busId !== null ? `bus ${s.busId}` : null);
  const trip = s.tripId !== null ? `trip ${s.tripId}${s.routeCode ? ` (${s.routeCode})` : ''}` : null;
  return [bus, trip].filter(Boolean).join(' on ');
};

type ActiveTrip = { trip: VehicleTrip; busId: number | null; busName: string | null; vehicle: Vehicle | null };

/** Every active trip once, with its bus (a vehicle's trip, else an unpositioned one). */
function activeTrips(snapshot: RuleInput['snapshot']): ActiveTrip[] {
  const out: ActiveTrip[] = [];
  const seen = new Set<number>();
  for (const v of snapshot.vehicles) {
    if (!v.trip || seen.has(v.trip.tripId)) continue;
    seen.add(v.trip.tripId);
    out.push({ trip: v.trip, busId: v.busId, busName: v.busName, vehicle: v });
  }
  for (const t of snapshot.unpositionedTrips as readonly UnpositionedTrip[]) {
    if (seen.has(t.tripId)) continue;
    seen.add(t.tripId);
    out.push({ trip: t, busId: t.busId, busName: t.busName, vehicle: null });
  }
  return out;
}

function delayRules(input: RuleInput, trips: readonly ActiveTrip[], out: Condition[]): void {
  const { lateMin, earlyMin } = input.thresholds;
  for (const { trip, busId, busName } of trips) {
    const d = trip.delayMinutes;
    if (d === null || !Number.isFinite(d)) continue;
    const subject = tripSubject(trip, busId, busName);
    if (d >= lateMin) out.push({ rule: 'late', key: `late|trip:${trip.tripId}`, severity: SEVERITY.late, subject, figures: { delayMinutes: d }, message: `${named(subject)} is ${d} min late.` });
    else if (d <= -earlyMin) out.push({ rule: 'early', key: `early|trip:${trip.tripId}`, severity: SEVERITY.early, subject, figures: { delayMinutes: d }, message: `${named(subject)} is ${-d} min early.` });
  }
}

/** The bus's own fix was already this old when the feed last asked for it, and it asked after data came back. */
function gpsLostRule(input: RuleInput, out: Condition[]): void {
  const limitMs = input.thresholds.gpsLostS * 1000;
  for (const v of input.snapshot.vehicles) {
    if (!v.trip || v.gpsAt === null || v.fetchedAt === null) continue;
    if (v.fetchedAt < input.resumedAt) {
      input.onUndecided?.(`gps-lost|bus:${v.busId}`);
      continue;
    }
    const ageMs = v.fetchedAt - v.gpsAt;
    if (ageMs < limitMs) continue;
    const subject = tripSubject(v.trip, v.busId, v.busName);
    const gpsAgeS = Math.round((input.now - v.gpsAt) / 1000);
    out.push({ rule: 'gps-lost', key: `gps-lost|bus:${v.busId}`, severity: SEVERITY['gps-lost'], subject, figures: { gpsAgeS }, message: `${named(subject)}: no GPS fix for ${Math.round(gpsAgeS / 60)} min.` });
  }
}

/** lib/regularity's ghost rule, its silence counted from when fresh data came back at the earliest. */
function ghostRule(input: RuleInput, trips: readonly ActiveTrip[], out: Condition[]): void {
  const rule = { ghostAfterS: input.ghostAfterS, locations: input.snapshot.health.locations === true };
  // A vehicle's own trip reads its fix; an unpositioned trip's bus is looked up (the map built only if one needs it).
  let byBus: Map<number, Vehicle> | null = null;
  const lookup = (busId: number) => (byBus ??= new Map(input.snapshot.vehicles.map((v) => [v.busId, v]))).get(busId) ?? null;
  for (const { trip, busId, busName, vehicle } of trips) {
    const departed = tripDepartedAt(trip);
    const bus = busId === null ? null : (vehicle ?? lookup(busId));
    const seen = busSeen(bus);
    const reason = ghostReason({ busId, departedAt: departed === null ? input.resumedAt : Math.max(departed, input.resumedAt), ...seen }, input.now, rule);
    if (!reason) {
      // Silent since before the outage and not yet for ghostAfterS after it: a ghost then, unknown now.
      if ((seen.lastLocatedAt ?? -Infinity) < input.resumedAt && ghostReason({ busId, departedAt: departed, ...seen }, input.now, rule)) input.onUndecided?.(`ghost|trip:${trip.tripId}`);
      continue;
    }
    const subject = tripSubject(trip, busId, busName);
    const why = reason === 'no-bus' ? 'runs with no bus' : reason === 'never-located' ? 'has a bus that was never located' : `has a bus not located for ${Math.round(input.ghostAfterS / 60)} min`;
    out.push({ rule: 'ghost', key: `ghost|trip:${trip.tripId}`, severity: SEVERITY.ghost, subject, figures: {}, message: `${named(subject)} ${why}.` });
  }
}

/** The fix against the trip's path, worked out once per fix and trip. */
function placed(input: RuleInput, v: Vehicle, f: TrackFix): TrackFix['route'] {
  const trip = v.trip;
  if (!trip || trip.routeId === null || f.tripId !== trip.tripId) return null;
  if (f.route !== undefined) return f.route;
  const stops = input.stopsByRoute.get(trip.routeId);
  const path = stops ? pathForTrip(stops, trip.direction) : null;
  if (!path?.ok) return null; // not cached: the route's stops may come later
  f.route = placeOnPath(path.path, f.lon, f.lat);
  return f.route;
}

/** A point against a trip's path, as the rules read it (lib/estimate's routeProgress, and the terminal segments). */
export function placeOnPath(path: RoutePath, lon: number, lat: number): NonNullable<TrackFix['route']> | null {
  const p = routeProgress(path, lon, lat);
  if (!p) return null;
  const cum = path.line.cum;
  const segments = cum.length - 1;
  // A path of three segments or more has terminal segments; a shorter one is judged whole.
  const terminal = segments >= 3 && (p.alongM < cum[1]! || p.alongM > cum[segments - 1]!);
  return { alongM: p.alongM, offM: p.offM, beyondM: p.beyondM, lengthM: path.line.lengthM, terminal };
}

/** off-route: fixes in a row that open it, and fixes in a row back on the route that clear it (its hysteresis). */
export const OFF_ROUTE_FIXES = 2;
/**
 * A suspect's next fix is asked for while its off fix is at most this old (GPS time): a bus whose GPS went silent
 * after one fix off its route would otherwise hold a watch, and location slots, for nothing.
 */
const SUSPECT_WATCH_MS = 120_000;
/** A fix's reported accuracy counts up to this much on top of ALERT_OFF_ROUTE_M. */
const MAX_ACCURACY_M = 100;

/**
 * Whether a placed fix is off its route, on it, or neither. Off: beyond ALERT_OFF_ROUTE_M and its own GPS accuracy
 * past the line's allowance, away from the terminal segments (a turnaround loop at a terminal is not drawn by the
 * stop-to-stop line: on the Manhattan network the M79-SBS's eastern loop runs 490 m beyond it). On: within
 * ALERT_OFF_ROUTE_M of the line itself, without the allowance (or on a terminal segment). The gap between the two is
 * the rule's hysteresis in space: a bus 500 m off a route with long segments between stops comes within the
 * allowance now and then, and is not thereby back on its route.
 */
export function offRouteVerdict(route: NonNullable<TrackFix['route']>, accuracy: number | null | undefined, offRouteM: number): 'beyond' | 'within' | 'neither' {
  if (route.terminal || route.offM <= offRouteM) return 'within';
  if (route.beyondM <= offRouteM) return 'neither';
  return route.beyondM > offRouteM + Math.min(MAX_ACCURACY_M, Math.max(0, accuracy ?? 0)) ? 'beyond' : 'neither';
}

const OFF_ROUTE_CLEAR: OffRouteState = { beyondRun: 0, withinRun: 0, on: false, beyondM: 0 };

/**
 * The off-route state after the newest fix, worked out once per fix from the one before (fixes are only appended):
 * it holds from OFF_ROUTE_FIXES fixes in a row beyond the route, and stops holding after as many back on it. A fix
 * of another trip starts again; one that cannot be placed yet (the route's stops not read) is left for later.
 */
function offRouteState(input: RuleInput, v: Vehicle, fixes: readonly TrackFix[]): OffRouteState {
  let i = fixes.length - 1;
  while (i >= 0 && fixes[i]!.offRoute === undefined) i--;
  let state = i >= 0 ? fixes[i]!.offRoute! : OFF_ROUTE_CLEAR;
  for (let j = i + 1; j < fixes.length; j++) {
    const f = fixes[j]!;
    if (f.tripId !== v.trip?.tripId) {
      f.offRoute = state = OFF_ROUTE_CLEAR;
      continue;
    }
    const route = placed(input, v, f);
    if (!route) return state;
    const verdict = offRouteVerdict(route, f.accuracy, input.thresholds.offRouteM);
    const beyondRun = verdict === 'beyond' ? state.beyondRun + 1 : 0;
    const withinRun = verdict === 'within' ? state.withinRun + 1 : 0;
    const on = state.on ? withinRun < OFF_ROUTE_FIXES : beyondRun >= OFF_ROUTE_FIXES;
    f.offRoute = state = { beyondRun, withinRun, on, beyondM: verdict === 'within' && !on ? 0 : route.beyondM };
  }
  return state;
}

const metres = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.hypot((a.lat - b.lat) * 111_320, (a.lon - b.lon) * 111_320 * Math.cos((a.lat * Math.PI) / 180));

function movementRules(input: RuleInput, out: Condition[]): void {
  const stoppedMs = input.thresholds.stoppedMin * 60_000;
  for (const v of input.snapshot.vehicles) {
    if (!v.trip) continue;
    const fixes = input.tracks.of(v.busId);
    const last = fixes[fixes.length - 1];
    // Fresh data only: the newest fix came after the last outage, on the trip the bus runs now.
    if (!last || last.fetchedAt < input.resumedAt) {
      input.onUndecided?.(`stopped|bus:${v.busId}`);
      input.onUndecided?.(`off-route|bus:${v.busId}`);
      continue;
    }
    if (last.tripId !== v.trip.tripId) continue;
    const trip = v.trip;
    const subjectOf = () => tripSubject(trip, v.busId, v.busName);

    const here = placed(input, v, last);
    const off = offRouteState(input, v, fixes);
    if (off.on) {
      const offRouteM = Math.round(off.beyondM);
      const subject = subjectOf();
      out.push({ rule: 'off-route', key: `off-route|bus:${v.busId}`, severity: SEVERITY['off-route'], subject, figures: { offRouteM }, message: `${named(subject)} is ${offRouteM} m off its route.` });
    } else if (off.beyondRun > 0 && input.now - last.gpsAt <= SUSPECT_WATCH_MS) input.onSuspect?.(v.busId);

    // Walk back over the fixes that lie within the radius of the newest one (once per newest fix).
    if (last.standingSince === undefined) {
      let anchor = last;
      for (let i = fixes.length - 2; i >= 0; i--) {
        const f = fixes[i]!;
        if (f.tripId !== last.tripId || metres(f, last) > STOPPED_RADIUS_M) break;
        anchor = f;
      }
      last.standingSince = anchor.gpsAt;
    }
    const stood = last.gpsAt - last.standingSince;
    // Standing since the oldest fix held (the server started, or the track began, while it stood): for how long is
    // not known yet.
    if (stood < stoppedMs && last.standingSince <= fixes[0]!.gpsAt) input.onUndecided?.(`stopped|bus:${v.busId}`);
    if (stood < stoppedMs || !here) continue;
    if (here.alongM < TERMINAL_M || here.alongM > here.lengthM - TERMINAL_M) continue;
    const stoppedMin = Math.round(stood / 60_000);
    const subject = subjectOf();
    out.push({ rule: 'stopped', key: `stopped|bus:${v.busId}`, severity: SEVERITY.stopped, subject, figures: { stoppedMin }, message: `${named(subject)} has not moved for ${stoppedMin} min.` });
  }
}

function headwayRules(input: RuleInput, out: Condition[]): void {
  for (const h of input.headways ?? []) {
    if (h.class === 'regular') continue;
    const subject: ExceptionSubject = { busId: h.busId, tripId: h.tripId, routeId: h.routeId, routeCode: h.routeCode, busName: null };
    const ratio = Math.round(h.ratio * 100) / 100;
    out.push({ rule: h.class, key: `${h.class}|trip:${h.tripId}`, severity: SEVERITY[h.class], subject, figures: { headwayRatio: ratio }, message: `${named(subject)} is ${h.class} (headway ${ratio} of the schedule's).` });
  }
}

function integrationRules(input: RuleInput, out: Condition[]): void {
  const h = input.snapshot.health;
  const add = (rule: ExceptionRule, message: string) => out.push({ rule, key: `${rule}|integration`, severity: SEVERITY[rule], subject: NO_SUBJECT, figures: {}, message });
  if (TROUBLE.has(h.state)) add('upstream', h.message ?? `The upstream is ${h.state}.`);
  if (h.budget.usedShare !== null && h.budget.usedShare >= 1) add('budget', "The key's whole per-minute request limit is spent.");
  if (input.recorder === 'failed' || input.recorder === 'behind') add('recorder', `History is not being recorded (${input.recorder}).`);
  if (h.coordination) add('coordination', 'This instance lost the coordination service (Redis): nobody refreshes the data.');
}

/** Every condition that holds now. While suppressed, only the integration rules are evaluated. */
export function evaluateRules(input: RuleInput): Condition[] {
  const out: Condition[] = [];
  integrationRules(input, out);
  if (suppressed(input.snapshot)) return out;
  const trips = activeTrips(input.snapshot);
  delayRules(input, trips, out);
  gpsLostRule(input, out);
  ghostRule(input, trips, out);
  movementRules(input, out);
  headwayRules(input, out);
  return out;
}
