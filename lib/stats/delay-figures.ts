// The delay figures of a set of trips (counts by class, mean, median, p90, worst, on-time share): the board, the
// wall, the history's rollups and their tests all count the same way from here.
import { tripDelayClass, type DelayFigures, type DelayThresholds } from '@/lib/model';
import { percentile } from './percentile';

/** Figures of any set of trips: the live ones, or a past period's (lib/history reads its stored delays through it). */
export function delayFigures(trips: readonly { delayMinutes: number | null }[], thresholds: DelayThresholds): DelayFigures {
  const delays: number[] = [];
  let early = 0;
  let onTime = 0;
  let late = 0;
  for (const t of trips) {
    const cls = tripDelayClass(t.delayMinutes, thresholds);
    if (cls === 'unknown') continue;
    delays.push(t.delayMinutes!);
    if (cls === 'early') early++;
    else if (cls === 'late') late++;
    else onTime++;
  }
  delays.sort((a, b) => a - b);
  const n = delays.length;
  return {
    activeTrips: trips.length,
    knownDelay: n,
    unknownDelay: trips.length - n,
    early,
    onTime,
    late,
    meanMin: n ? delays.reduce((s, d) => s + d, 0) / n : null,
    medianMin: percentile(delays, 0.5),
    p90Min: percentile(delays, 0.9),
    worstMin: n ? delays[n - 1]! : null,
    onTimeShare: n ? onTime / n : null,
  };
}
