// Headways over days: when a trip reached each point of its timetable, from the changes of its delay the recorder
// kept (history_trip_delay_changes: each change of /trips/active's delay_minutes, at the walk that saw it).
//
// delay_minutes is the trip's deviation from its timetable at that moment, rounded to the minute (the simulator's
// is round(delay seconds / 60) of its progress, lib/sim/world.ts; the feed's is documented the same). The trip is at
// the point its timetable reaches `s` seconds after its planned departure when t − delay(t) = plannedDeparture + s.
// A change from d to d′ says the deviation crossed (d + d′) / 2 about then; the first value seen, and the last one
// when the trip ended (no change seen since: it held until then), are the best guess at those times. The deviation
// is taken piecewise linear through those knots (flat before the first and after the last). As steps, a bus held
// still, the delay rising a minute a minute, would reach the points just past where it stood anywhere within the
// hold; through the crossings its progress clock (t − delay) stays at where it stood until the hold ends. The
// progress clock never goes back (a bus does not return along its route): a point is reached the first time it
// gets there.
import type { EpochMs } from '@/lib/model';

/** A change of the trip's delay as the recorder saw it on /trips/active: the walk's time and the new value. */
export interface DelayChange {
  at: EpochMs;
  delayMinutes: number | null;
}

/**
 * The trip's clock: when it reached the point its timetable reaches at `plannedAt` (epoch ms of its planned time
 * there), by its recorded delay (`until`: when the trip ended, its last value holding until then); null without any
 * delay recorded.
 */
export function delayClock(changes: readonly DelayChange[], until: EpochMs | null = null): ((plannedAt: EpochMs) => EpochMs) | null {
  const known = changes.filter((c): c is { at: EpochMs; delayMinutes: number } => c.delayMinutes !== null && Number.isFinite(c.delayMinutes)).sort((a, b) => a.at - b.at);
  if (known.length === 0) return null;
  // Knots of the deviation (ms): the first value seen, then at each change halfway between the values before and
  // after it, and the last value again when the trip ended (no change seen since: it held until then).
  const knots: { at: EpochMs; delayMs: number }[] = [{ at: known[0]!.at, delayMs: known[0]!.delayMinutes * 60_000 }];
  for (let i = 1; i < known.length; i++) knots.push({ at: known[i]!.at, delayMs: ((known[i - 1]!.delayMinutes + known[i]!.delayMinutes) / 2) * 60_000 });
  const last = knots[knots.length - 1]!;
  if (until !== null && until > last.at) knots.push({ at: until, delayMs: known[known.length - 1]!.delayMinutes * 60_000 });
  return (plannedAt) => {
    // Before the first knot the deviation is flat: the progress clock runs with time.
    const first = knots[0]!;
    let reached = first.at - first.delayMs;
    if (plannedAt <= reached) return plannedAt + first.delayMs;
    for (let i = 1; i < knots.length; i++) {
      const a = knots[i - 1]!;
      const b = knots[i]!;
      const gb = b.at - b.delayMs;
      if (gb > reached && plannedAt <= gb) {
        // In this stretch the clock passes `plannedAt` for the first time: linear between the knots, from where it
        // first gets beyond what it had reached (`reached` is at least this stretch's start, so gb > ga).
        const ga = a.at - a.delayMs;
        const tFrom = a.at + ((reached - ga) / (gb - ga)) * (b.at - a.at);
        return tFrom + ((plannedAt - reached) / (gb - reached)) * (b.at - tFrom);
      }
      reached = Math.max(reached, gb);
    }
    // After the last knot the deviation is flat again.
    return plannedAt + knots[knots.length - 1]!.delayMs;
  };
}
