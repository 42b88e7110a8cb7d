import { describe, expect, it } from 'vitest';
import type { LngLat } from '@/lib/geo/lon-lat';
import { easeOut, planGlides, positionsAt } from './bus-motion';

const at = (lon: number, lat: number): LngLat => [lon, lat];

describe('planGlides', () => {
  const drawn = new Map<number, LngLat>([
    [1, at(-73.98, 40.75)],
    [2, at(-73.98, 40.75)],
    [3, at(-73.98, 40.75)],
  ]);

  it('glides short moves, jumps long ones, skips new and unmoved buses', () => {
    const targets = new Map<number, LngLat>([
      [1, at(-73.979, 40.7505)], // ~100 m
      [2, at(-73.9, 40.75)], // ~6.7 km
      [3, at(-73.98, 40.75)], // unmoved
      [4, at(-73.97, 40.76)], // new
    ]);
    expect(planGlides(drawn, targets).map((g) => g.busId)).toEqual([1]);
  });
});

describe('planGlides with a large fleet', () => {
  it('skips gliding when more buses move than the worker can re-cluster per frame', () => {
    const drawn = new Map<number, LngLat>();
    const targets = new Map<number, LngLat>();
    for (let i = 0; i < 5; i++) {
      drawn.set(i, at(-73.98, 40.75));
      targets.set(i, at(-73.9799, 40.75));
    }
    expect(planGlides(drawn, targets, 500, 5)).toHaveLength(5);
    expect(planGlides(drawn, targets, 500, 4)).toEqual([]);
  });
});

describe('positionsAt', () => {
  const targets = new Map<number, LngLat>([
    [1, at(1, 1)],
    [2, at(5, 5)],
  ]);
  const glides = [{ busId: 1, from: at(0, 0), to: at(1, 1) }];

  it('starts at the old fix and ends at the new one', () => {
    expect(positionsAt(targets, glides, 0).get(1)).toEqual([0, 0]);
    expect(positionsAt(targets, glides, 1).get(1)).toEqual([1, 1]);
  });

  it('is between the two mid-way and leaves other buses at their targets', () => {
    const mid = positionsAt(targets, glides, 0.5);
    const [lon] = mid.get(1)!;
    expect(lon).toBeCloseTo(easeOut(0.5));
    expect(lon).toBeGreaterThan(0.5);
    expect(mid.get(2)).toEqual([5, 5]);
  });

  it('clamps progress outside 0..1', () => {
    expect(positionsAt(targets, glides, 3).get(1)).toEqual([1, 1]);
    expect(positionsAt(targets, glides, -1).get(1)).toEqual([0, 0]);
  });
});
