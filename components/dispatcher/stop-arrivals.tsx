'use client';
import { useQuery } from '@tanstack/react-query';
import { stopArrivalsQuery } from '@/lib/client/queries';
import { basisLabel, countdown, etaWords } from '@/lib/view/eta';
import { formatClock } from '@/lib/view/format';
import type { ResolvedZone } from '@/lib/view/display-zone';

/** "Next arrivals here": every route serving the physical stop of a clicked route stop, soonest first. */
export function StopArrivals({ stopId, now, zone, onClose }: { stopId: number; now: number; zone: ResolvedZone; onClose: () => void }) {
  const q = useQuery(stopArrivalsQuery(stopId));
  const d = q.data;
  return (
    <section aria-labelledby="stop-arrivals-title" className="flex max-h-full min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white/97 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900/97">
      <header className="flex items-start gap-2 border-b border-slate-200 px-3 py-2.5 dark:border-slate-700">
        <div className="min-w-0 flex-1">
          <h2 id="stop-arrivals-title" className="truncate text-base font-semibold">
            Next arrivals here{d ? `: ${d.place.name}` : ''}
          </h2>
          {d && <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">Routes: {d.place.routes.map((r) => r.code ?? r.name ?? `#${r.routeId}`).join(', ')}</p>}
        </div>
        <button type="button" onClick={onClose} aria-label="Close next arrivals" className="inline-flex size-8 items-center justify-center rounded-md border border-slate-300 text-xs dark:border-slate-600">
          ×
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2.5">
        {q.isError && <p className="text-xs text-red-700 dark:text-red-400">Arrivals unavailable: {q.error.message}</p>}
        {!d && !q.isError && <p className="text-xs text-slate-500 dark:text-slate-400">Loading arrivals…</p>}
        {d && d.arrivals.length === 0 && <p className="text-xs text-slate-500 dark:text-slate-400">No bus is on its way here now.</p>}
        {d && d.arrivals.length > 0 && (
          <ol aria-label="Next arrivals" className="divide-y divide-slate-100 dark:divide-slate-800">
            {d.arrivals.map((a) => (
              <li key={`${a.tripId}-${a.stopId}`} className="flex items-baseline gap-2 py-1" data-route-id={a.routeId ?? ''}>
                <span className="rounded bg-slate-800 px-1.5 py-px text-xs font-bold text-white dark:bg-slate-200 dark:text-slate-900">{a.routeCode ?? a.routeId ?? '?'}</span>
                <span className="min-w-0 flex-1 truncate text-xs">{a.headsign ? `to ${a.headsign}` : ''}</span>
                <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400" title={basisLabel(a.basis)}>
                  {etaWords(a.earliestAt, a.latestAt, now)}
                </span>
                <span className="w-10 text-right font-medium tabular-nums">{formatClock(a.arrivalAt, false, zone.zone)}</span>
                <span className="w-10 text-right text-xs tabular-nums">{countdown(a.arrivalAt, now)}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
