import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from './test-feed';

describe('SnapshotBuilder', () => {
  it('with a standard key reports no location capability, sends no location request and lists every trip as unpositioned', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 30, onTrip: 20, limit: 120, level: 'standard', scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] });
    await clock.advance(2 * MINUTE);
    const { snapshot } = feed.liveSnapshot();
    await stopAll(clock, feed);
    expect(upstream.count('busLocation')).toBe(0);
    expect(snapshot.health.capabilities).toEqual({ buses: true, routes: true, stops: true, trips: true, locations: false });
    expect(snapshot.health.state).toBe('ok');
    expect(snapshot.health.message).toMatch(/gps:read/);
    expect(snapshot.unpositionedTrips).toHaveLength(20);
    expect(snapshot.vehicles).toHaveLength(30);
    expect(snapshot.vehicles.filter((v) => v.trip !== null)).toHaveLength(20);
  });
});
