import { describe, expect, it } from 'vitest';
import { fleetQuery, queryObject, routesQuery, trackQuery } from './history-params';

const parse = (schema: typeof routesQuery | typeof trackQuery | typeof fleetQuery, qs: string) => {
  const r = schema.safeParse(queryObject(new URL(`http://x/?${qs}`)));
  return r.success ? { ok: true as const, value: r.data } : { ok: false as const, message: r.error.issues[0]!.message };
};

describe('history query parameters', () => {
  it('reads a period with routes and thresholds', () => {
    expect(parse(routesQuery, 'from=2026-03-01&to=2026-03-31&route=15&route=101&route=15&lateMin=3')).toEqual({
      ok: true,
      value: { from: '2026-03-01', to: '2026-03-31', route: [15, 101], lateMin: 3, earlyMin: undefined },
    });
    expect(parse(routesQuery, 'from=2026-03-01&to=2026-03-01')).toMatchObject({ ok: true, value: { route: null } });
  });

  it('names the parameter of every bad period', () => {
    expect(parse(routesQuery, 'to=2026-03-01')).toEqual({ ok: false, message: 'from is required (YYYY-MM-DD)' });
    expect(parse(routesQuery, 'from=2026-02-30&to=2026-03-01')).toEqual({ ok: false, message: 'from must be a real calendar date' });
    expect(parse(routesQuery, 'from=2026-03-02&to=2026-03-01')).toEqual({ ok: false, message: 'to must not be before from' });
    expect(parse(routesQuery, 'from=2025-01-01&to=2026-03-01')).toEqual({ ok: false, message: 'from..to spans more than 400 days' });
    expect(parse(routesQuery, 'from=2026-03-01&to=2026-03-01&route=x')).toEqual({ ok: false, message: 'route must be a positive whole number' });
    expect(parse(routesQuery, 'from=2026-03-01&to=2026-03-01&lateMin=0')).toEqual({ ok: false, message: 'lateMin must be a whole number of minutes from 1 to 1440' });
  });

  it('bounds a track to 24 hours and needs offsets on instants', () => {
    expect(parse(trackQuery, 'from=2026-03-04T08:00:00-05:00&to=2026-03-04T20:00:00Z')).toEqual({ ok: true, value: { from: Date.UTC(2026, 2, 4, 13), to: Date.UTC(2026, 2, 4, 20) } });
    expect(parse(trackQuery, 'from=2026-03-04T08:00:00&to=2026-03-04T09:00:00Z')).toMatchObject({ ok: false, message: expect.stringMatching(/^from must be an ISO date-time with an offset/) });
    expect(parse(trackQuery, 'from=2026-03-04T08:00:00Z&to=2026-03-05T08:00:01Z')).toEqual({ ok: false, message: 'from..to spans more than 24 hours' });
    expect(parse(trackQuery, 'from=2026-03-04T08:00:00Z&to=2026-03-04T08:00:00Z')).toEqual({ ok: false, message: 'to must be after from' });
    expect(parse(fleetQuery, '')).toEqual({ ok: false, message: 'at is required (an ISO date-time with an offset)' });
  });
});
