import { describe, expect, it } from 'vitest';
import { countdown, etaWords } from './eta';

const NOW = Date.UTC(2026, 2, 4, 17, 0, 0);
const MIN = 60_000;

describe('etaWords and countdown', () => {
  it('words the band in whole minutes', () => {
    expect(etaWords(NOW + 6 * MIN + 10_000, NOW + 8 * MIN + 30_000, NOW)).toBe('in 6–9 min');
    expect(etaWords(NOW + 2 * MIN, NOW + 3 * MIN, NOW)).toBe('in 2–3 min');
    expect(etaWords(NOW + 3 * MIN, NOW + 3 * MIN, NOW)).toBe('in about 3 min');
    expect(etaWords(NOW - MIN, NOW, NOW)).toBe('due now');
  });

  it('counts down to the predicted time', () => {
    expect(countdown(NOW + 5 * MIN + 32_000, NOW)).toBe('5:32');
    expect(countdown(NOW - 1_000, NOW)).toBe('0:00');
  });
});
