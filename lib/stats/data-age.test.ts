import { describe, expect, it } from 'vitest';
import { heldDataAgeS, upstreamDataAgeS } from './data-age';

describe('upstreamDataAgeS', () => {
  it('is the server-clock time since the last upstream success', () => {
    expect(upstreamDataAgeS(997_000, 1_004_000)).toBe(7);
  });
  it('never goes negative and is unknown before any success or before the clock is known', () => {
    expect(upstreamDataAgeS(1_000_500, 1_000_000)).toBe(0);
    expect(upstreamDataAgeS(null, 1_000_000)).toBeNull();
    expect(upstreamDataAgeS(5, 0)).toBeNull();
  });
});

describe('heldDataAgeS', () => {
  it('adds how far the live data moved on since the held snapshot', () => {
    expect(heldDataAgeS(3, 20_000, 12_000)).toBe(11);
    expect(heldDataAgeS(3, 20_000, null)).toBe(3);
    expect(heldDataAgeS(null, 20_000, 12_000)).toBeNull();
  });
});
