import 'server-only';
import { healthSentence, type Health, type UpstreamState } from '@/lib/model';
import { percentile } from '@/lib/stats/percentile';
import type { FeedEvents, TypedEmitter } from './events';
import type { FinalTrips } from './final-trips';
import type { FleetState } from './fleet-state';
import { UNREACHABLE_AFTER_FAILURES, type UpstreamGateway } from './gateway';
import { FLOOR_WEIGHT_KMH, schedulerWeightKmh } from './location-scheduler';
import type { RateBudget } from './rate-budget';

// The feed's health as /api/status and every snapshot show it: the upstream's state and one sentence about it,
// the key's plan and capabilities, the budget, how fresh the positions are against the round-robin bound, and
// the final-trip lookups. A change of state is announced as a 'health' event when it is first seen: at the next
// upstream answer or the next report, whichever comes first.

/**
 * After an error the state stays degraded this long, so a passing fault is still seen on the status page
 * (FEED_DEGRADED_WINDOW_S sets another).
 */
export const DEGRADED_WINDOW_MS = 2 * 60_000;

export interface HealthSources {
  gateway: UpstreamGateway;
  budget: RateBudget;
  state: FleetState;
  finalTrips: FinalTrips;
  events: TypedEmitter<FeedEvents>;
  /** Sentences from rooms beside the feed (Feed.addHealthNote); the feed never knows who writes them. */
  notes?: () => string[];
  /** DEGRADED_WINDOW_MS unless configured. */
  degradedWindowMs?: number;
}

export class FeedHealth {
  private readonly gateway: UpstreamGateway;
  private readonly budget: RateBudget;
  private readonly state: FleetState;
  private lastState: UpstreamState = 'starting';

  constructor(private readonly s: HealthSources) {
    this.gateway = s.gateway;
    this.budget = s.budget;
    this.state = s.state;
    s.events.on('request', ({ at }) => this.check(at));
  }

  report(now: number): Health {
    const budget = this.budget.stats();
    const state = this.upstreamState(now, budget.pausedUntil);
    const message = this.message(state, now);
    this.announce(state, message, now);
    const status = this.gateway.status;
    return {
      state,
      message,
      lastSuccessAt: this.gateway.lastSuccessAt,
      lastError: this.gateway.lastError,
      plan: status?.plan ?? null,
      level: status?.level ?? null,
      scopes: status?.scopes ?? [],
      capabilities: this.gateway.capabilities,
      budget,
      freshness: this.freshness(now),
      finalTrips: { requestsLastHour: this.s.finalTrips.requestsLastHour(now), pending: this.s.finalTrips.size },
      notes: this.s.notes?.() ?? [],
      timezone: this.state.tz.health(now),
      ...this.restored(),
    };
  }

  /** While the data served is still what the store restored at start (no upstream answer has replaced it). */
  private restored(): Pick<Health, 'restoredFrom'> {
    const at = this.state.restoredFrom();
    return at !== null && (this.gateway.lastSuccessAt === null || this.state.tripsStillRestored) ? { restoredFrom: at } : {};
  }

  /** Announces a change of state, if there was one. */
  check(now: number): void {
    const state = this.upstreamState(now, this.budget.pausedUntil(now));
    if (state !== this.lastState) this.announce(state, this.message(state, now), now);
  }

  private announce(state: UpstreamState, message: string, now: number): void {
    if (state === this.lastState) return;
    const from = this.lastState;
    this.lastState = state;
    this.s.events.emit('health', { at: now, from, to: state, message });
  }

  private upstreamState(now: number, pausedUntil: number | null): Health['state'] {
    const g = this.gateway;
    if (g.authProblem) return g.authProblem;
    if (pausedUntil !== null) return 'rate-limited';
    if (g.consecutiveFailures >= UNREACHABLE_AFTER_FAILURES) return 'unreachable';
    if (!g.status) return g.lastError ? 'unreachable' : 'starting';
    if (g.lastError && now - g.lastError.at < (this.s.degradedWindowMs ?? DEGRADED_WINDOW_MS)) return 'degraded';
    return 'ok';
  }

  private message(state: Health['state'], now: number): string {
    const { lastError, capabilities } = this.gateway;
    return healthSentence({ state, lastError, capabilities }, now, true);
  }

  /**
   * The located buses' ages and scheduler weights, those on trips (all of them when none is): one pass over the
   * tracks into typed arrays, sorted natively. Made for every snapshot build, once a second: at 10,000 buses the
   * arrays of tracks, filters and comparator sorts it replaced were about 2 % of the server's main thread.
   */
  private freshness(now: number): Health['freshness'] {
    if (!this.gateway.capabilities.locations) return { meanAgeS: null, p95AgeS: null, boundS: null, trackedBuses: 0, weightsKmh: null };
    const tracks = this.state.tracks;
    let onTrip = 0;
    for (const t of tracks.values()) if (t.onTrip) onTrip++;
    const tracked = onTrip > 0 ? onTrip : tracks.size;
    const ageS = new Float64Array(tracked);
    const weightKmh = new Float64Array(tracked);
    let located = 0;
    for (const t of tracks.values()) {
      if ((onTrip > 0 && !t.onTrip) || t.fetchedAt === null || t.lat === null) continue;
      ageS[located] = (now - t.fetchedAt) / 1000;
      weightKmh[located++] = schedulerWeightKmh(t);
    }
    const ages = ageS.subarray(0, located).sort();
    let sum = 0;
    for (const a of ages) sum += a;
    const otherPolls = this.budget.sentLastMinute((kind, lane) => lane === 'poll' && kind !== 'busLocation');
    const locationPerMinute = Math.max(1, this.budget.pollPerMinute() - otherPolls);
    return {
      meanAgeS: located === 0 ? null : sum / located,
      p95AgeS: percentile(ages, 0.95),
      boundS: tracked === 0 ? null : (tracked / (2 * locationPerMinute)) * 60,
      trackedBuses: tracked,
      weightsKmh: weightSpread(weightKmh.subarray(0, located).sort()),
    };
  }
}

function weightSpread(w: Float64Array): Health['freshness']['weightsKmh'] {
  if (w.length === 0) return null;
  const at = (p: number) => percentile(w, p)!;
  let atSpeedFloor = 0;
  for (const x of w) if (x <= FLOOR_WEIGHT_KMH) atSpeedFloor++;
  return { buses: w.length, min: w[0]!, p25: at(0.25), median: at(0.5), p75: at(0.75), max: w[w.length - 1]!, atSpeedFloor };
}
