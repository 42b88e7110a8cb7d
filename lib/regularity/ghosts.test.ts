import { describe, expect, it } from 'vitest';
import { makeLiveHealth, makeSnapshot, makeTrip, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { ghostReason, ghostTrips } from './ghosts';

const RULE = { ghostAfterS: 300, locations: true };
const MIN = 60_000;

describe('ghostReason', () => {
  it('calls a trip with no bus a ghost, whatever else is known', () => {
    expect(ghostReason({ busId: null, lastLocatedAt: T0, departedAt: T0, checkedAt: T0 }, T0, RULE)).toBe('no-bus');
    expect(ghostReason({ busId: null, lastLocatedAt: null, departedAt: null, checkedAt: T0 }, T0, { ...RULE, locations: false })).toBe('no-bus');
  });

  it('counts the silence from the later of the last fix and the departure, up to GHOST_AFTER_S', () => {
    // Located 4:59 ago: not yet; 5:00 ago: a ghost.
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 299_000, departedAt: T0 - 20 * MIN, checkedAt: T0 }, T0, RULE)).toBeNull();
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 300_000, departedAt: T0 - 20 * MIN, checkedAt: T0 }, T0, RULE)).toBe('not-located');
    // A parked bus last polled an hour ago whose trip left two minutes ago has not been silent on this trip for long.
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 60 * MIN, departedAt: T0 - 2 * MIN, checkedAt: T0 }, T0, RULE)).toBeNull();
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 60 * MIN, departedAt: T0 - 6 * MIN, checkedAt: T0 }, T0, RULE)).toBe('not-located');
  });

  it('calls a bus that never gave a position a ghost once its trip has run GHOST_AFTER_S', () => {
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 4 * MIN, checkedAt: T0 }, T0, RULE)).toBeNull();
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 5 * MIN, checkedAt: T0 }, T0, RULE)).toBe('never-located');
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: null, checkedAt: T0 }, T0, RULE)).toBeNull();
  });

  it('counts the silence up to the feed\'s last look at the bus, not up to now', () => {
    // Fresh when the feed last asked, 6 minutes ago (at 10,000 buses the feed sees each bus on a trip every few
    // minutes): seen running, not a ghost however long ago that was.
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 6 * MIN - 10_000, departedAt: T0 - 20 * MIN, checkedAt: T0 - 6 * MIN }, T0, RULE)).toBeNull();
    // The answer showed a fix already 5 minutes old: a ghost from that answer on, until one shows a fresh fix.
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 11 * MIN, departedAt: T0 - 20 * MIN, checkedAt: T0 - 6 * MIN }, T0, RULE)).toBe('not-located');
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 10_000, departedAt: T0 - 20 * MIN, checkedAt: T0 }, T0, RULE)).toBeNull();
    // An answer with no position 5 minutes after the departure: never located. Never asked: not known to be silent.
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 20 * MIN, checkedAt: T0 - 15 * MIN }, T0, RULE)).toBe('never-located');
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 20 * MIN, checkedAt: T0 - 16 * MIN }, T0, RULE)).toBeNull();
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 20 * MIN, checkedAt: null }, T0, RULE)).toBeNull();
    // A look stamped after `now` (another clock: the browser's) counts up to now.
    expect(ghostReason({ busId: 1, lastLocatedAt: T0 - 299_000, departedAt: T0 - 20 * MIN, checkedAt: T0 + 60_000 }, T0, RULE)).toBeNull();
  });

  it('follows GHOST_AFTER_S', () => {
    const c = { busId: 1, lastLocatedAt: T0 - 2 * MIN, departedAt: T0 - 20 * MIN, checkedAt: T0 };
    expect(ghostReason(c, T0, { ...RULE, ghostAfterS: 120 })).toBe('not-located');
    expect(ghostReason(c, T0, { ...RULE, ghostAfterS: 121 })).toBeNull();
  });

  it('never calls a bus a ghost for lack of a fix when the key cannot read locations', () => {
    expect(ghostReason({ busId: 1, lastLocatedAt: null, departedAt: T0 - 60 * MIN, checkedAt: T0 }, T0, { ...RULE, locations: false })).toBeNull();
  });
});

describe('ghostTrips', () => {
  it('lists the snapshot ghosts once each, sorted by trip, with the reason and the last fix', () => {
    const snapshot = makeSnapshot({
      vehicles: [
        makeVehicle({ busId: 1, gpsAt: T0 - 10_000, trip: makeTrip({ tripId: 11 }) }),
        makeVehicle({ busId: 2, gpsAt: T0 - 8 * MIN, trip: makeTrip({ tripId: 12 }) }),
        // Tracked with no position: its trip is also listed as unpositioned.
        makeVehicle({ busId: 3, lat: null, lon: null, gpsAt: null, trip: makeTrip({ tripId: 13 }) }),
        makeVehicle({ busId: 4, gpsAt: T0 - 60 * MIN, trip: null }),
      ],
      unpositionedTrips: [makeUnpositionedTrip({ tripId: 13, busId: 3 }), makeUnpositionedTrip({ tripId: 10, busId: null })],
    });
    const ghosts = ghostTrips(snapshot, T0, 300);
    expect(ghosts.map((g) => [g.tripId, g.busId, g.reason, g.lastLocatedAt])).toEqual([
      [10, null, 'no-bus', null],
      [12, 2, 'not-located', T0 - 8 * MIN],
      [13, 3, 'never-located', null],
    ]);
    expect(ghosts[1]).toMatchObject({ routeCode: 'M15', plateNumber: 'BX-1001', delayClass: 'on-time' });
  });

  it('with a key that reads no locations, only trips without a bus', () => {
    const snapshot = makeSnapshot({
      vehicles: [makeVehicle({ busId: 3, lat: null, lon: null, gpsAt: null, trip: makeTrip({ tripId: 13 }) })],
      unpositionedTrips: [makeUnpositionedTrip({ tripId: 13, busId: 3 }), makeUnpositionedTrip({ tripId: 10, busId: null })],
      health: makeLiveHealth({ locations: false }),
    });
    expect(ghostTrips(snapshot, T0, 300).map((g) => g.tripId)).toEqual([10]);
  });
});
