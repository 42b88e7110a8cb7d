import { describe, expect, it } from 'vitest';
import { formatAgo, formatDelay, formatDuration, isStaleAge, locationAgeS, meanAgeS, serverNow } from './location-age';

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

describe('formatting', () => {
  it.each([
    [0, '0 s'],
    [4.9, '4 s'],
    [59, '59 s'],
    [60, '1 min'],
    [3599, '59 min'],
    [3900, '1 h 05 min'],
    [3 * 86400 + 4 * 3600, '3 d 4 h'],
  ])('formatDuration(%s) = %s', (s, out) => expect(formatDuration(s)).toBe(out));

  it('says ago, just now, or that the age is unknown', () => {
    expect(formatAgo(4)).toBe('4 s ago');
    expect(formatAgo(0.2)).toBe('just now');
    expect(formatAgo(null)).toBe('age unknown');
  });

  it('signs delays', () => {
    expect(formatDelay(7)).toBe('+7 min');
    expect(formatDelay(-2)).toBe('−2 min');
    expect(formatDelay(0)).toBe('0 min');
    expect(formatDelay(null)).toBe('—');
  });

  it('averages known ages only', () => {
    expect(meanAgeS([10, null, 20])).toBe(15);
    expect(meanAgeS([null])).toBeNull();
  });
});
