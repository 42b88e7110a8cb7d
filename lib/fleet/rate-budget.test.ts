import { describe, expect, it } from 'vitest';
import { PartnerError } from '@/lib/partner';
import { FakeClock } from '@/lib/testing/fake-clock';
import type { Clock } from './clock';
import { BudgetUnavailableError, MAX_POLL_CATCH_UP_MS, RateBudget } from './rate-budget';

function budget(share = 0.5, limit = 60) {
  const clock = new FakeClock(0);
  const b = new RateBudget({ clock, share, random: () => 0.5 });
  b.setLimit(limit);
  return { clock, b };
}

/** Acquires n poll slots back to back and returns when each was granted. */
async function pollTimes(clock: FakeClock, b: RateBudget, n: number): Promise<number[]> {
  const times: number[] = [];
  const run = (async () => {
    for (let i = 0; i < n; i++) {
      await b.acquire('busLocation', 'poll');
      times.push(clock.now());
    }
  })();
  while (times.length < n) await clock.advance(100);
  await run;
  return times;
}

const http = (status: number, retryAfterS: number | null = null) =>
  new PartnerError({ kind: 'http', status, message: `HTTP ${status}`, operation: 'busLocation', path: '/buses/1/location', retryAfterS });

describe('RateBudget', () => {
  it('spaces the poller evenly at 60/(share·L) s', async () => {
    const { clock, b } = budget(0.5, 60);
    const times = await pollTimes(clock, b, 5);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([2000, 2000, 2000, 2000]);
  });

  it('lets on-demand calls use the headroom but never the whole limit in a window', async () => {
    const { clock, b } = budget(0.5, 10);
    for (let i = 0; i < 10; i++) await b.acquire('trip', 'demand', { maxWaitMs: 0 });
    await expect(b.acquire('trip', 'demand', { maxWaitMs: 1_000 })).rejects.toBeInstanceOf(BudgetUnavailableError);
    await clock.advance(60_000);
    await expect(b.acquire('trip', 'demand', { maxWaitMs: 0 })).resolves.toBe(true);
  });

  it('pauses every lane until Retry-After after a 429', async () => {
    const { clock, b } = budget();
    b.noteResponse({ rateLimit: null, error: http(429, 7) });
    expect(b.readyAt('poll', clock.now())).toBe(7_000);
    expect(b.readyAt('demand', clock.now())).toBe(7_000);
    expect(b.stats()).toMatchObject({ rateLimited429: 1, pausedUntil: 7_000 });
    await expect(b.acquire('trip', 'demand', { maxWaitMs: 5_000 })).rejects.toMatchObject({ reason: 'rate-limited' });
  });

  it('backs the poller off exponentially on 5xx and resets on the next answer', () => {
    const { clock, b } = budget();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      b.noteResponse({ rateLimit: null, error: http(503) });
      waits.push(b.readyAt('poll', clock.now()) - clock.now());
    }
    // Equal jitter at random 0.5: three quarters of 1 s, 2 s, 4 s … capped at 60 s.
    expect(waits).toEqual([750, 1500, 3000, 6000, 12000, 24000, 45000, 45000]);
    expect(b.readyAt('demand', clock.now())).toBe(clock.now());
    b.noteResponse({ rateLimit: null, error: null });
    expect(b.readyAt('poll', clock.now())).toBe(clock.now());
  });

  it('slows the poller when meta.rate_limit says little is left before reset', async () => {
    const { clock, b } = budget(0.8, 60);
    // Someone else spends the same key: 5 left for the next 30 s, of which (1−0.8)·60·0.5 = 6 are headroom.
    b.noteResponse({ rateLimit: { limit: 60, remaining: 5, resetAt: 30_000, resetAtRaw: 30 }, error: null });
    expect(b.readyAt('poll', clock.now())).toBe(30_000);
    b.noteResponse({ rateLimit: { limit: 60, remaining: 16, resetAt: 30_000, resetAtRaw: 30 }, error: null });
    // 16 − 6 = 10 for 30 s: one every 3 s instead of every 1.25 s.
    const times = await pollTimes(clock, b, 3);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(3_000);
  });

  it('ignores a reset_at too far ahead to be a real window', () => {
    const { clock, b } = budget();
    b.noteResponse({ rateLimit: { limit: 60, remaining: 0, resetAt: 3_600_000, resetAtRaw: 3600 }, error: null });
    expect(b.readyAt('poll', clock.now())).toBe(clock.now());
  });

  it('keeps its rate when every timer fires late (a busy event loop), never past its share in any minute', async () => {
    const clock = new FakeClock(0);
    // Every sleep wakes 70 ms after it was due, as timers do on a loaded server; the poll slot is every 100 ms.
    const late: Clock = { now: () => clock.now(), sleep: (ms, signal) => clock.sleep(ms + 70, signal) };
    const b = new RateBudget({ clock: late, share: 0.5, random: () => 0.5 });
    b.setLimit(1_200);
    const times: number[] = [];
    const run = (async () => {
      while (clock.now() < 120_000) {
        await b.acquire('busLocation', 'poll');
        times.push(clock.now());
      }
    })();
    while (clock.now() < 120_000) await clock.advance(10);
    await clock.advance(1_000);
    await run;
    const inMinute = (from: number) => times.filter((t) => t >= from && t < from + 60_000).length;
    // A grid moved by each lateness would give 60 000 / 170 ≈ 353 a minute.
    expect(inMinute(60_000)).toBeGreaterThanOrEqual(595);
    for (const t of times) expect(inMinute(t)).toBeLessThanOrEqual(600);
  });

  it('makes up the slots of a stall shorter than MAX_POLL_CATCH_UP_MS at once, and none of a longer one', async () => {
    const { clock, b } = budget(0.5, 1_200);
    const grantedAtOnce = async () => {
      let n = 0;
      while (b.readyAt('poll', clock.now()) <= clock.now()) {
        await b.acquire('busLocation', 'poll');
        n++;
      }
      return n;
    };
    await b.acquire('busLocation', 'poll');
    // A stall of 0.8 s: the slots due at 100 … 800 ms go at once, then the grid again.
    await clock.advance(800);
    expect(await grantedAtOnce()).toBe(8);
    expect(b.readyAt('poll', clock.now())).toBe(clock.now() + 100);
    // Further behind than MAX_POLL_CATCH_UP_MS: one slot, and the grid starts anew from it.
    await clock.advance(MAX_POLL_CATCH_UP_MS + 500);
    expect(await grantedAtOnce()).toBe(1);
    expect(b.readyAt('poll', clock.now())).toBe(clock.now() + 100);
  });

  it('counts requests of the last minute by kind', async () => {
    const { clock, b } = budget(1, 600);
    await b.acquire('status', 'poll');
    await clock.advance(1_000);
    await b.acquire('trip', 'demand');
    expect(b.stats()).toMatchObject({ limit: 600, usedLastMinute: 2, share: 1, byKind: { status: 1, trip: 1 } });
    await clock.advance(60_000);
    expect(b.stats().usedLastMinute).toBe(0);
  });
});
