import { describe, expect, it } from 'vitest';
import { emptyMoment, momentVehicles, parseReplayUrl, REPLAY_STEP_MS, serializeReplayUrl, snapToStep } from './replay';

describe('the replay', () => {
  it('keeps the moment, speed, route and bus in the URL', () => {
    const s = parseReplayUrl(new URLSearchParams('at=2026-03-04T13:40:00Z&speed=60&route=15&bus=7161'));
    expect(s).toEqual({ at: Date.UTC(2026, 2, 4, 13, 40), speed: 60, routeId: 15, busId: 7161 });
    expect(serializeReplayUrl(s)).toBe('at=2026-03-04T13%3A40%3A00Z&speed=60&route=15&bus=7161');
    expect(parseReplayUrl(new URLSearchParams('at=yesterday&speed=7&route=-1'))).toEqual({ at: null, speed: 10, routeId: null, busId: null });
    expect(snapToStep(Date.UTC(2026, 2, 4, 13, 40, 7))).toBe(Date.UTC(2026, 2, 4, 13, 40, 5));
  });

  it('draws recorded buses with the delay class their trip had then', () => {
    const [v] = momentVehicles(
      {
        at: 1,
        vehicles: [
          { busId: 7, gpsAt: 10, fetchedAt: 11, lat: 40.7, lon: -73.9, heading: 90, speedKmh: 10, accuracy: 3, tripId: 5, trip: { tripId: 5, routeId: 15, routeCode: 'M15', routeName: null, direction: null, status: 'started', delayMinutes: 6 } },
        ],
        recorded: { from: 1, to: 11 },
      },
      { lateMin: 5, earlyMin: 1 },
    );
    expect(v).toMatchObject({ busId: 7, gpsAt: 10, fetchedAt: 11, trip: { tripId: 5, delayClass: 'late' } });
  });

  it('says why a moment has no bus, and offers one inside the recording', () => {
    const recorded = { from: 1_000_003_000, to: 1_000_900_000 };
    expect(emptyMoment(5, null, false)).toEqual({ reason: 'nothing-recorded', offer: null });
    const before = emptyMoment(recorded.from - 60_000, recorded, false);
    expect(before.reason).toBe('before-recording');
    // On the replay's grid, after the first fix (a moment draws fixes fetched at or before it).
    expect(before.offer! % REPLAY_STEP_MS).toBe(0);
    expect(before.offer!).toBeGreaterThanOrEqual(recorded.from);
    expect(emptyMoment(recorded.to + 1, recorded, false)).toEqual({ reason: 'after-recording', offer: recorded.to });
    expect(emptyMoment(recorded.from + 10_000, recorded, true)).toEqual({ reason: 'no-bus-on-route', offer: null });
    expect(emptyMoment(recorded.from + 10_000, recorded, false)).toEqual({ reason: 'gap', offer: null });
  });
});
