import { describe, expect, it } from 'vitest';
import type { RecordedUpstreamError, UpstreamRecord } from '@/lib/model';
import { budgetSeries, errorsByKind, formatOffset, instanceSummary, recorderSummary, timezoneExplanation } from './integration';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const MIN = 60_000;

describe('the status page', () => {
  it('gives one zero-filled row per minute of the last hour, kinds by use', () => {
    const record: UpstreamRecord = {
      since: T0 - 10 * MIN,
      minutes: [
        { at: T0 - 2 * MIN, byKind: { busLocation: 200, activeTrips: 4 }, rateLimited429: 0, failed: 0 },
        { at: T0, byKind: { busLocation: 10, status: 1 }, rateLimited429: 2, failed: 3 },
      ],
      errors: [],
      transitions: [],
    };
    const s = budgetSeries(record, T0 + 30_000);
    expect(s.rows).toHaveLength(60);
    expect(s.rows.at(-1)).toEqual({ at: T0, busLocation: 10, activeTrips: 0, status: 1, rateLimited429: 2 });
    expect(s.rows.at(-2)).toEqual({ at: T0 - MIN, busLocation: 0, activeTrips: 0, status: 0, rateLimited429: 0 });
    expect(s.rows[0]!.at).toBe(T0 - 59 * MIN);
    expect(s.kinds).toEqual(['busLocation', 'activeTrips', 'status']);
    expect(s.totals).toEqual({ requests: 215, rateLimited429: 2, failed: 3 });
    expect(s.peak).toBe(204);
  });

  it('counts errors by kind of failure', () => {
    const e = (over: Partial<RecordedUpstreamError>): RecordedUpstreamError => ({ at: T0, status: 503, kind: 'http', message: 'x', correlationId: null, operation: 'busLocation', ...over });
    expect(errorsByKind([e({}), e({ status: 429 }), e({}), e({ kind: 'timeout', status: null })])).toEqual([
      { kind: 'HTTP 503', count: 2 },
      { kind: 'HTTP 429', count: 1 },
      { kind: 'timeout', count: 1 },
    ]);
  });

  it('says how the zone was decided and what runs beside the feed', () => {
    expect(timezoneExplanation({ zone: 'America/New_York', source: 'config', offsetMinutes: -300 })).toMatch(/PARTNER_TIMEZONE/);
    expect(timezoneExplanation({ zone: 'UTC-05:00', source: 'inferred', offsetMinutes: -300 })).toMatch(/Inferred/);
    expect(formatOffset(-300)).toBe('UTC−05:00');
    expect(formatOffset(330)).toBe('UTC+05:30');
    expect(recorderSummary(null)).toMatch(/^No recorder/);
    expect(recorderSummary({ state: 'recording', store: 'pglite', lagMs: 1500, pending: 3, lastWriteAt: T0, message: null })).toBe('recording · pglite · lag 1 s · 3 waiting');
    expect(instanceSummary(null)).toMatch(/^Single instance/);
    expect(instanceSummary({ role: 'follower', epoch: 7, instanceId: 'b', leaderId: 'a' })).toBe('follower · epoch 7 · instance b · leader a');
  });
});
