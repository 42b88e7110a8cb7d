import { describe, expect, it } from 'vitest';
import { heldDataAgeS, isStaleAge, locationAgeS, meanAgeS, serverNow } from './ages';

describe('serverNow', () => {
  it('adds the time elapsed locally to the server stamp, whatever the browser clock says', () => {
    const clock = { generatedAt: 1_000_000, receivedAt: 5_000_000_000 };
    expect(serverNow(clock, 5_000_004_000)).toBe(1_004_000);
  });
  it('never runs backwards when the browser clock steps back', () => {
    expect(serverNow({ generatedAt: 1_000, receivedAt: 10_000 }, 9_000)).toBe(1_000);
  });
});

describe('locationAgeS and isStaleAge', () => {
  it('measures seconds since the GPS fix', () => {
    expect(locationAgeS(10_000, 75_000)).toBe(65);
  });
  it('clamps a fix from the near future to zero', () => {
    expect(locationAgeS(80_000, 75_000)).toBe(0);
  });
  it('has no age without a GPS time, and such a fix is stale', () => {
    expect(locationAgeS(null, 75_000)).toBeNull();
    expect(isStaleAge(null, 120)).toBe(true);
  });
  it('is stale only past the threshold', () => {
    expect(isStaleAge(120, 120)).toBe(false);
    expect(isStaleAge(120.5, 120)).toBe(true);
  });
});

describe('meanAgeS', () => {
  it('averages known ages only', () => {
    expect(meanAgeS([10, null, 20])).toBe(15);
    expect(meanAgeS([null])).toBeNull();
  });
});

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
