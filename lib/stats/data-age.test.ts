import { describe, expect, it } from 'vitest';
import { heldDataAgeS } from './data-age';

describe('heldDataAgeS', () => {
  it('adds how far the live data moved on since the held snapshot', () => {
    expect(heldDataAgeS(3, 20_000, 12_000)).toBe(11);
    expect(heldDataAgeS(3, 20_000, 20_000)).toBe(3);
  });
  it('falls back to the live age when either moment is unknown', () => {
    expect(heldDataAgeS(3, 20_000, null)).toBe(3);
    expect(heldDataAgeS(null, 20_000, 12_000)).toBeNull();
  });
});
