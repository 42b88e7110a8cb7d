import { describe, expect, it } from 'vitest';
import { decodeRoster, type CompactRoster, type Vehicle } from '@/lib/model';
import { makeVehicle } from '@/lib/testing/view-factories';
import { Rosters, rosterVersion } from './live-roster';

const fleet: Vehicle[] = [makeVehicle({ busId: 1, plateNumber: 'BC1234' }), makeVehicle({ busId: 5, plateNumber: 'BD0042', busName: null })];

/** Rosters whose answers are their bodies, counting the ones made. */
function rosters(keep = 4) {
  let made = 0;
  const r = new Rosters<CompactRoster>((_version, body) => {
    made++;
    return JSON.parse(body) as CompactRoster;
  }, keep);
  return { r, made: () => made };
}

describe('the rosters of /api/live', () => {
  it('keep their version while only positions move, and make each version once', () => {
    const { r, made } = rosters();
    const first = r.of('', fleet);
    expect(first.version).toBe(rosterVersion(fleet));
    expect(decodeRoster(first.answer)).toEqual({ version: first.version, busIds: [1, 5], names: fleet.map(({ plateNumber, busName, internalCode }) => ({ plateNumber, busName, internalCode })) });
    const moved = fleet.map((v) => ({ ...v, lat: 41, trip: null }));
    expect(r.of('', moved)).toBe(first);
    expect(made()).toBe(1);
  });

  it('take a new version when a plate or name changes, or a bus comes or goes, and keep the ones before', () => {
    const { r } = rosters();
    const first = r.of('', fleet);
    const renamed = r.of('', [fleet[0]!, { ...fleet[1]!, busName: '#42' }]);
    const grown = r.of('', [...fleet, makeVehicle({ busId: 9 })]);
    const shrunk = r.of('', fleet.slice(1));
    expect(new Set([first.version, renamed.version, grown.version, shrunk.version]).size).toBe(4);
    expect(r.kept('', first.version)).toBe(first);
    expect(r.kept('', renamed.version)).toBe(renamed);
    // Back to the first rows: the first version again, the same answer.
    expect(r.of('', fleet)).toBe(first);
    // The version is the rows' alone: another instance holding the same rows (its own objects) names the same one.
    expect(rosterVersion(structuredClone(fleet))).toBe(first.version);
  });

  it('keep the newest few of a scope, and each scope apart', () => {
    const { r } = rosters(2);
    const a = r.of('', fleet);
    const b = r.of('', [{ ...fleet[0]!, plateNumber: 'B' }]);
    const c = r.of('', [{ ...fleet[0]!, plateNumber: 'C' }]);
    expect(r.kept('', a.version)).toBeUndefined();
    expect([r.kept('', b.version), r.kept('', c.version)]).toEqual([b, c]);
    // Everyone's version is not another scope's, though the scope's rows may be made later.
    expect(r.kept('wall-scope', c.version)).toBeUndefined();
    const scoped = r.of('wall-scope', fleet.slice(0, 1));
    expect(r.kept('', scoped.version)).toBeUndefined();
  });
});
