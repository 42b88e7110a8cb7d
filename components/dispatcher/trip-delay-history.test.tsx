import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HistoryTripResponse } from '@/lib/model';
import { TripDelayHistory } from './trip-delay-history';

const T0 = Date.parse('2026-03-04T13:00:00Z');
const MIN = 60_000;

function history(delays: [number, number | null][], finalAt: number | null, lastSeenAt = T0 + 30 * MIN): HistoryTripResponse {
  return {
    trip: {} as HistoryTripResponse['trip'],
    firstSeenAt: T0,
    lastSeenAt,
    finalAt,
    finalFound: finalAt === null ? null : true,
    delayChanges: delays.map(([m, d]) => ({ at: T0 + m * MIN, delayMinutes: d })),
    statusChanges: [],
    trail: [],
  };
}

describe('TripDelayHistory', () => {
  it('draws one step per recorded delay up to the trip end, with zero in view and each value on hover', () => {
    const html = renderToStaticMarkup(<TripDelayHistory history={history([[0, -1], [10, null], [12, 3], [20, 6]], T0 + 40 * MIN)} now={T0 + 25 * MIN} />);
    expect(html).toContain('aria-label="Delay of this trip over time: 3 recorded values from −1 min to +6 min, worst +6 min."');
    // A step after each change: start, then a horizontal and a vertical move per later value, then on to the end.
    const d = /<path d="([^"]+)"/.exec(html)![1]!;
    expect(d.match(/H/g)).toHaveLength(3);
    expect(d.match(/V/g)).toHaveLength(2);
    // The line runs to the trip's end at the right edge of the plot (320 − 6).
    expect(d.endsWith('H314.0')).toBe(true);
    expect(html.match(/<title>/g)).toHaveLength(3);
    for (const tick of ['0′', '+6′']) expect(html).toContain(`>${tick}</text>`);
    // −1 sits a few pixels under zero: its tick would crowd zero's, so it is left out.
    expect(html).not.toContain('>−1′</text>');
  });

  it('labels each time once: over a short trip the start, middle and end would read the same', () => {
    const html = renderToStaticMarkup(<TripDelayHistory history={history([[0, 2]], null, T0 + 30_000)} now={T0 + 40_000} />);
    const times = [...html.matchAll(/<text [^>]*y="116"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(times.length).toBeGreaterThan(0);
    expect(new Set(times).size).toBe(times.length);
  });

  it('says so when nothing was recorded', () => {
    expect(renderToStaticMarkup(<TripDelayHistory history={undefined} now={T0} />)).toContain('No recorded history for this trip.');
    expect(renderToStaticMarkup(<TripDelayHistory history={history([[0, null]], null)} now={T0} />)).toContain('No delay recorded for this trip yet.');
  });
});
