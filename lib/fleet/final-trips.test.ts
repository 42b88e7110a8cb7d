import { describe, expect, it } from 'vitest';
import { fakeTrip } from './fake-upstream';
import { FinalTrips } from './final-trips';

const trips = (...ids: number[]) => ids.map((id) => fakeTrip(id, { start: 0 }));

describe('FinalTrips', () => {
  it('queues the trips that left, in the order they left, each asked at most once', () => {
    const f = new FinalTrips(() => {});
    f.noteWalk(trips(1, 2, 3), trips(2, 3, 4));
    f.noteWalk(trips(2, 3, 4), trips(4));
    expect(f.size).toBe(3);
    expect([f.take(), f.take()]).toEqual([1, 2]);
    // Trip 2 shows up again and leaves again: it was asked already. Trip 3 came back before its turn.
    f.noteWalk(trips(4), trips(2, 3, 4));
    expect(f.size).toBe(0);
    f.noteWalk(trips(2, 3, 4), trips(4));
    expect([f.take(), f.take()]).toEqual([3, null]);
  });

  it('drops the oldest past its bound, with one log line', () => {
    const lines: Record<string, unknown>[] = [];
    const f = new FinalTrips((l) => lines.push(l));
    const many = Array.from({ length: 5_003 }, (_, i) => i + 1);
    f.noteWalk(trips(...many), []);
    expect(f.size).toBe(5_000);
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
