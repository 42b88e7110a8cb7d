import { describe, expect, it } from 'vitest';
import { defaultRetryable, isPartnerError, parseRetryAfter, PartnerError, toUpstreamError, truncateForMessage } from './errors';

const NOW = Date.UTC(2025, 0, 15, 12);

describe('parseRetryAfter', () => {
  it('reads integer seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads an HTTP-date as seconds from now, rounded up, never negative', () => {
    expect(parseRetryAfter('Wed, 15 Jan 2025 12:00:30 GMT', NOW)).toBe(30);
    expect(parseRetryAfter(new Date(NOW + 1500).toUTCString(), NOW + 500)).toBe(1);
    expect(parseRetryAfter('Wed, 15 Jan 2025 11:00:00 GMT', NOW)).toBe(0);
  });

  it('gives null for an absent or unreadable header', () => {
    for (const v of [null, '', '-3', '1.5', 'soon', 'Wed, 99 Foo 2025 99:00:00 GMT']) expect(parseRetryAfter(v, NOW), String(v)).toBeNull();
  });
});

describe('PartnerError', () => {
  it('defaults retryable by kind and status', () => {
    expect([401, 403, 404, 400].map((s) => defaultRetryable('http', s))).toEqual([false, false, false, false]);
    expect([429, 500, 502, 503].map((s) => defaultRetryable('http', s))).toEqual([true, true, true, true]);
    expect([defaultRetryable('timeout', null), defaultRetryable('network', null), defaultRetryable('contract', 200)]).toEqual([true, true, false]);
  });

  it('serializes its fields and maps to the app model', () => {
    const e = new PartnerError({ kind: 'http', status: 503, message: 'HTTP 503 from /buses', operation: 'listBuses', path: '/buses', correlationId: 'c1' });
    expect(isPartnerError(e)).toBe(true);
    expect(isPartnerError(new Error('x'))).toBe(false);
    expect(e).toBeInstanceOf(Error);
    expect(JSON.parse(JSON.stringify(e))).toMatchObject({ name: 'PartnerError', message: 'HTTP 503 from /buses', retryable: true, field: null, retryAfterS: null });
    expect(toUpstreamError(e, NOW)).toEqual({ at: NOW, status: 503, kind: 'http', message: 'HTTP 503 from /buses', correlationId: 'c1' });
  });

  it('truncates quoted text', () => {
    expect(truncateForMessage('a'.repeat(10))).toBe('a'.repeat(10));
    expect(truncateForMessage('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
  });
});
