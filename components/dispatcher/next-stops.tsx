'use client';
import { useQuery } from '@tanstack/react-query';
import { ApiError, tripPredictionsQuery } from '@/lib/client/queries';
import { countdown, etaWords } from '@/lib/view/eta';
import { formatClock } from '@/lib/view/format';
import type { ResolvedZone } from '@/lib/view/display-zone';

/** Stops listed at most: the next few are what a dispatcher is asked about. */
const SHOWN = 8;

/** The trip's next stops with the predicted arrival, a countdown and the uncertainty in words. */
export function NextStops({ tripId, now, zone }: { tripId: number; now: number; zone: ResolvedZone }) {
  const q = useQuery(tripPredictionsQuery(tripId));
  const p = q.data?.predictions;
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Next stops</h3>
      {q.isError && <p className="text-xs text-red-700 dark:text-red-400">{q.error instanceof ApiError && q.error.status === 404 ? 'No predictions for this trip.' : `Predictions unavailable: ${q.error.message}`}</p>}
      {!p && !q.isError && <p className="text-xs text-slate-500 dark:text-slate-400">Loading predictions…</p>}
      {p && (
        <>
          <p className="mb-1 text-[11px] text-slate-500 dark:text-slate-400">{p.note}</p>
          {p.stops.length === 0 ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">The trip has reached its last stop.</p>
          ) : (
            <ol aria-label="Next stops" className="divide-y divide-slate-100 dark:divide-slate-800">
              {p.stops.slice(0, SHOWN).map((s) => (
                <li key={s.stopId} className="flex items-baseline gap-2 py-1" data-stop-id={s.stopId}>
                  <span className="min-w-0 flex-1 truncate">{s.stopName}</span>
                  <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{etaWords(s.earliestAt, s.latestAt, now)}</span>
                  <span className="w-10 text-right font-medium tabular-nums" title="Predicted arrival">
                    {formatClock(s.arrivalAt, false, zone.zone)}
                  </span>
                  <span className="w-10 text-right text-xs tabular-nums" aria-label="Countdown">
                    {countdown(s.arrivalAt, now)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
