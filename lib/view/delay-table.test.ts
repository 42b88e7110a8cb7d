import { describe, expect, it } from 'vitest';
import { routeDelayRows } from './delays';
import { DELAY_COLUMNS, delayTableCsv, formatMinutes, formatShare, NO_VALUE } from './delay-table';
import { trip } from '@/lib/testing/view-factories';

describe('formatting', () => {
  it('formats minutes with at most one decimal and no negative zero', () => {
    expect(formatMinutes(5)).toBe('5');
    expect(formatMinutes(4.333)).toBe('4.3');
    expect(formatMinutes(-0.04)).toBe('0');
    expect(formatMinutes(-2.25)).toBe('-2.3');
    expect(formatMinutes(null)).toBe(NO_VALUE);
  });
  it('formats shares as percent with one decimal', () => {
    expect(formatShare(2 / 3)).toBe('66.7%');
    expect(formatShare(1)).toBe('100.0%');
    expect(formatShare(null)).toBe(NO_VALUE);
  });
});

describe('delayTableCsv', () => {
  it('writes header lines, then the rows in the given order with the table cells', () => {
    const rows = routeDelayRows(
      [
        trip({ routeId: 1, routeCode: 'M1', routeName: 'Fifth, Madison', delayMinutes: 6 }),
        trip({ routeId: 2, routeCode: 'M2', routeName: 'Say "hi"', delayMinutes: null }),
      ],
      { lateMin: 5, earlyMin: 1 },
    ).reverse();
    const csv = delayTableCsv(rows, {
      dataAt: Date.UTC(2024, 0, 2, 3, 4, 5),
      exportedAt: Date.UTC(2024, 0, 2, 3, 4, 9),
      thresholds: { lateMin: 5, earlyMin: 1 },
      filters: 'route: all; direction: all',
      sortKey: 'route',
      sortDir: 'desc',
    });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines.slice(0, 7)).toEqual([
      '# Fleetmap delay board',
      '# Data at,2024-01-02T03:04:05.000Z',
      '# Exported at,2024-01-02T03:04:09.000Z',
      '# Late threshold (min),>= 5',
      '# Early threshold (min),<= -1',
      '# Filters,route: all; direction: all',
      '# Sort,Route descending',
    ]);
    expect(lines[7]).toBe('Route,Route name,Trips,Early,On time,Late,Unknown,Mean,Median,P90,Worst,On-time share');
    expect(lines[8]).toBe(`M2,"Say ""hi""",1,0,0,0,1,${NO_VALUE},${NO_VALUE},${NO_VALUE},${NO_VALUE},${NO_VALUE}`);
    expect(lines[9]).toBe('M1,"Fifth, Madison",1,0,0,1,0,6,6,6,6,0.0%');
    expect(lines).toHaveLength(10);
    expect(DELAY_COLUMNS.map((c) => c.cell(rows[1]!))).toEqual(['M1', '1', '0', '0', '1', '0', '6', '6', '6', '6', '0.0%']);
  });
});
