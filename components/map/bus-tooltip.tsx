'use client';
import type { Vehicle } from '@/lib/model';
import { basisPhrase, type BusPlacement } from '@/lib/placement/bus-placement';
import { hasPosition } from '@/lib/placement/bus';
import { DELAY_LABELS } from '@/lib/view/delay-palette';
import { isStaleAge, locationAgeS } from '@/lib/placement/ages';
import { formatAgo, formatDelay, formatDuration } from '@/lib/view/format';

export type MapHover = { kind: 'bus'; busId: number; x: number; y: number } | { kind: 'stop'; name: string; role: string; x: number; y: number };

const box =
  'pointer-events-none absolute z-20 max-w-64 -translate-x-1/2 -translate-y-[calc(100%+12px)] rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs leading-snug text-slate-800 shadow-md dark:border-slate-700 dark:bg-slate-900/95 dark:text-slate-100';

/** A small card next to the pointer: enough to tell buses apart without opening the panel. */
export function MapTooltip({ hover, vehicle, placement, now, staleAfterS }: { hover: MapHover; vehicle: Vehicle | undefined; placement: BusPlacement | undefined; now: number; staleAfterS: number }) {
  if (hover.kind === 'stop') {
    return (
      <div className={box} style={{ left: hover.x, top: hover.y }} role="tooltip">
        <div className="font-medium">{hover.name}</div>
        {hover.role !== 'stop' && <div className="text-slate-500 dark:text-slate-400">{hover.role === 'start' ? 'First stop' : 'Last stop'}</div>}
      </div>
    );
  }
  if (!vehicle) return null;
  const age = locationAgeS(vehicle.gpsAt, now);
  const stale = isStaleAge(age, staleAfterS);
  const trip = vehicle.trip;
  const basis = placement ? basisPhrase(placement.estimate, now, formatDuration) : null;
  return (
    <div className={box} style={{ left: hover.x, top: hover.y }} role="tooltip">
      <div className="font-semibold tabular-nums">{vehicle.plateNumber ?? vehicle.busName ?? `Bus #${vehicle.busId}`}</div>
      <div>{trip ? `${trip.routeCode ?? '—'} ${trip.routeName ?? ''}`.trim() : 'No active trip'}</div>
      {trip && (
        <div className="tabular-nums">
          {DELAY_LABELS[trip.delayClass]} · {formatDelay(trip.delayMinutes)}
        </div>
      )}
      {basis && <div className="font-medium">{basis[0]!.toUpperCase() + basis.slice(1)}</div>}
      {hasPosition(vehicle) ? (
        <div className={stale ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-slate-500 dark:text-slate-400'}>
          Fix {formatAgo(age)}
          {stale ? ' · stale' : ''}
        </div>
      ) : (
        <div className="text-slate-500 dark:text-slate-400">No GPS fix</div>
      )}
    </div>
  );
}
