import { describe, expect, it } from 'vitest';
import { delayClock, type DelayChange } from './delay-clock';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 4, 13);
const s = (ms: number) => Math.round((ms - T0) / 1000);

describe('a trip’s clock from its recorded delay', () => {
  it('knows nothing without a delay recorded', () => {
    expect(delayClock([])).toBeNull();
    expect(delayClock([{ at: T0, delayMinutes: null }])).toBeNull();
  });

  it('shifts the timetable by a delay that never changed', () => {
    const clock = delayClock([{ at: T0, delayMinutes: 3 }])!;
    expect(s(clock(T0 + 10 * MIN))).toBe(13 * 60);
  });

  it('takes the first value seen as the delay then, and the last one as the delay when the trip ended', () => {
    // Seen 2 minutes late from T0; 3 from 10 minutes on (the deviation crossed 2.5 then); the trip ended at 20.
    const clock = delayClock([{ at: T0, delayMinutes: 2 }, { at: T0 + 10 * MIN, delayMinutes: 3 }], T0 + 20 * MIN)!;
    expect(s(clock(T0 - 2 * MIN))).toBe(0);
    expect(s(clock(T0 + 17 * MIN))).toBe(20 * 60);
    // Between them, through the crossing.
    expect(s(clock(T0 + 7.5 * MIN))).toBe(10 * 60);
  });

  it('holds a bus where it stood while its delay rose a minute a minute, through the half-minute crossings', () => {
    // On time until 5 min, then held 5 minutes: the rounded delay turns 1..5 as the true one crosses 0.5..4.5 min.
    const changes: DelayChange[] = [{ at: T0, delayMinutes: 0 }, ...[1, 2, 3, 4, 5].map((d) => ({ at: T0 + (4.5 + d) * MIN, delayMinutes: d }))];
    const clock = delayClock(changes)!;
    // Where it stood (planned at 5 min) it was reached before the hold's first change...
    expect(s(clock(T0 + 5 * MIN))).toBeLessThanOrEqual(5.5 * 60);
    // ...and 15 s further only once the delay stopped rising (read as steps, the first minute of the hold).
    expect(s(clock(T0 + 5.25 * MIN))).toBeGreaterThanOrEqual(9.5 * 60);
    // Later points follow the last delay, the clock never going back.
    expect(s(clock(T0 + 8 * MIN))).toBe(8 * 60 + 4.5 * 60);
    const times = [5, 5.1, 5.2, 5.3, 6, 7].map((m) => clock(T0 + m * MIN));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});
