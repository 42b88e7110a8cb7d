import { describe, expect, it } from 'vitest';
import { formatAgo, formatDelay, formatDuration, formatHeading } from './format';

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

  it('names the compass point of a heading', () => {
    expect(formatHeading(92)).toBe('92° E');
    expect(formatHeading(350)).toBe('350° N');
    expect(formatHeading(-90)).toBe('-90° W');
    expect(formatHeading(200.4)).toBe('200° S');
  });
});
