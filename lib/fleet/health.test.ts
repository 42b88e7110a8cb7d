import { describe, expect, it } from 'vitest';
import type { PartnerStatus, UpstreamError } from '@/lib/model';
import { TypedEmitter, type FeedEvents, type HealthEvent } from './events';
import { FakeClock } from '@/lib/testing/fake-clock';
import { FinalTrips } from './final-trips';
import { FleetState } from './fleet-state';
import { UpstreamGateway, capabilitiesOf } from './gateway';
import { FeedHealth } from './health';
import { RateBudget } from './rate-budget';
import { FeedTimezone } from './timezone';

const BUSINESS: PartnerStatus = { plan: 'API Business', level: 'business', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read', 'gps:read'], rateLimitPerMinute: 600 };

function setup(degradedWindowMs?: number) {
  const clock = new FakeClock();
  const budget = new RateBudget({ clock, share: 0.8 });
  const tz = new FeedTimezone(null);
  const state = new FleetState(tz);
  const events = new TypedEmitter<FeedEvents>();
  const gateway = new UpstreamGateway({
    clock,
    budget,
    makeClient: () => {
      throw new Error('no upstream in this test');
    },
    timeRule: tz.rule,
    tripsIntervalMs: 15_000,
    log: () => {},
    events,
  });
  const connect = (status = BUSINESS) => {
    gateway.status = status;
    gateway.capabilities = capabilitiesOf(status);
    budget.setLimit(status.rateLimitPerMinute);
  };
  const finalTrips = new FinalTrips(() => {});
  return { clock, budget, state, gateway, connect, events, health: new FeedHealth({ gateway, budget, state, finalTrips, events, degradedWindowMs }) };
}

const error = (at: number, over: Partial<UpstreamError> = {}): UpstreamError => ({ at, status: 503, kind: 'http', message: 'Service temporarily unavailable', correlationId: null, ...over });

describe('FeedHealth', () => {
  it('is starting before any answer, and unreachable when the first answers failed', () => {
    const { clock, gateway, health } = setup();
    expect(health.report(clock.now())).toMatchObject({ state: 'starting', message: 'Connecting to the upstream API.', plan: null, scopes: [] });
    gateway.lastError = error(clock.now(), { kind: 'network', status: null, message: 'ECONNREFUSED.' });
    expect(health.report(clock.now()).state).toBe('unreachable');
  });

  it('turns unreachable after three failures in a row, naming unreadable answers as such', () => {
    const { clock, gateway, connect, health } = setup();
    connect();
    gateway.lastError = error(clock.now(), { kind: 'contract', status: 200, message: 'data.items.0.id is missing.' });
    gateway.consecutiveFailures = 2;
    expect(health.report(clock.now()).state).toBe('degraded');
    gateway.consecutiveFailures = 3;
    expect(health.report(clock.now())).toMatchObject({
      state: 'unreachable',
      message: 'The upstream API answers with data that cannot be read (data.items.0.id is missing.); retrying with backoff.',
    });
  });

  it('stays degraded for two minutes after an error, then is ok', () => {
    const { clock, gateway, connect, health } = setup();
    connect();
    gateway.lastError = error(clock.now());
    const at = clock.now();
    expect(health.report(at + 30_000)).toMatchObject({
      state: 'degraded',
      message: 'Some upstream requests failed 30 s ago (Service temporarily unavailable); data is still flowing.',
    });
    expect(health.report(at + 2 * 60_000 - 1).state).toBe('degraded');
    expect(health.report(at + 2 * 60_000)).toMatchObject({ state: 'ok', message: 'Live data is flowing.' });
  });

  it('stays degraded for the configured window instead when one is set', () => {
    const { clock, gateway, connect, health } = setup(20_000);
    connect();
    gateway.lastError = error(clock.now());
    const at = clock.now();
    expect(health.report(at + 20_000 - 1).state).toBe('degraded');
    expect(health.report(at + 20_000).state).toBe('ok');
  });

  it('says what a key without gps:read cannot do, and reports no freshness for it', () => {
    const { clock, connect, health } = setup();
    connect({ ...BUSINESS, plan: 'API Standard', level: 'standard', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] });
    const h = health.report(clock.now());
    expect(h.message).toBe(
      'Live data is flowing; this key cannot read locations. Bus positions need gps:read on the API Business plan; trips are listed without positions.',
    );
    expect(h.freshness).toEqual({ meanAgeS: null, p95AgeS: null, boundS: null, trackedBuses: 0, weightsKmh: null });
  });

  it('keeps saying what a key without gps:read cannot do while a later error keeps it degraded', () => {
    const { clock, gateway, connect, health } = setup();
    connect({ ...BUSINESS, plan: 'API Standard', level: 'standard', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] });
    gateway.lastError = error(clock.now());
    expect(health.report(clock.now() + 5_000).message).toBe(
      'Some upstream requests failed 5 s ago (Service temporarily unavailable); data is still flowing; this key cannot read locations. Bus positions need gps:read on the API Business plan; trips are listed without positions.',
    );
  });

  it('measures the age of positioned buses on trips against B/(2L)', () => {
    const { clock, state, connect, health } = setup();
    connect();
    const now = clock.now();
    for (const [busId, ageS, onTrip, travelSpeedKmh] of [
      [1, 10, true, 5],
      [2, 20, true, 20],
      [3, 30, true, 1],
      [4, 500, false, 0],
    ] as const) {
      Object.assign(state.track(busId), { fetchedAt: now - ageS * 1000, lat: 40.7, lon: -74, onTrip, travelSpeedKmh });
    }
    // Three buses on trips and 480 location slots a minute: B/(2L) = 3/960 min. Weights: speed (floor 3 km/h)
    // plus the scheduler's 10 km/h prior.
    expect(health.report(now).freshness).toEqual({
      meanAgeS: 20,
      p95AgeS: 29,
      boundS: (3 / 960) * 60,
      trackedBuses: 3,
      weightsKmh: { buses: 3, min: 13, p25: 14, median: 15, p75: 22.5, max: 30, atSpeedFloor: 1 },
    });
  });

  it('announces each change of state once, with the message after it', () => {
    const { clock, gateway, connect, events, health } = setup();
    const seen: HealthEvent[] = [];
    events.on('health', (e) => seen.push(e));
    const t0 = clock.now();
    health.report(t0);
    connect();
    health.check(t0 + 1);
    health.report(t0 + 2);
    gateway.authProblem = 'unauthorized';
    health.check(t0 + 3);
    health.check(t0 + 4);
    gateway.authProblem = null;
    // A request answered brings the news as well as a report does.
    events.emit('request', { at: t0 + 5, kind: 'status', lane: 'poll', status: 200, ok: true });
    expect(seen).toEqual([
      { at: t0 + 1, from: 'starting', to: 'ok', message: 'Live data is flowing.' },
      { at: t0 + 3, from: 'ok', to: 'unauthorized', message: 'The upstream API rejected the API key (401); the key is re-checked periodically.' },
      { at: t0 + 5, from: 'unauthorized', to: 'ok', message: 'Live data is flowing.' },
    ]);
  });
});
