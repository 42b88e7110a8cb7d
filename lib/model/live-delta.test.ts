import { describe, expect, it } from 'vitest';
import { makeLiveHealth, makeSnapshot, makeUnpositionedTrip, makeVehicle, T0 } from '@/lib/testing/view-factories';
import type { LiveDelta, LiveSnapshot } from './live';
import { applyLiveDelta, liveChanges, liveVersionTag, mergeLiveChanges, parseLiveVersionTag } from './live-delta';

/** A deterministic walk of snapshot versions: buses appear, move, lose their trip and disappear; trips come and go. */
function versions(count: number, seed = 7): LiveSnapshot[] {
  let s = seed;
  const rnd = () => ((s = (s * 48271) % 2147483647) / 2147483647);
  let current = makeSnapshot({ vehicles: [1, 2, 3, 4, 5].map((busId) => makeVehicle({ busId })), unpositionedTrips: [900, 901].map((tripId) => makeUnpositionedTrip({ tripId })) });
  const out = [current];
  for (let v = 2; v <= count; v++) {
    const vehicles = current.vehicles
      .filter(() => rnd() > 0.05)
      .map((veh) => (rnd() < 0.3 ? makeVehicle({ ...veh, lat: veh.lat! + 0.001, gpsAt: T0 + v * 1000, trip: rnd() < 0.1 ? null : veh.trip }) : veh));
    if (rnd() < 0.4) vehicles.push(makeVehicle({ busId: 10 + Math.floor(rnd() * 30) }));
    const byId = new Map(vehicles.map((x) => [x.busId, x]));
    const trips = current.unpositionedTrips.filter(() => rnd() > 0.2).map((t) => (rnd() < 0.3 ? { ...t, delayMinutes: v } : t));
    if (rnd() < 0.5) trips.push(makeUnpositionedTrip({ tripId: 902 + Math.floor(rnd() * 20) }));
    const tripsById = new Map(trips.map((t) => [t.tripId, t]));
    current = {
      generatedAt: T0 + v * 1000,
      epoch: 'e1',
      version: v,
      vehicles: [...byId.values()].sort((a, b) => a.busId - b.busId),
      unpositionedTrips: [...tripsById.values()].sort((a, b) => a.tripId - b.tripId),
      health: makeLiveHealth({ lastSuccessAt: T0 + v * 1000 }),
      thresholds: { lateMin: 5, earlyMin: 1 },
    };
    out.push(current);
  }
  return out;
}

function delta(from: LiveSnapshot, to: LiveSnapshot, steps = [liveChanges(from, to)]): LiveDelta {
  return { kind: 'delta', epoch: to.epoch, since: from.version, version: to.version, generatedAt: to.generatedAt, ...mergeLiveChanges(steps), health: to.health, thresholds: to.thresholds };
}

describe('live deltas', () => {
  const all = versions(60);

  it('a chain of deltas, each over a few versions, equals the full snapshot of the last version', () => {
    let held = all[0]!;
    // Polls that each span 1 to 5 versions, as a browser polling every 5 s sees a snapshot changing every second.
    for (let i = 0, step = 1; i < all.length - 1; step = (step % 5) + 1) {
      const to = Math.min(all.length - 1, i + step);
      const steps = all.slice(i + 1, to + 1).map((v, k) => liveChanges(all[i + k]!, v));
      const next = applyLiveDelta(held, delta(all[i]!, all[to]!, steps));
      expect(next).not.toBeNull();
      held = next!;
      expect(held).toEqual(all[to]);
      expect(JSON.stringify(held)).toBe(JSON.stringify(all[to]));
      i = to;
    }
    expect(held.version).toBe(60);
  });

  it('composes steps into the same change as one diff over the whole span', () => {
    const steps = all.slice(1, 30).map((v, k) => liveChanges(all[k]!, v));
    const merged = mergeLiveChanges(steps);
    const direct = liveChanges(all[0]!, all[29]!);
    expect(merged.vehicles).toEqual(direct.vehicles);
    expect(merged.unpositionedTrips).toEqual(direct.unpositionedTrips);
    // A step composition may also name items that came and went in between; removing what is absent is a no-op.
    expect(merged.removedBusIds).toEqual(expect.arrayContaining(direct.removedBusIds));
    expect(merged.removedTripIds).toEqual(expect.arrayContaining(direct.removedTripIds));
    expect(applyLiveDelta(all[0]!, delta(all[0]!, all[29]!, steps))).toEqual(all[29]);
  });

  it('names only what changed, and keeps unchanged vehicles as the same objects', () => {
    const a = makeSnapshot({ vehicles: [makeVehicle({ busId: 1 }), makeVehicle({ busId: 2 }), makeVehicle({ busId: 3 })] });
    const b = { ...a, version: 2, vehicles: [a.vehicles[0]!, makeVehicle({ busId: 2, lat: 40.8 }), makeVehicle({ busId: 4 })] };
    const c = liveChanges(a, b);
    expect(c.vehicles.map((v) => v.busId)).toEqual([2, 4]);
    expect(c.removedBusIds).toEqual([3]);
    expect(c.unpositionedTrips).toEqual([]);
    const applied = applyLiveDelta(a, delta(a, b))!;
    expect(applied.vehicles[0]).toBe(a.vehicles[0]);
    expect(applied.vehicles.map((v) => v.busId)).toEqual([1, 2, 4]);
  });

  it('refuses a delta from another version or epoch (the caller then asks for the full snapshot)', () => {
    const [a, b, c] = all;
    expect(applyLiveDelta(a!, delta(b!, c!))).toBeNull();
    expect(applyLiveDelta({ ...a!, epoch: 'other' }, delta(a!, b!))).toBeNull();
  });

  it('reads back the version tags it writes, and nothing else', () => {
    expect(parseLiveVersionTag(liveVersionTag('a1b2', 17))).toEqual({ epoch: 'a1b2', version: 17 });
    for (const bad of ['', '17', 'a1b2-', 'a1b2-0', 'a1b2-01', 'A1-2', 'a-b-3', 'x'.repeat(33) + '-1', 'a1-99999999999999999', 'a1-1.5']) {
      expect(parseLiveVersionTag(bad)).toBeNull();
    }
  });
});
