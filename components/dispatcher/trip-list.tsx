'use client';
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { GhostReason } from '@/lib/model';
import type { Theme } from '@/lib/theme/theme';
import { isStaleAge } from '@/lib/placement/ages';
import { formatAgo } from '@/lib/view/format';
import { tripAgeS } from '@/lib/view/trip-list';
import type { ActiveTrip } from '@/lib/view/trips';
import { DelayBadge, DelayDot } from './delay-badge';

const ROW_HEIGHT = 54;

export function tripOptionId(tripId: number) {
  return `trip-option-${tripId}`;
}

export const GHOST_WORDS: Record<GhostReason, string> = { 'no-bus': 'no bus', 'never-located': 'bus never located', 'not-located': 'bus not located lately' };

export interface TripListProps {
  rows: ActiveTrip[];
  selectedTripId: number | null;
  onSelect: (row: ActiveTrip) => void;
  now: number;
  staleAfterS: number;
  theme: Theme;
  /** Ghost trips (lib/regularity/ghosts.ts) by trip id, marked in their rows. */
  ghosts?: ReadonlyMap<number, GhostReason>;
}

/**
 * The accessible equivalent of the map: a listbox of every active trip, virtualized so thousands of rows
 * cost only the ones on screen. The selection is the listbox's active descendant, kept in view.
 */
export function TripList({ rows, selectedTripId, onSelect, now, staleAfterS, theme, ghosts }: TripListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer returns fresh functions each render by design; nothing here memoizes them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const selectedIndex = selectedTripId === null ? -1 : rows.findIndex((r) => r.tripId === selectedTripId);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  if (rows.length === 0) {
    return <p className="p-4 text-sm text-slate-500 dark:text-slate-400">No active trip matches.</p>;
  }

  return (
    <div
      ref={scrollRef}
      role="listbox"
      aria-label="Active trips"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? tripOptionId(selectedTripId!) : undefined}
      className="min-h-0 flex-1 overflow-y-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const selected = row.tripId === selectedTripId;
          const age = tripAgeS(row, now);
          const stale = row.positioned && isStaleAge(age, staleAfterS);
          const ghost = ghosts?.get(row.tripId) ?? null;
          return (
            <div
              key={row.tripId}
              id={tripOptionId(row.tripId)}
              role="option"
              aria-selected={selected}
              onClick={() => onSelect(row)}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
              className={`flex cursor-pointer items-center gap-2.5 border-b border-slate-100 px-3 dark:border-slate-800/70 ${
                selected ? 'bg-blue-50 shadow-[inset_3px_0_0_#1d4ed8] dark:bg-blue-950/50 dark:shadow-[inset_3px_0_0_#93c5fd]' : 'hover:bg-slate-100/70 dark:hover:bg-slate-800/50'
              }`}
            >
              <DelayDot cls={row.delayClass} theme={theme} />
              <div className="min-w-0 flex-1">
                <div className="flex items-center gap-2">
                  <span className="rounded bg-slate-800 px-1.5 py-px text-[11px] font-bold text-white tabular-nums dark:bg-slate-200 dark:text-slate-900">{row.routeCode ?? '—'}</span>
                  <span className="truncate text-sm font-medium">{row.routeName ?? `Route ${row.routeId ?? '?'}`}</span>
                  {ghost && (
                    <span className="shrink-0 rounded border border-dashed border-slate-400 px-1 text-[10px] font-semibold text-slate-700 dark:border-slate-500 dark:text-slate-200" title={`Ghost trip: ${GHOST_WORDS[ghost]}`}>
                      Ghost
                    </span>
                  )}
                </div>
                <div className="mt-0.5 flex items-center gap-1.5 truncate text-xs text-slate-500 dark:text-slate-400">
                  <span className="font-medium text-slate-700 tabular-nums dark:text-slate-300">{row.plateNumber ?? row.busName ?? (row.busId ? `Bus #${row.busId}` : 'No bus')}</span>
                  {row.direction && <span>· {row.direction}</span>}
                  <span>·</span>
                  <span className={stale ? 'font-medium text-amber-700 dark:text-amber-400' : ''}>{row.positioned ? formatAgo(age) : 'no position'}</span>
                </div>
              </div>
              <DelayBadge cls={row.delayClass} delayMinutes={row.delayMinutes} theme={theme} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
