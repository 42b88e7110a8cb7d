import { describe, expect, it } from 'vitest';
import { LocationScheduler, newTrack, type BusTrack } from './location-scheduler';

const NOW = 1_000_000;
const timing = { parkedFloorMs: 300_000, watchRefreshMs: 5_000, slotMs: 1_000 };

function track(busId: number, over: Partial<BusTrack> = {}): BusTrack {
  return { ...newTrack(busId), fetchedAt: NOW - 10_000, speeds: [20], onTrip: true, ...over };
}

describe('LocationScheduler', () => {
  it('prefers the larger expected error: a fast bus beats a slow one of the same age, age beats speed', () => {
    const s = new LocationScheduler();
    const slow = track(1, { speeds: [4] });
    const fast = track(2, { speeds: [36] });
    expect(s.pick([slow, fast], NOW, timing)).toBe(fast);
    // sqrt(36/4) = 3 = (age ratio)²: the slow bus wins once it is more than √3 times older.
    const olderSlow = track(1, { speeds: [4], fetchedAt: NOW - 18_000 });
    expect(s.pick([olderSlow, fast], NOW, timing)).toBe(olderSlow);
  });

  it('locates unseen buses on trips first, then parked buses at their floor, and skips buses in flight', () => {
    const s = new LocationScheduler();
    const seen = track(1, { fetchedAt: NOW - 60_000 });
    const unseen = track(2, { fetchedAt: null });
    const parkedDue = track(3, { onTrip: false, fetchedAt: NOW - 290_000 });
    const parkedFresh = track(4, { onTrip: false, fetchedAt: NOW - 100_000 });
    expect(s.pick([seen, unseen, parkedDue, parkedFresh], NOW, timing)).toBe(unseen);
    expect(s.pick([seen, { ...unseen, inFlight: true }, parkedDue, parkedFresh], NOW, timing)).toBe(parkedDue);
    expect(s.pick([seen, parkedFresh], NOW, timing)).toBe(seen);
  });

  it('uses parked buses only when nobody is on a trip', () => {
    const s = new LocationScheduler();
    const a = track(1, { onTrip: false, fetchedAt: NOW - 100_000 });
    const b = track(2, { onTrip: false, fetchedAt: NOW - 50_000 });
    expect(s.pick([a, b], NOW, timing)).toBe(a);
    expect(s.pick([], NOW, timing)).toBeNull();
  });

  it('serves a watched bus first but leaves every other slot to the fleet', () => {
    const s = new LocationScheduler();
    const watched = track(7, { fetchedAt: NOW - 6_000, watchedSince: NOW - 20_000, watchedUntil: NOW + 10_000 });
    const other = track(8, { fetchedAt: NOW - 60_000 });
    expect(s.pick([watched, other], NOW, timing)).toBe(watched);
    expect(s.pick([watched, other], NOW, timing)).toBe(other);
    expect(s.pick([watched, other], NOW, timing)).toBe(watched);
    // A lapsed watch is an ordinary bus again.
    const lapsed = { ...watched, watchedUntil: NOW - 1 };
    expect(s.pick([lapsed, other], NOW, timing)).toBe(other);
  });
});

describe('LocationScheduler with a large parked fleet', () => {
  it('gives parked buses at most every other slot while buses on trips wait', () => {
    const s = new LocationScheduler();
    const onTrip = [track(1, { fetchedAt: NOW - 30_000 }), track(2, { fetchedAt: NOW - 20_000 })];
    const parked = [track(3, { onTrip: false, fetchedAt: null }), track(4, { onTrip: false, fetchedAt: null })];
    const picks = [0, 1, 2, 3].map(() => {
      const t = s.pick([...onTrip, ...parked], NOW, timing)!;
      t.fetchedAt = NOW;
      return t.busId;
    });
    expect(picks).toEqual([3, 1, 4, 2]);
  });
});
