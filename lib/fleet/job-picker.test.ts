import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

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
      expect(feed.watch(freshest.busId, 'dispatcher')).toBe(true);
      await clock.advance(10_000);
      const next = upstream.calls.filter((c) => c.at >= from).sort((a, b) => a.at - b.at);
      const slot = next.findIndex((c) => c.op === 'busLocation' && c.id === freshest.busId);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(2);
    }
    await stopAll(clock, feed);
  });
});

describe('a watch flood', () => {
  // 240 slots a minute; 40 clients each open a new bus every second: ten times more new watches than slots.
  async function run(flood: boolean) {
    const { clock, upstream, feed } = startTestFeed({ buses: 300, onTrip: 250, limit: 300, latencyMs: 0 });
    await clock.advance(MINUTE);
    const from = clock.now();
    let accepted = 0;
    for (let s = 0; s < 180; s++) {
      if (flood) for (let c = 0; c < 40; c++) if (feed.watch(1 + ((s * 40 + c) % 300), `client-${c}`)) accepted++;
      await clock.advance(1_000);
    }
    const health = feed.health();
    await stopAll(clock, feed);
    const calls = upstream.calls.filter((c) => c.at >= from);
    return { accepted, health, walks: calls.filter((c) => c.op === 'activeTrips').length, locations: calls.filter((c) => c.op === 'busLocation').length };
  }

  it('cannot starve the list walks or the fleet: watched buses take at most every other slot, on every path', async () => {
    const quiet = await run(false);
    const flooded = await run(true);
    expect(flooded.accepted).toBeGreaterThan(0);
    // The trips walk keeps its 15 s interval (three pages each).
    expect(flooded.walks).toBeGreaterThanOrEqual(quiet.walks - 3);
    expect(flooded.locations).toBeGreaterThanOrEqual(quiet.locations - 10);
    // Half the slots still go to the fleet: the mean age of buses on trips at most about doubles (a turn over
    // 250 buses takes twice as long), where new watches on every slot would leave the fleet unrefreshed.
    expect(flooded.health.freshness.meanAgeS!).toBeLessThan(2.5 * quiet.health.freshness.meanAgeS!);
  });

  it('holds each client to a few buses and the feed to a bounded total', async () => {
    const { clock, feed } = startTestFeed({ buses: 300, onTrip: 250, limit: 300, latencyMs: 0 });
    await clock.advance(MINUTE);
    const answers = Array.from({ length: 100 }, (_, i) => feed.watch(i + 1, `client-${i}`));
    expect(answers.filter(Boolean).length).toBe(12);
    await stopAll(clock, feed);
  });
});
