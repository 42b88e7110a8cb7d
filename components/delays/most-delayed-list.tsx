import Link from 'next/link';
import type { ActiveTrip } from '@/lib/view/trips';
import { routeLabel } from '@/lib/view/trips';
import { formatDelay } from '@/lib/view/format';
import { tripMapHref } from '@/lib/view/dispatcher-url';

/** The latest trips, each opening the dispatcher map with that trip selected. */
export function MostDelayedList({ trips }: { trips: readonly ActiveTrip[] }) {
  return (
    <section aria-labelledby="most-delayed-title" className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <h2 id="most-delayed-title" className="mb-2 text-sm font-medium">
        Most delayed trips
      </h2>
      {trips.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No trip has a known delay.</p>
      ) : (
        <ol className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {trips.map((t) => (
            <li key={t.tripId}>
              <Link
                href={tripMapHref(t.tripId)}
                className="flex items-baseline gap-3 rounded px-1 py-1.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:bg-slate-800"
              >
                {/* The palette's late colour is for marks; as text on the card it lacks contrast, so a darker shade of it. */}
                <span className="w-16 text-right font-semibold text-orange-800 tabular-nums dark:text-orange-300">{formatDelay(t.delayMinutes)}</span>
                <span className="w-16 font-semibold">{routeLabel(t)}</span>
                <span className="truncate text-slate-600 dark:text-slate-300">
                  trip {t.tripId}
                  {t.direction ? ` · ${t.direction}` : ''}
                  {t.plateNumber ? ` · ${t.plateNumber}` : ''}
                  {t.positioned ? '' : ' · no position'}
                </span>
                <span className="sr-only">: open on the map</span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
