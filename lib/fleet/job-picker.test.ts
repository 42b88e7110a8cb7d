import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from './test-feed';

describe('JobPicker', () => {
  it('locates a newly watched bus within two pacing slots', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 300, onTrip: 250, limit: 300 });
    await clock.advance(3 * MINUTE);
    for (const offset of [0, 7_000, 13_000, 29_000]) {
      await clock.advance(offset);
      // The freshest bus on a trip is the one the scheduler would least want next.
      const snapshot = feed.liveSnapshot().snapshot;
      const freshest = snapshot.vehicles.filter((v) => v.trip && v.fetchedAt !== null).sort((a, b) => b.fetchedAt! - a.fetchedAt!)[0]!;
      const from = clock.now();
      expect(feed.watch(freshest.busId)).toBe(true);
      await clock.advance(10_000);
      const next = upstream.calls.filter((c) => c.at >= from).sort((a, b) => a.at - b.at);
      const slot = next.findIndex((c) => c.op === 'busLocation' && c.id === freshest.busId);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(2);
    }
    await stopAll(clock, feed);
  });
});
