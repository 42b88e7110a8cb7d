import { describe, expect, it } from 'vitest';
import { routeLine, type StopPlace } from './route-lines';

const stop = (id: number, stopOrder: number, longitude: number | null = -70 - id, latitude: number | null = 40.7): StopPlace => ({ id, stopOrder, latitude, longitude });

describe('routeLine', () => {
  it('runs through the stops in stop_order whatever order they came in', () => {
    const line = routeLine([stop(3, 3), stop(1, 1), stop(2, 2)]);
    expect(line.stops.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(line.coordinates).toEqual([
      [-71, 40.7],
      [-72, 40.7],
      [-73, 40.7],
    ]);
  });

  it('orders stops of equal stop_order by id, so both sides of the app draw the same line from any list order', () => {
    const a = routeLine([stop(1, 1), stop(7, 2), stop(5, 2), stop(9, 3)]);
    const b = routeLine([stop(9, 3), stop(5, 2), stop(7, 2), stop(1, 1)]);
    expect(a.stops.map((s) => s.id)).toEqual([1, 5, 7, 9]);
    expect(b).toEqual(a);
  });

  it('leaves out stops without a readable position: missing, not a number, out of range', () => {
    const line = routeLine([stop(1, 1), stop(2, 2, null), stop(3, 3, Number.NaN), stop(4, 4, -73.9, 91), stop(5, 5, 181), stop(6, 6)]);
    expect(line.stops.map((s) => s.id)).toEqual([1, 6]);
    expect(line.coordinates).toHaveLength(2);
  });

  it('draws no line through fewer than two stops, but keeps the one stop', () => {
    expect(routeLine([stop(1, 1), stop(2, 2, null)])).toEqual({ stops: [stop(1, 1)], coordinates: null });
    expect(routeLine([])).toEqual({ stops: [], coordinates: null });
  });
});
