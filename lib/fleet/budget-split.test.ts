import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

// The list walks' and final lookups' share of the poller's requests adapts to the fleet: a small fleet's walks keep
// their configured intervals, a large fleet's walks stretch and its final lookups yield, so that bus locations keep
// at least 70 % of the requests the feed actually sends, also when it sends fewer than its key allows.

interface Fleet {
  buses: number;
  /** Trips listed by /trips/active at steady state. */
  activeTrips: number;
  limit: number;
  latencyMs?: number;
  /** Trips that end after the first minute, each waiting for its final lookup (someone listens for 'trip-final'). */
  endedTrips?: number;
}

async function split({ buses, activeTrips, limit, latencyMs = 0, endedTrips = 0 }: Fleet) {
  // When each complete trips walk was applied.
  const walkedAt: number[] = [];
  const { clock, upstream, feed } = startTestFeed(
    { buses, onTrip: activeTrips + endedTrips, limit, latencyMs },
    {
      beforeStart: (f) => {
        f.events.on('trips', (e) => walkedAt.push(e.fetchedAt));
        if (endedTrips > 0) f.events.on('trip-final', () => {});
      },
    },
  );
  await clock.advance(MINUTE);
  for (let id = 1; id <= endedTrips; id++) upstream.finishedTrips.add(id);
  // Start-up walks every list and loads stops; measure the steady state after it.
  await clock.advance(5 * MINUTE);
  const from = clock.now();
  const minutes = 6;
  await clock.advance(minutes * MINUTE);
  await stopAll(clock, feed);
  const calls = upstream.calls.filter((c) => c.at >= from);
  const count = (op: string) => calls.filter((c) => c.op === op).length;
  const walkStarts = calls.filter((c) => c.op === 'activeTrips' && c.page === 1).map((c) => c.at);
  const gaps = walkStarts.slice(1).map((at, i) => at - walkStarts[i]!);
  return {
    total: calls.length,
    perMinute: calls.length / minutes,
    locations: count('busLocation'),
    finalLookups: count('trip'),
    walksStarted: walkStarts.length,
    walksCompleted: walkedAt.filter((at) => at >= from).length,
    meanWalkGapMs: gaps.reduce((a, b) => a + b, 0) / gaps.length,
  };
}

/**
 * A 10,000-bus run simulates 12 minutes of the poller: about 11,000 slots, each a pass of the location scheduler over
 * every track. It is CPU-bound and took over 120 s (the default limit) beside the browser tests on a slow day; the limit
 * only guards against a hang.
 */
const LARGE_FLEET_TIMEOUT_MS = 600_000;

describe('the budget split', () => {
  it('keeps the configured 15 s trips walk for the default fleet', async () => {
    const s = await split({ buses: 855, activeTrips: 560, limit: 240 });
    expect(s.meanWalkGapMs).toBeGreaterThanOrEqual(15_000);
    expect(s.meanWalkGapMs).toBeLessThan(17_000);
  });

  it('gives bus locations at least 70 % of the requests at 10,000 buses', async () => {
    const s = await split({ buses: 10_000, activeTrips: 6_700, limit: 1_200 });
    expect(s.total).toBeGreaterThan(0);
    expect(s.locations / s.total).toBeGreaterThanOrEqual(0.7);
    // The walk stretched rather than stopping: it still runs about every half minute.
    expect(s.meanWalkGapMs).toBeGreaterThan(15_000);
    expect(s.meanWalkGapMs).toBeLessThan(45_000);
  }, LARGE_FLEET_TIMEOUT_MS);

  it('holds locations to at least 70 % of the requests sent at rush hour, with final lookups queued, sending the whole share', async () => {
    // 6,700 active trips (67 pages), 3,000 trips ended and waiting for their lookup, answers in 150 ms: the walk's
    // pages go out beside the locations, so the poller sends its nominal 960 a minute (0.8 × 1,200).
    const nominal = 0.8 * 1_200;
    const s = await split({ buses: 10_000, activeTrips: 6_700, limit: 1_200, latencyMs: 150, endedTrips: 3_000 });
    expect(s.perMinute).toBeGreaterThanOrEqual(0.95 * nominal);
    expect(s.perMinute).toBeLessThanOrEqual(nominal);
    expect(s.locations / s.total).toBeGreaterThanOrEqual(0.7);
    // Final lookups yield, but still go: what the lists leave under the cap.
    expect(s.finalLookups).toBeGreaterThan(0);
    // The walk takes its 15 % of the requests sent, so it runs about every 28 s (67 pages at 0.15 of 960 a
    // minute), and every walk started completes.
    expect(s.meanWalkGapMs).toBeGreaterThan(25_000);
    expect(s.meanWalkGapMs).toBeLessThan(45_000);
    expect(s.walksCompleted).toBeGreaterThanOrEqual(s.walksStarted - 1);
  }, LARGE_FLEET_TIMEOUT_MS);

  it('holds locations to at least 70 % of the requests sent when answers are so slow that fewer go out than the key allows', async () => {
    // 1.5 s answers: 960 a minute would need 24 requests out at once, the poller keeps at most 16 (in-flight.ts),
    // so about 640 a minute go out; the lists' and final lookups' paces follow what is sent.
    const nominal = 0.8 * 1_200;
    const s = await split({ buses: 10_000, activeTrips: 6_700, limit: 1_200, latencyMs: 1_500, endedTrips: 3_000 });
    expect(s.perMinute).toBeLessThan(0.9 * nominal);
    expect(s.locations / s.total).toBeGreaterThanOrEqual(0.7);
    expect(s.finalLookups).toBeGreaterThan(0);
    expect(s.walksCompleted).toBeGreaterThanOrEqual(s.walksStarted - 1);
  }, LARGE_FLEET_TIMEOUT_MS);
});
