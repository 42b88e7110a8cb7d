import { describe, expect, it } from 'vitest';
import { ACCOUNT_POLICY, ADDRESS_POLICY, delayAfter, waitMs } from './throttle';

describe('sign-in throttling', () => {
  it('lets the free failures through, then doubles the wait after each further one, up to the cap', () => {
    const waits = Array.from({ length: 16 }, (_, i) => delayAfter(i + 1, ACCOUNT_POLICY));
    expect(waits.slice(0, 6)).toEqual([0, 0, 0, 1000, 2000, 4000]);
    expect(waits.at(-1)).toBe(ACCOUNT_POLICY.maxDelayMs);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    // An address shared by an office waits later than one account.
    expect(delayAfter(ACCOUNT_POLICY.free + 1, ADDRESS_POLICY)).toBe(0);
  });

  it('the wait ends on time', () => {
    const t0 = new Date('2026-03-04T10:00:00Z');
    const row = { key: 'k', failures: 5, lastFailureAt: t0, blockedUntil: new Date(t0.getTime() + 2000) };
    expect(waitMs(row, t0)).toBe(2000);
    expect(waitMs(row, new Date(t0.getTime() + 1500))).toBe(500);
    expect(waitMs(row, new Date(t0.getTime() + 2000))).toBe(0);
    expect(waitMs(null, t0)).toBe(0);
  });
});
