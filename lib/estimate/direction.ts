// Which of a route's stops a trip runs through. The spec lists a route's stops (`stop_order`, `is_start`,
// `is_end`) and gives trips a `direction` (sample value `outbound`), but does not say how the two meet. Our rule:
//  - the stops in stop_order (ties by id) are cut into runs: a run begins at an is_start stop and ends after an
//    is_end stop; with no stop flagged, all the stops are one run;
//  - `outbound` (or GTFS's `0`) takes the first run, `inbound` (or `1`) the second; a route of one run serves
//    `outbound` and trips with no direction;
//  - anything else cannot be split (no run for the value, an unknown value, an inbound trip on a route of one run
//    whose reverse is not given, three or more runs): the caller keeps the bus at its last fix.
import { stopsInOrder } from '@/lib/geo/route-lines';
import type { RouteStop } from '@/lib/model';

export type DirectionSplit =
  | { ok: true; stops: RouteStop[] }
  | { ok: false; reason: 'unknown-direction' | 'no-run-for-direction' | 'too-many-runs' | 'no-stops' };

/** The route's stops cut into runs (see the rule above), each in stop_order. */
export function directionRuns(stops: readonly RouteStop[]): RouteStop[][] {
  const ordered = stopsInOrder(stops);
  const runs: RouteStop[][] = [];
  let run: RouteStop[] = [];
  for (const s of ordered) {
    if (s.isStart && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push(s);
    if (s.isEnd) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Index of the run a direction value names, or null for a value the rule does not know. */
export function runIndexOf(direction: string | null): 0 | 1 | 'any' | null {
  if (direction === null) return 'any';
  const d = direction.trim().toLowerCase();
  if (d === '') return 'any';
  if (d === 'outbound' || d === '0') return 0;
  if (d === 'inbound' || d === '1') return 1;
  return null;
}

/** The stops of the trip's direction, in order, or why they cannot be told. */
export function stopsForDirection(stops: readonly RouteStop[], direction: string | null): DirectionSplit {
  const runs = directionRuns(stops);
  if (runs.length === 0) return { ok: false, reason: 'no-stops' };
  if (runs.length > 2) return { ok: false, reason: 'too-many-runs' };
  const index = runIndexOf(direction);
  if (index === null) return { ok: false, reason: 'unknown-direction' };
  if (index === 'any') return runs.length === 1 ? { ok: true, stops: runs[0]! } : { ok: false, reason: 'unknown-direction' };
  const run = runs[index];
  return run ? { ok: true, stops: run } : { ok: false, reason: 'no-run-for-direction' };
}
