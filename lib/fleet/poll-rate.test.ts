import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT } from './in-flight';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

// The poller sends its whole share whatever the answers' latency: 10,000 buses, a 67-page /trips/active walk and a
// 100-page bus list on a 1,200/min key (960/min for the poller), answers taking 50 to 400 ms on the fake clock. The
// walks' pages go out on slots beside the locations, and the cap on requests in flight follows the latency, so no
// slot is left unused while an answer is awaited; the budget still holds the share in every 60 s window.

const LIMIT = 1_200;
const NOMINAL = 0.8 * LIMIT;
const BUSES = 10_000;
const ON_TRIP = 6_700;

async function run(latencyMs: number, minutes = 3) {
  const { clock, upstream, feed } = startTestFeed({ buses: BUSES, onTrip: ON_TRIP, limit: LIMIT, latencyMs });
  const walkedAt: number[] = [];
  feed.events.on('trips', (e) => walkedAt.push(e.fetchedAt));
  // Start-up (every list walked once, the fleet located once); measure the steady state after it.
  await clock.advance(3 * MINUTE);
  const from = clock.now();
  await clock.advance(minutes * MINUTE);
  const to = clock.now();
  await stopAll(clock, feed);
  const calls = upstream.calls.filter((c) => c.at >= from && c.at < to);
  const times = calls.map((c) => c.at).sort((a, b) => a - b);
  // Fewest requests in any whole minute of the measured span, a window every 5 s.
  let leastInAMinute = Number.POSITIVE_INFINITY;
  for (let t = from; t + MINUTE <= to; t += 5_000) leastInAMinute = Math.min(leastInAMinute, times.filter((at) => at >= t && at < t + MINUTE).length);
  const count = (op: string) => calls.filter((c) => c.op === op).length;
  return {
    upstream,
    perMinute: calls.length / minutes,
    leastInAMinute,
    locationShare: count('busLocation') / calls.length,
    tripsPages: count('activeTrips'),
    walksStarted: calls.filter((c) => c.op === 'activeTrips' && c.page === 1).length,
    walksCompleted: walkedAt.filter((at) => at >= from && at < to).length,
  };
}

describe('the poller at 10,000 buses', () => {
  for (const latencyMs of [50, 150, 400]) {
    it(`sends at least 95 % of its share in every minute with ${latencyMs} ms answers and a 67-page walk, never past it, locations keeping 70 %`, async () => {
      const r = await run(latencyMs);
      expect(r.perMinute).toBeGreaterThanOrEqual(0.95 * NOMINAL);
      expect(r.leastInAMinute).toBeGreaterThanOrEqual(0.95 * NOMINAL);
      // The budget's invariant: never more than share·L in any 60 s window (start-up included), no 429.
      expect(r.upstream.maxInAnyMinute()).toBeLessThanOrEqual(NOMINAL);
      expect(r.upstream.calls.filter((c) => c.status === 429)).toEqual([]);
      // The split: locations at least 70 % of what was sent, the walks still walking and completing.
      expect(r.locationShare).toBeGreaterThanOrEqual(0.7);
      expect(r.tripsPages).toBeGreaterThanOrEqual(3 * 67);
      expect(r.walksCompleted).toBeGreaterThanOrEqual(r.walksStarted - 1);
    });
  }

  it('keeps as many requests out as slow answers need, never more than the ceiling', async () => {
    // 3 s answers: 960/min would need 48 out at once; the ceiling holds it to MAX_IN_FLIGHT. (2,000 buses: their
    // 20-page list, read one page after the other, is walked within the first minute.)
    const latencyMs = 3_000;
    const { clock, upstream, feed } = startTestFeed({ buses: 2_000, onTrip: 1_500, limit: LIMIT, latencyMs });
    await clock.advance(3 * MINUTE);
    await stopAll(clock, feed);
    // A request is out from its send until latencyMs later.
    const sends = upstream.calls.map((c) => c.at).sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, from = 0; i < sends.length; i++) {
      while (sends[i]! - sends[from]! >= latencyMs) from++;
      most = Math.max(most, i - from + 1);
    }
    expect(most).toBe(MAX_IN_FLIGHT);
    expect(upstream.maxInAnyMinute()).toBeLessThanOrEqual(NOMINAL);
  });
});
