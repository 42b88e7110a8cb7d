import { describe, expect, it } from 'vitest';
import type { HistoryRegularity, HistoryRouteFigures } from '@/lib/model';
import { delayTableCsv } from './delay-table';
import { historyRouteRows } from './delays';
import { describeDerivation, NOT_DERIVED, REGULARITY_COLUMNS } from './regularity-table';

const DERIVED: HistoryRegularity = { derivation: 'derived', daysNotDerived: 0, samples: 18, cvH: 0.2, awtS: 312, swtS: 300, ewtS: 12, bunchedShare: 0, gappedShare: 1 / 18, ghostTripMinutes: 13 };
const NONE: HistoryRegularity = { derivation: 'not-derived', daysNotDerived: 1, samples: null, cvH: null, awtS: null, swtS: null, ewtS: null, bunchedShare: null, gappedShare: null, ghostTripMinutes: null };

function route(routeId: number, code: string, regularity: HistoryRegularity): HistoryRouteFigures {
  return { routeId, routeCode: code, routeName: null, activeTrips: 3, knownDelay: 3, unknownDelay: 0, early: 0, onTime: 3, late: 0, meanMin: 1, medianMin: 1, p90Min: 2, worstMin: 2, onTimeShare: 1, regularity, directions: [] };
}

describe('the board’s regularity columns', () => {
  it('show the figures in minutes and shares, and "not derived" for a route whose days were recorded before', () => {
    const [m10, m11] = historyRouteRows([route(10, 'M10', DERIVED), route(11, 'M11', NONE)]);
    expect(REGULARITY_COLUMNS.map((c) => c.label)).toEqual(['Headways', 'cv_h', 'AWT', 'SWT', 'EWT', 'Bunched', 'Gapped', 'Ghost trip-min']);
    expect(REGULARITY_COLUMNS.map((c) => c.cell(m10!))).toEqual(['18', '0.20', '5.2', '5', '0.2', '0.0%', '5.6%', '13']);
    expect(REGULARITY_COLUMNS.map((c) => c.cell(m11!))).toEqual(Array(8).fill(NOT_DERIVED));
  });

  it('are in the CSV export after the delay columns, with the same cells', () => {
    const rows = historyRouteRows([route(10, 'M10', DERIVED), route(11, 'M11', NONE)]);
    const csv = delayTableCsv(rows, { dataAt: 0, exportedAt: 0, thresholds: { lateMin: 5, earlyMin: 1 }, filters: 'period: all', sortKey: 'route', sortDir: 'asc', extraColumns: REGULARITY_COLUMNS });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[7]).toBe('Route,Route name,Trips,Early,On time,Late,Unknown,Mean,Median,P90,Worst,On-time share,Headways,cv_h,AWT,SWT,EWT,Bunched,Gapped,Ghost trip-min');
    expect(lines[8]).toBe('M10,,3,0,3,0,0,1,1,2,2,100.0%,18,0.20,5.2,5,0.2,0.0%,5.6%,13');
    expect(lines[9]).toBe(`M11,,3,0,3,0,0,1,1,2,2,100.0%,${Array(8).fill(NOT_DERIVED).join(',')}`);
  });

  it('say which days of the period were not derived', () => {
    expect(describeDerivation([{ date: '2026-03-04', regularity: DERIVED }])).toBeNull();
    expect(describeDerivation([{ date: '2026-02-20', regularity: NONE }])).toMatch(/not derived for these service days/);
    expect(describeDerivation([{ date: '2026-02-20', regularity: NONE }, { date: '2026-03-04', regularity: DERIVED }])).toMatch(/1 of 2 service days \(2026-02-20\)/);
  });
});
