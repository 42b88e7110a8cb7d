import { describe, expect, it } from 'vitest';
import { parseThresholdMinutes, sameThresholds } from './delay-thresholds';

describe('parseThresholdMinutes', () => {
  it('accepts whole minutes within range', () => {
    expect(parseThresholdMinutes(' 7 ', 'late')).toEqual({ ok: true, value: 7 });
    expect(parseThresholdMinutes('1440', 'early')).toEqual({ ok: true, value: 1440 });
  });
  it('explains what is wrong', () => {
    expect(parseThresholdMinutes('', 'late')).toEqual({ ok: false, message: 'Late threshold must be a whole number of minutes' });
    expect(parseThresholdMinutes('2.5', 'early')).toMatchObject({ ok: false, message: expect.stringMatching(/Early threshold/) });
    expect(parseThresholdMinutes('-3', 'late')).toMatchObject({ ok: false });
    expect(parseThresholdMinutes('0', 'late')).toEqual({ ok: false, message: 'Late threshold must be between 1 and 1440 minutes' });
    expect(parseThresholdMinutes('1441', 'late')).toMatchObject({ ok: false });
  });
  it('compares thresholds by value', () => {
    expect(sameThresholds({ lateMin: 5, earlyMin: 1 }, { lateMin: 5, earlyMin: 1 })).toBe(true);
    expect(sameThresholds({ lateMin: 5, earlyMin: 1 }, { lateMin: 5, earlyMin: 2 })).toBe(false);
  });
});
