import { describe, expect, it } from 'vitest';
import { fakeTrip } from '@/lib/testing/fake-upstream';
import { FinalTrips, MAX_ATTEMPTS } from './final-trips';

const trips = (...ids: number[]) => ids.map((id) => fakeTrip(id, { start: 0 }));

/** Feeds walks one after the other, each compared with the one before. */
function walker(f: FinalTrips, first: number[]) {
  let previous = trips(...first);
  return (...ids: number[]) => {
    const current = trips(...ids);
    f.noteWalk(previous, current);
    previous = current;
  };
}

const takeAll = (f: FinalTrips) => {
  const out: number[] = [];
  for (let id = f.take(); id !== null; id = f.take()) out.push(id);
  return out;
};

describe('FinalTrips', () => {
  it('asks about a trip once a second walk has missed it too, in the order the trips left', () => {
    const f = new FinalTrips(() => {});
    const walk = walker(f, [1, 2, 3]);
    walk(2, 3, 4);
    expect([f.size, f.ready, f.take()]).toEqual([1, 0, null]);
    walk(3, 4);
    expect([f.size, f.ready]).toEqual([2, 1]);
    walk(4);
    expect(takeAll(f)).toEqual([1, 2]);
    walk(4);
    expect(takeAll(f)).toEqual([3]);
    expect(f.size).toBe(0);
  });

  it('never finalises a trip missing from one walk and listed again by the next', () => {
    const f = new FinalTrips(() => {});
    const walk = walker(f, [1, 2]);
    walk(2);
    walk(1, 2);
    walk(1, 2);
    expect([f.size, f.ready, f.take()]).toEqual([0, 0, null]);
    // When it does leave, it is asked.
    walk(2);
    walk(2);
    expect(takeAll(f)).toEqual([1]);
  });

  it('asks again about a trip listed again after its answer, once it leaves again; never twice for one leaving', () => {
    const f = new FinalTrips(() => {});
    const walk = walker(f, [1, 2]);
    walk(2);
    walk(2);
    expect(takeAll(f)).toEqual([1]);
    // The answer came while trip 1 still ran (two walks missed it): it is listed again, then ends.
    walk(1, 2);
    walk(2);
    walk(2);
    expect(takeAll(f)).toEqual([1]);
    walk(2);
    walk(2);
    expect(takeAll(f)).toEqual([]);
  });

  it('tries a failed lookup again, at most MAX_ATTEMPTS times in all', () => {
    const f = new FinalTrips(() => {});
    const walk = walker(f, [1]);
    walk();
    walk();
    const sent: number[] = [];
    for (;;) {
      const id = f.take();
      if (id === null) break;
      sent.push(id);
      f.failed(id);
    }
    expect(sent).toEqual(Array.from({ length: MAX_ATTEMPTS }, () => 1));
    expect(f.size).toBe(0);
  });

  it('drops the oldest past its bound, with one log line', () => {
    const lines: Record<string, unknown>[] = [];
    const f = new FinalTrips((l) => lines.push(l));
    const many = Array.from({ length: 5_003 }, (_, i) => i + 1);
    f.noteWalk(trips(...many), []);
    f.noteWalk([], []);
    expect([f.size, f.ready]).toEqual([5_000, 5_000]);
    expect(f.take()).toBe(4);
    expect(lines).toEqual([{ msg: 'final trip lookups dropped', dropped: 3, pending: 5_000 }]);
  });

  it('counts the lookups of the last hour', () => {
    const f = new FinalTrips(() => {});
    const t0 = 1_000_000;
    f.noteSent(t0);
    f.noteSent(t0 + 30 * 60_000);
    expect(f.requestsLastHour(t0 + 59 * 60_000)).toBe(2);
    expect(f.requestsLastHour(t0 + 60 * 60_000)).toBe(1);
    expect(f.requestsLastHour(t0 + 2 * 60 * 60_000)).toBe(0);
  });
});
