'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import type { GhostReason, HistoryTripResponse, Vehicle } from '@/lib/model';
import type { Theme } from '@/lib/theme/theme';
import { isStaleAge, locationAgeS } from '@/lib/placement/ages';
import { formatAgo, formatClock, formatDuration, formatHeading } from '@/lib/view/format';
import { zoneCaption, type ResolvedZone } from '@/lib/view/display-zone';
import { basisPhrase, type BusPlacement } from '@/lib/placement/bus-placement';
import { ApiError, tripQuery } from '@/lib/client/queries';
import { useHasRole } from '@/lib/client/use-viewer';
import { hasPosition } from '@/lib/placement/bus';
import type { ActiveTrip } from '@/lib/view/trips';
import { ladderHref } from '@/lib/page-url/ladder-url';
import { DelayBadge } from './delay-badge';
import { NextStops } from './next-stops';
import { GHOST_WORDS } from './trip-list';
import { TripDelayHistory } from './trip-delay-history';

export interface TripPanelProps {
  tripId: number | null;
  row: ActiveTrip | null;
  vehicle: Vehicle | null;
  /** Where the map draws the bus (its estimate, or its fix), or null when it is not drawn. */
  placement: BusPlacement | null;
  now: number;
  staleAfterS: number;
  theme: Theme;
  follow: boolean;
  onFollowChange: (f: boolean) => void;
  onRecentre: () => void;
  routeOverlayId: number | null;
  onToggleRoute: (routeId: number | null) => void;
  onClose: () => void;
  /** The map is shown (list-only view has no follow/re-centre). */
  hasMap: boolean;
  /** The zone times read in. */
  zone: ResolvedZone;
  /** What the history recorded of the trip (its delay changes and trail), when it has. */
  history?: HistoryTripResponse;
  /** Why the trip is a ghost (lib/regularity/ghosts.ts), or null. */
  ghost?: GhostReason | null;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-0.5">
      <dt className="shrink-0 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-right font-medium tabular-nums">{children}</dd>
    </div>
  );
}

const button =
  'inline-flex h-8 items-center justify-center gap-1.5 rounded-md border px-2.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50';
const buttonIdle = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800';
const buttonOn = 'border-blue-700 bg-blue-700 text-white hover:bg-blue-800 dark:border-blue-400 dark:bg-blue-400 dark:text-slate-950';

/**
 * What one trip and its bus are doing: live values from the snapshot, details from the trip resource.
 * A trip that ended (404) keeps the panel usable with what the snapshot still knows.
 */
export function TripPanel(p: TripPanelProps) {
  const { tripId, row, vehicle, placement, now, staleAfterS, theme, zone } = p;
  // Trip detail is an upstream request on demand: the dispatcher's right, not the viewer's.
  const canDispatch = useHasRole('dispatcher');
  const details = useQuery({ ...tripQuery(tripId ?? 0), enabled: tripId !== null && canDispatch });
  const trip = tripId !== null ? details.data?.trip : undefined;
  const notFound = details.error instanceof ApiError && details.error.status === 404;
  const live = vehicle?.trip && vehicle.trip.tripId === tripId ? vehicle.trip : null;

  const routeCode = row?.routeCode ?? trip?.routeCode ?? live?.routeCode ?? null;
  const routeName = row?.routeName ?? trip?.routeName ?? live?.routeName ?? null;
  const routeId = row?.routeId ?? trip?.routeId ?? null;
  const delayMinutes = row ? row.delayMinutes : (trip?.delayMinutes ?? null);
  const delayClass = row?.delayClass ?? live?.delayClass ?? 'unknown';
  const times = trip ?? live;
  const status = row?.status ?? trip?.status ?? null;
  const direction = row?.direction ?? trip?.direction ?? null;

  const age = vehicle ? locationAgeS(vehicle.gpsAt, now) : null;
  const positioned = vehicle !== null && hasPosition(vehicle);
  const stale = positioned && isStaleAge(age, staleAfterS);
  const placed = placement !== null;
  // How the map places the bus, in words: never leave a guess looking like a fix.
  const shownAs = placement ? (basisPhrase(placement.estimate, now, formatDuration) ?? 'at its last fix') : 'not on the map';
  const title = tripId !== null ? `${routeCode ?? 'Trip'} ${routeName ?? ''}`.trim() : (vehicle?.plateNumber ?? vehicle?.busName ?? 'Bus');

  return (
    <section aria-labelledby="trip-panel-title" className="flex max-h-full min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white/97 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900/97">
      <header className="flex items-start gap-2 border-b border-slate-200 px-3 py-2.5 dark:border-slate-700">
        <div className="min-w-0 flex-1">
          <h2 id="trip-panel-title" className="flex items-center gap-2 text-base font-semibold">
            {routeCode && <span className="rounded bg-slate-800 px-1.5 py-px text-xs font-bold text-white dark:bg-slate-200 dark:text-slate-900">{routeCode}</span>}
            <span className="truncate">{tripId !== null ? (routeName ?? `Trip ${tripId}`) : title}</span>
          </h2>
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {tripId !== null ? `Trip #${tripId}` : 'No active trip'}
            {direction ? ` · ${direction}` : ''}
            {status ? ` · status “${status}”` : ''}
            {tripId !== null && (routeCode ?? routeId) !== null && (
              <>
                {' · '}
                <Link href={`${ladderHref([routeCode ?? String(routeId)])}&trip=${tripId}`} prefetch={false} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
                  Ladder
                </Link>
              </>
            )}
          </p>
          {p.ghost && (
            <p className="mt-1 inline-flex items-center gap-1 rounded border border-dashed border-slate-400 px-1.5 py-px text-xs font-semibold text-slate-700 dark:border-slate-500 dark:text-slate-200">
              Ghost trip: {GHOST_WORDS[p.ghost]}
            </p>
          )}
        </div>
        <button type="button" onClick={p.onClose} aria-label="Close trip panel" className={`${button} ${buttonIdle} size-8 px-0`}>
          <svg viewBox="0 0 20 20" className="size-4" aria-hidden fill="currentColor">
            <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
          </svg>
        </button>
      </header>

      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto px-3 py-2.5">
        {tripId !== null && (
          <div className="flex flex-wrap items-center gap-2">
            <DelayBadge cls={delayClass} delayMinutes={delayMinutes} theme={theme} size="lg" />
            {notFound && <span className="text-xs font-medium text-amber-700 dark:text-amber-400">Trip finished or not found</span>}
            {details.isError && !notFound && <span className="text-xs text-red-700 dark:text-red-400">Trip details unavailable: {details.error.message}</span>}
            {!canDispatch && <span className="text-xs text-slate-500 dark:text-slate-400">Trip details need the dispatcher role</span>}
          </div>
        )}

        <div className="flex flex-wrap gap-1.5">
          {p.hasMap && (
            <>
              <button type="button" aria-pressed={p.follow} disabled={!placed || !canDispatch} onClick={() => p.onFollowChange(!p.follow)} className={`${button} ${p.follow ? buttonOn : buttonIdle}`} title="Keep the bus centred (f)">
                Follow
              </button>
              <button type="button" disabled={!placed} onClick={p.onRecentre} className={`${button} ${buttonIdle}`}>
                Re-centre
              </button>
            </>
          )}
          <button
            type="button"
            aria-pressed={routeId !== null && p.routeOverlayId === routeId}
            disabled={routeId === null || !p.hasMap}
            onClick={() => p.onToggleRoute(p.routeOverlayId === routeId ? null : routeId)}
            className={`${button} ${routeId !== null && p.routeOverlayId === routeId ? buttonOn : buttonIdle}`}
          >
            Show route
          </button>
        </div>

        <div>
          <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Bus</h3>
          <dl>
            <Field label="Plate">{vehicle?.plateNumber ?? row?.plateNumber ?? trip?.plateNumber ?? '—'}</Field>
            <Field label="Name">{vehicle?.busName ?? row?.busName ?? trip?.busName ?? '—'}</Field>
            <Field label="Internal code">{vehicle?.internalCode ?? row?.internalCode ?? '—'}</Field>
          </dl>
        </div>

        {tripId !== null && (
          <div>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Schedule</h3>
            <table className="w-full text-left tabular-nums">
              <caption className="sr-only">Planned and actual times</caption>
              <thead className="text-xs text-slate-500 dark:text-slate-400">
                <tr>
                  <th scope="col" className="font-normal" />
                  <th scope="col" className="font-normal">Planned</th>
                  <th scope="col" className="font-normal">Actual</th>
                </tr>
              </thead>
              <tbody className="font-medium">
                <tr>
                  <th scope="row" className="py-0.5 font-normal text-slate-500 dark:text-slate-400">Departure</th>
                  <td>{formatClock(times?.plannedDepartureAt ?? null, false, zone.zone)}</td>
                  <td>{formatClock(times?.actualDepartureAt ?? null, false, zone.zone)}</td>
                </tr>
                <tr>
                  <th scope="row" className="py-0.5 font-normal text-slate-500 dark:text-slate-400">Arrival</th>
                  <td>{formatClock(times?.plannedArrivalAt ?? null, false, zone.zone)}</td>
                  <td>{formatClock(times?.actualArrivalAt ?? null, false, zone.zone)}</td>
                </tr>
              </tbody>
            </table>
            <p className="mt-1 text-[11px] text-slate-500 dark:text-slate-400">Times in {zoneCaption(zone)}.</p>
            {trip && (
              <dl className="mt-1">
                {trip.tripDate && <Field label="Service date">{trip.tripDate}</Field>}
                {trip.tripType && <Field label="Trip type">{trip.tripType}</Field>}
                {trip.serviceKind && <Field label="Service kind">{trip.serviceKind}</Field>}
              </dl>
            )}
          </div>
        )}

        {tripId !== null && canDispatch && <NextStops tripId={tripId} now={now} zone={zone} />}

        {p.hasMap && (
          <p className="rounded-md bg-slate-100 px-2 py-1.5 text-xs dark:bg-slate-800" aria-label="Position on the map">
            <span className="font-semibold">On the map: </span>
            {shownAs}
          </p>
        )}

        {tripId !== null && (
          <div>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Delay over time</h3>
            <TripDelayHistory history={p.history} now={now} />
          </div>
        )}

        <div>
          <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Last position</h3>
          {positioned && vehicle ? (
            <dl>
              <Field label="GPS time">{formatClock(vehicle.gpsAt, true, zone.zone)}</Field>
              <Field label="Age">
                <span className={stale ? 'text-amber-700 dark:text-amber-400' : ''}>
                  {formatAgo(age)}
                  {stale ? ' · stale' : ''}
                </span>
              </Field>
              <Field label="Speed">{vehicle.speedKmh === null ? '—' : `${Math.round(vehicle.speedKmh)} km/h`}</Field>
              <Field label="Heading">{vehicle.heading === null ? '—' : formatHeading(vehicle.heading)}</Field>
              {/* The spec gives no unit for accuracy: shown raw. */}
              <Field label="Accuracy (unit not given)">{vehicle.accuracy === null ? '—' : String(vehicle.accuracy)}</Field>
              <Field label="Fetched">{vehicle.fetchedAt === null ? '—' : formatAgo(Math.max(0, (now - vehicle.fetchedAt) / 1000))}</Field>
            </dl>
          ) : (
            <p className="text-slate-500 dark:text-slate-400">No position for this bus.</p>
          )}
        </div>
      </div>
    </section>
  );
}
