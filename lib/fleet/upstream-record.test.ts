import { describe, expect, it } from 'vitest';
import type { UpstreamError } from '@/lib/model';
import { TypedEmitter, type FeedEvents } from './events';
import { UpstreamRecorder } from './upstream-record';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const MIN = 60_000;

function setup() {
  const events = new TypedEmitter<FeedEvents>();
  return { events, recorder: new UpstreamRecorder(events) };
}

const err = (at: number, over: Partial<UpstreamError> = {}): UpstreamError => ({ at, status: 503, kind: 'http', message: 'down', correlationId: 'c-1', ...over });

describe('UpstreamRecorder', () => {
  it('counts requests per clock minute by kind, with 429s and failures', () => {
    const { events, recorder } = setup();
    events.emit('request', { at: T0 + 1_000, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    events.emit('request', { at: T0 + 59_999, kind: 'busLocation', lane: 'poll', status: 200, ok: true });
    events.emit('request', { at: T0 + 30_000, kind: 'activeTrips', lane: 'poll', status: 429, ok: false, error: err(T0 + 30_000, { status: 429 }) });
    events.emit('request', { at: T0 + MIN, kind: 'trip', lane: 'demand', status: null, ok: false, error: err(T0 + MIN, { status: null, kind: 'timeout' }) });
    const r = recorder.record(T0 + MIN + 5_000);
    expect(r.minutes).toEqual([
      { at: T0, byKind: { busLocation: 2, activeTrips: 1 }, rateLimited429: 1, failed: 1 },
      { at: T0 + MIN, byKind: { trip: 1 }, rateLimited429: 0, failed: 1 },
    ]);
    expect(r.since).toBe(T0 + 1_000);
  });

  it('keeps only the last hour of minutes', () => {
    const { events, recorder } = setup();
    for (let i = 0; i < 90; i++) events.emit('request', { at: T0 + i * MIN, kind: 'status', lane: 'poll', status: 200, ok: true });
    const now = T0 + 89 * MIN + 10_000;
    const r = recorder.record(now);
    expect(r.minutes).toHaveLength(60);
    expect(r.minutes[0]!.at).toBe(T0 + 30 * MIN);
    expect(r.minutes.at(-1)!.at).toBe(T0 + 89 * MIN);
    expect(r.since).toBe(T0 + 30 * MIN);
  });

  it('lists errors newest first with their operation and correlation id, bounded, 404s left out', () => {
    const { events, recorder } = setup();
    events.emit('request', { at: T0, kind: 'trip', lane: 'demand', status: 404, ok: false, error: err(T0, { status: 404 }) });
    for (let i = 1; i <= 120; i++) {
      events.emit('request', { at: T0 + i * 100, kind: 'busLocation', lane: 'poll', status: 503, ok: false, error: err(T0 + i * 100, { correlationId: `c-${i}` }) });
    }
    const r = recorder.record(T0 + 20_000);
    expect(r.errors).toHaveLength(100);
    expect(r.errors[0]).toMatchObject({ operation: 'busLocation', correlationId: 'c-120', status: 503 });
    expect(r.errors.some((e) => e.status === 404)).toBe(false);
    // The minute still counts the 404 as a failed request.
    expect(r.minutes[0]!.failed).toBe(121);
  });

  it('keeps the health transitions of the last hour in order', () => {
    const { events, recorder } = setup();
    events.emit('health', { at: T0, from: 'starting', to: 'ok', message: 'Live data is flowing.' });
    events.emit('health', { at: T0 + 70 * MIN, from: 'ok', to: 'degraded', message: 'Some failed.' });
    events.emit('health', { at: T0 + 72 * MIN, from: 'degraded', to: 'ok', message: 'Live data is flowing.' });
    const r = recorder.record(T0 + 75 * MIN);
    expect(r.transitions.map((t) => t.to)).toEqual(['degraded', 'ok']);
  });
});
