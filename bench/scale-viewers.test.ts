import { describe, expect, it } from 'vitest';
import { slope } from './scale-viewers';

describe('the soak fits RSS growth by least squares', () => {
  it('reads the slope of samples on a line, noise or not', () => {
    expect(slope([1, 2, 3, 4], [500, 510, 520, 530])).toBeCloseTo(10);
    expect(slope([1, 2, 3, 4], [500, 512, 518, 530])).toBeCloseTo(9.6);
  });

  it('has no slope from fewer than two distinct times', () => {
    expect(slope([1], [500])).toBeNull();
    expect(slope([2, 2], [500, 510])).toBeNull();
  });
});
