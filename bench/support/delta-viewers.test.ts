import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeCompactDelta, encodeCompactFull, encodeRoster, liveChanges, type LiveSnapshot } from '../../lib/model';
import { makeSnapshot, makeTrip, makeVehicle, T0 } from '../../lib/testing/view-factories';
import { ChainMemo, compactLiveUrl, HELD_KEPT, type Followed, type ReceivedAnswer } from './delta-viewers';

const v1 = makeSnapshot({ version: 1, generatedAt: T0, vehicles: [makeVehicle({ busId: 3, trip: makeTrip({ tripId: 70 }) }), makeVehicle({ busId: 8 })] });
const v2: LiveSnapshot = { ...v1, version: 2, generatedAt: T0 + 5_000, vehicles: [{ ...v1.vehicles[0]!, lat: 40.76 }, v1.vehicles[1]!] };
const v3: LiveSnapshot = { ...v2, version: 3, generatedAt: T0 + 10_000, vehicles: [{ ...v2.vehicles[0]!, lat: 40.77 }] };

/** An answer as the server sends it to a browser: JSON, brotli, under the ETag naming its version. */
function sent(body: unknown, version: number): ReceivedAnswer {
  return { etag: `W/"${v1.epoch}-${version}.c"`, encoding: 'br', body: brotliCompressSync(Buffer.from(JSON.stringify(body))) };
}

const full1 = sent(encodeCompactFull(v1, 'r1'), 1);
/** The snapshot a viewer holds after an answer it followed (none when it was not a full answer or a delta). */
const snapshotOf = (f: Followed): LiveSnapshot | undefined => (f.kind === 'full' || f.kind === 'delta' ? f.snapshot : undefined);
const roster1 = sent(encodeRoster(v1.vehicles, 'r1'), 1);

/** A memo holding the roster full1 names, as a viewer has it once it asked. */
function memoWithRoster(): ChainMemo {
  const memo = new ChainMemo();
  memo.addRoster(roster1);
  return memo;
}
const delta12 = sent(encodeCompactDelta(v2, 1, liveChanges(v1, v2), () => true), 2);
const delta23 = sent(encodeCompactDelta(v3, 2, liveChanges(v2, v3), () => true), 3);

describe('delta viewers follow the chain as the browser does', () => {
  it('asks in full first, then since the version held', () => {
    expect(compactLiveUrl('http://a', undefined)).toBe('http://a/api/live?shape=compact');
    expect(compactLiveUrl('http://a', v1)).toBe(`http://a/api/live?shape=compact&since=${v1.epoch}-1`);
  });

  it('decodes a full answer, then applies each delta to the snapshot held', () => {
    const memo = memoWithRoster();
    const a = memo.follow(undefined, full1);
    expect(a.kind).toBe('full');
    const b = memo.follow(a.kind === 'full' ? a.snapshot : undefined, delta12);
    expect(b.kind === 'delta' && b.snapshot.vehicles.map((v) => v.lat)).toEqual([40.76, v1.vehicles[1]!.lat]);
    const c = memo.follow(b.kind === 'delta' ? b.snapshot : undefined, delta23);
    expect(c.kind === 'delta' && [c.snapshot.version, c.snapshot.vehicles.length]).toEqual([3, 1]);
  });

  it('counts a delta that does not follow the snapshot held as a broken chain', () => {
    const memo = memoWithRoster();
    const a = memo.follow(undefined, full1);
    // The delta from version 2 on a snapshot of version 1; and a delta with nothing held.
    expect(memo.follow(a.kind === 'full' ? a.snapshot : undefined, delta23).kind).toBe('broken');
    expect(memo.follow(undefined, delta12).kind).toBe('broken');
  });

  it('decodes one answer once for every viewer holding the same snapshot', () => {
    const memo = memoWithRoster();
    const a = memo.follow(undefined, full1);
    const held = a.kind === 'full' ? a.snapshot : undefined;
    expect(memo.follow(undefined, { ...full1, body: Buffer.from(full1.body) })).toBe(a);
    const b = memo.follow(held, delta12);
    expect(memo.follow(held, delta12)).toBe(b);
    expect(memo.decoded).toBe(2);
    // Another snapshot of the same version is another question: decoded again.
    memo.follow(structuredClone(held), delta12);
    expect(memo.decoded).toBe(3);
  });

  it('gives viewers that reached a version by a full answer and by a delta one snapshot of it, so their chains join', () => {
    const memo = memoWithRoster();
    const a = memo.follow(undefined, full1);
    const byDelta = memo.follow(snapshotOf(a), delta12);
    const byFull = memo.follow(undefined, sent(encodeCompactFull(v2, 'r1'), 2));
    expect([byDelta.kind, byFull.kind]).toEqual(['delta', 'full']);
    expect(snapshotOf(byFull)).toBe(snapshotOf(byDelta));
    expect(memo.divergent).toBe(0);
    // Both viewers then hold the same snapshot: the next delta is decoded once for the two.
    const decoded = memo.decoded;
    expect(memo.follow(snapshotOf(byFull), delta23)).toBe(memo.follow(snapshotOf(byDelta), delta23));
    expect(memo.decoded).toBe(decoded + 1);
  });

  it('counts a version reached as a snapshot unequal to the one kept, and leaves that viewer its own', () => {
    const memo = memoWithRoster();
    const byDelta = memo.follow(snapshotOf(memo.follow(undefined, full1)), delta12);
    const other: LiveSnapshot = { ...v2, vehicles: [{ ...v2.vehicles[0]!, lat: 40.8 }, v2.vehicles[1]!] };
    const byFull = memo.follow(undefined, sent(encodeCompactFull(other, 'r1'), 2));
    expect(memo.divergent).toBe(1);
    expect(snapshotOf(byFull)).not.toBe(snapshotOf(byDelta));
    expect(snapshotOf(byFull)?.vehicles[0]?.lat).toBe(40.8);
  });

  it('keeps the answers of the newest held snapshots only, so an old snapshot does not hold the chain after it', () => {
    const memo = memoWithRoster();
    const a = memo.follow(undefined, full1);
    const held = a.kind === 'full' ? a.snapshot : undefined;
    const first = memo.follow(held, delta12);
    for (let i = 0; i < 3 * HELD_KEPT; i++) memo.follow(structuredClone(held), delta12);
    expect(memo.heldKept).toBe(HELD_KEPT);
    // The first held snapshot's answer was let go: asked again, it is decoded again, to an equal snapshot.
    const decoded = memo.decoded;
    const again = memo.follow(held, delta12);
    expect(memo.decoded).toBe(decoded + 1);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('asks for the roster a full answer names before decoding it, once', () => {
    const memo = new ChainMemo();
    expect(memo.follow(undefined, full1)).toEqual({ kind: 'roster', version: 'r1' });
    expect(memo.addRoster(roster1)?.version).toBe('r1');
    const a = memo.follow(undefined, full1);
    expect(a.kind === 'full' && a.snapshot).toEqual(v1);
    expect(memo.addRoster(full1)).toBeNull();
  });

  it('reads a body it cannot decode as unreadable, not as a snapshot', () => {
    const f = new ChainMemo().follow(undefined, { etag: 'W/"x"', encoding: 'br', body: Buffer.from('not brotli') });
    expect(f.kind).toBe('unreadable');
  });
});
