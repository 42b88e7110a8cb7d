import { describe, expect, it } from 'vitest';
import { liveChanges, type LiveChanges, type LiveSnapshot } from '@/lib/model';
import { makeSnapshot, makeTrip, makeVehicle } from '@/lib/testing/view-factories';
import { SlowParts } from './live-compact';

/** Versions 1..n of one epoch, and their step changes as a store keeps them (`kept` newest steps). */
function history(snapshots: LiveSnapshot[], kept = Infinity) {
  const steps = snapshots.slice(1).map((s, i) => liveChanges(snapshots[i]!, s));
  return {
    liveChangesSince(epoch: string, version: number): LiveChanges[] | null {
      const newest = snapshots.length;
      if (epoch !== 'e1' || version > newest || newest - version > kept) return null;
      return steps.slice(version - 1);
    },
  };
}

const at = (version: number, vehicles = [makeVehicle({ busId: 1 }), makeVehicle({ busId: 2 })]) => makeSnapshot({ epoch: 'e1', version, vehicles });

describe('which buses only moved (compact deltas)', () => {
  const v1 = at(1);
  const v2 = at(2, [makeVehicle({ busId: 1, lat: 40.8 }), makeVehicle({ busId: 2, trip: makeTrip({ delayMinutes: 4 }) })]);
  const v3 = at(3, [makeVehicle({ busId: 1, lat: 40.9 }), makeVehicle({ busId: 2, lat: 40.1, trip: makeTrip({ delayMinutes: 4 }) }), makeVehicle({ busId: 3 })]);

  it('follows the steps version after version: a trip or a bus that changed, or a new bus, is not a move', () => {
    const parts = new SlowParts();
    const source = history([v1, v2, v3]);
    parts.advance(v1, source);
    parts.advance(v3, source);
    expect([1, 2, 3].map((id) => parts.unchangedSince(id, 1))).toEqual([true, false, false]);
    // Since version 2, bus 2's trip is the one the viewer holds.
    expect([1, 2, 3].map((id) => parts.unchangedSince(id, 2))).toEqual([true, true, false]);
  });

  it('knows nothing of versions before it started, or across a gap the store no longer holds: every bus whole', () => {
    const parts = new SlowParts();
    parts.advance(v2, history([v1, v2]));
    expect(parts.unchangedSince(1, 1)).toBe(false);
    expect(parts.unchangedSince(1, 2)).toBe(true);
    parts.advance(v3, history([v1, v2, v3], 0));
    expect(parts.unchangedSince(1, 2)).toBe(false);
    expect(parts.unchangedSince(1, 3)).toBe(true);
    // Another epoch starts it again.
    parts.advance({ ...v1, epoch: 'e2' }, history([v1]));
    expect(parts.unchangedSince(1, 3)).toBe(false);
  });
});
