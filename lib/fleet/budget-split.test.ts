import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

// The list walks' share of the poller's requests adapts to the fleet: a small fleet's walks keep their configured
// intervals, a large fleet's walks stretch so that bus locations keep at least 70 % of the feed's requests.
async function split(buses: number, onTrip: number, limit: number) {
  const { clock, upstream, feed } = startTestFeed({ buses, onTrip, limit, latencyMs: 0 });
  // Start-up walks every list and loads stops; measure the steady state after it.
  await clock.advance(6 * MINUTE);
  const from = clock.now();
  await clock.advance(6 * MINUTE);
  await stopAll(clock, feed);
  const calls = upstream.calls.filter((c) => c.at >= from);
  const count = (op: string) => calls.filter((c) => c.op === op).length;
  const walkStarts = calls.filter((c) => c.op === 'activeTrips' && c.page === 1).map((c) => c.at);
  const gaps = walkStarts.slice(1).map((at, i) => at - walkStarts[i]!);
  return { total: calls.length, locations: count('busLocation'), trips: count('activeTrips'), meanWalkGapMs: gaps.reduce((a, b) => a + b, 0) / gaps.length };
}

describe('the budget split', () => {
  it('keeps the configured 15 s trips walk for the default fleet', async () => {
    const s = await split(855, 560, 240);
    expect(s.meanWalkGapMs).toBeGreaterThanOrEqual(15_000);
    expect(s.meanWalkGapMs).toBeLessThan(17_000);
  });

  it('gives bus locations at least 70 % of the requests at 10,000 buses', async () => {
    const s = await split(10_000, 6_700, 1_200);
    expect(s.total).toBeGreaterThan(0);
    expect(s.locations / s.total).toBeGreaterThanOrEqual(0.7);
    // The walk stretched rather than stopping: it still runs about every half minute.
    expect(s.meanWalkGapMs).toBeGreaterThan(15_000);
    expect(s.meanWalkGapMs).toBeLessThan(45_000);
  });
});
