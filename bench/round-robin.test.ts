import { describe, expect, it } from 'vitest';
import { nextInRotation, nextLocation } from './round-robin';

describe('round-robin rotation', () => {
  it('starts with the lowest id and walks up, wrapping at the end', () => {
    const ids = [3, 7, 12];
    expect(nextInRotation(ids, null)).toBe(3);
    expect(nextInRotation(ids, 3)).toBe(7);
    expect(nextInRotation(ids, 12)).toBe(3);
  });

  it('carries on from where it was when the list of buses on trips changes', () => {
    // Bus 7 finished its trip: the rotation goes on after it, not back to the start.
    expect(nextInRotation([3, 9, 12], 7)).toBe(9);
    expect(nextInRotation([3, 5], 7)).toBe(3);
  });

  it('has nothing to poll when no bus is on a trip', () => {
    expect(nextInRotation([], 4)).toBeNull();
  });
});

describe('round robin with a watched bus', () => {
  const ids = [3, 7, 12];
  it('gives the watched bus every other slot once its fix is 5 s old, the rotation the rest', () => {
    expect(nextLocation(ids, 3, { busId: 40, fetchedAt: null, lastSlotWasWatch: false }, 0)).toEqual({ busId: 40, watched: true });
    expect(nextLocation(ids, 3, { busId: 40, fetchedAt: null, lastSlotWasWatch: true }, 0)).toEqual({ busId: 7, watched: false });
    expect(nextLocation(ids, 3, { busId: 40, fetchedAt: 1_000, lastSlotWasWatch: false }, 5_999)).toEqual({ busId: 7, watched: false });
    expect(nextLocation(ids, 3, { busId: 40, fetchedAt: 1_000, lastSlotWasWatch: false }, 6_000)).toEqual({ busId: 40, watched: true });
    expect(nextLocation(ids, 3, null, 0)).toEqual({ busId: 7, watched: false });
  });
});
