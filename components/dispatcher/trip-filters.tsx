'use client';
import Link from 'next/link';
import type { Ref } from 'react';
import type { DelayClass } from '@/lib/model';
import type { Theme } from '@/lib/theme/theme';
import { DELAY_CLASSES, NO_FILTERS, SPACING_FILTERS, type ClassCounts, type RouteOption, type SortKey, type TripFilters as Filters } from '@/lib/view/trip-list';
import { ladderHref } from '@/lib/page-url/ladder-url';
import { DelayDot } from './delay-badge';

const CHIP_LABELS: Record<DelayClass, string> = { late: 'Late', 'on-time': 'On time', early: 'Early', unknown: 'Unknown' };

const control =
  'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

export interface TripFiltersProps {
  filters: Filters;
  sort: SortKey;
  counts: ClassCounts;
  routes: RouteOption[];
  directions: string[];
  shown: number;
  total: number;
  theme: Theme;
  searchRef: Ref<HTMLInputElement>;
  onChange: (patch: { filters?: Filters; sort?: SortKey }) => void;
}

export function TripFilters({ filters, sort, counts, routes, directions, shown, total, theme, searchRef, onChange }: TripFiltersProps) {
  const set = (f: Partial<Filters>) => onChange({ filters: { ...filters, ...f } });
  const toggleClass = (c: DelayClass) =>
    set({ delayClasses: filters.delayClasses.includes(c) ? filters.delayClasses.filter((x) => x !== c) : [...filters.delayClasses, c] });
  const filtered = filters.routeId !== null || filters.direction !== null || filters.delayClasses.length > 0 || filters.staleOnly || filters.spacing !== null || filters.query !== '';
  return (
    <div className="flex flex-col gap-2 border-b border-slate-200 p-3 dark:border-slate-800">
      <div className="flex w-full max-w-3xl flex-col gap-2">
        <div className="relative">
          <label htmlFor="trip-search" className="sr-only">
            Search trips
          </label>
          <input
            id="trip-search"
            ref={searchRef}
            type="search"
            value={filters.query}
            onChange={(e) => set({ query: e.target.value })}
            placeholder="Search plate, bus, route, trip id"
            autoComplete="off"
            spellCheck={false}
            className={`${control} w-full pr-8`}
          />
          <kbd className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 rounded border border-slate-300 px-1 text-[10px] text-slate-500 dark:border-slate-600 dark:text-slate-400" aria-hidden>
            /
          </kbd>
        </div>
        <div className="grid grid-cols-4 gap-1" role="group" aria-label="Filter by delay class">
          {DELAY_CLASSES.map((c) => {
            const on = filters.delayClasses.includes(c);
            return (
              <button
                key={c}
                type="button"
                aria-pressed={on}
                onClick={() => toggleClass(c)}
                className={`inline-flex h-7 items-center justify-center gap-1 rounded-full border px-1.5 text-[11px] whitespace-nowrap font-medium tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 ${
                  on
                    ? 'border-slate-800 bg-slate-800 text-white dark:border-slate-200 dark:bg-slate-200 dark:text-slate-900'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
                }`}
              >
                <DelayDot cls={c} theme={theme} />
                {CHIP_LABELS[c]} <span className="font-semibold">{counts[c]}</span>
              </button>
            );
          })}
        </div>
        <div className="grid grid-cols-2 gap-1.5">
          <label className="sr-only" htmlFor="filter-route">
            Route
          </label>
          <select id="filter-route" className={control} value={filters.routeId ?? ''} onChange={(e) => set({ routeId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">All routes</option>
            {routes.map((r) => (
              <option key={r.routeId} value={r.routeId}>
                {r.label}
              </option>
            ))}
          </select>
          <label className="sr-only" htmlFor="filter-direction">
            Direction
          </label>
          <select id="filter-direction" className={control} value={filters.direction ?? ''} onChange={(e) => set({ direction: e.target.value || null })}>
            <option value="">All directions</option>
            {directions.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
          <label className="sr-only" htmlFor="trip-sort">
            Sort by
          </label>
          <select id="trip-sort" className={control} value={sort} onChange={(e) => onChange({ sort: e.target.value as SortKey })}>
            <option value="delay">Latest first</option>
            <option value="route">By route</option>
            <option value="age">Oldest position first</option>
          </select>
          <label className="flex h-8 items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input type="checkbox" checked={filters.staleOnly} onChange={(e) => set({ staleOnly: e.target.checked })} className="size-4 accent-blue-700" />
            Stale or no position
          </label>
          <label className="sr-only" htmlFor="filter-spacing">
            Spacing
          </label>
          <select id="filter-spacing" className={control} value={filters.spacing ?? ''} onChange={(e) => set({ spacing: (SPACING_FILTERS as readonly string[]).includes(e.target.value) ? (e.target.value as Filters['spacing']) : null })}>
            <option value="">Any spacing</option>
            <option value="bunched">Bunched</option>
            <option value="gapped">Gapped</option>
          </select>
          {/* The route chosen above, on the ladder (every route's list when none is chosen). */}
          <Link href={ladderHref(filters.routeId !== null ? [String(filters.routeId)] : [])} prefetch={false} className="flex h-8 items-center text-sm font-medium text-blue-700 hover:underline dark:text-blue-400">
            {filters.routeId !== null ? 'This route’s ladder' : 'Route ladder'}
          </Link>
        </div>
        <div className="flex items-center justify-between text-xs text-slate-500 dark:text-slate-400">
          <span className="tabular-nums">
            {shown === total ? `${total} active trips` : `${shown} of ${total} active trips`}
          </span>
          {filtered && (
            <button type="button" className="font-medium text-blue-700 hover:underline dark:text-blue-400" onClick={() => onChange({ filters: NO_FILTERS })}>
              Clear filters
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
