import { describe, expect, it } from 'vitest';
import type { Observation } from './events';
import { startTestFeed, stopAll } from './test-feed';

describe('Feed', () => {
  it('emits observations for fixes and trip delays', async () => {
    const { clock, feed } = startTestFeed({ buses: 10, onTrip: 6, limit: 600 });
    const seen: Observation[] = [];
    feed.events.on('observation', (o) => seen.push(o));
    await clock.advance(20_000);
    await stopAll(clock, feed);
    expect(seen.filter((o) => o.type === 'trip-delay').length).toBeGreaterThanOrEqual(6);
    expect(new Set(seen.filter((o) => o.type === 'location').map((o) => (o.type === 'location' ? o.busId : 0))).size).toBe(10);
  });
});
